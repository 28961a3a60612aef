/**
 * How a run of several agents ends: failed when any agent's run failed,
 * with one message naming each failed agent and its reason, once every
 * agent has finished.
 */
import type { RunOutcome } from '../ports/runner.js';

/** The failure and the stacks of the agents' outcomes (in the agents' order); none when all succeeded. */
export function failureOfAgents(
  agents: readonly { key: string }[],
  outcomes: readonly RunOutcome[],
): Pick<RunOutcome, 'failure' | 'stack'> {
  const failed = agents.flatMap((agent, index) => {
    const failure = outcomes[index]?.failure;
    // A reason's further lines (its remedy) stay under its agent's item.
    return failure === undefined ? [] : [`- ${agent.key}: ${failure.replaceAll('\n', '\n  ')}`];
  });
  const stacks = outcomes.flatMap((outcome) =>
    outcome.stack === undefined ? [] : [outcome.stack],
  );
  return {
    ...(failed.length === 0
      ? {}
      : { failure: `${failed.length} of ${agents.length} agents failed:\n${failed.join('\n')}` }),
    ...(stacks.length === 0 ? {} : { stack: stacks.join('\n') }),
  };
}
