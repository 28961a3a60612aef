/**
 * Running every agent of a manifest at once, the one way every entry does it (deploy, plan,
 * retire, status): each agent's run as if it were alone, its events tagged with its key, over
 * the work the agents share (shared-work.ts: a few find at once, one status request a check,
 * the repository listing once); one agent's failure stops none of the others. Each agent's
 * end is told (`agent_over`), then the end of all (`agents_over`), once the manifest's
 * outputs are set.
 */
import { agentViews, type EventView, type RunEvents } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import type { SharedWork } from './pipeline.js';
import { sharedWork } from './shared-work.js';

/**
 * How a run of several agents ends: failed when any agent's run failed, one message naming
 * each failed agent and its reason, with their stacks (in the agents' order); none when all
 * succeeded.
 */
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

/** The service the agents' shared work reaches. */
type Access = Parameters<typeof sharedWork>[0];

/** No service to share when the manifest has no agent (it always has one). */
const NO_ACCESS: Access = { apiUrl: '', headers: {} };

/** What follows the agents' runs for the manifest: its outputs, made from each agent's. */
export interface ManifestTable<A, O> {
  /** The view of one agent's own events (its outputs, its value). */
  viewOf?(agent: A): EventView;
  ended?(agent: A, outcome: O): void;
  /** Every agent's run is over, before the end of all is told. */
  allEnded?(outcomes: readonly O[]): void;
}

/**
 * Runs `runOne` for every agent at once over what they share (the service the first
 * agent's spec reaches, unless `access` says); the outcomes, in the manifest's order, and
 * how the run ends (failed when any agent failed, naming each), once every agent's run is over.
 */
export async function eachAgent<A extends { key: string; spec?: Access }, O extends RunOutcome>(
  agents: readonly A[],
  { io, events, access }: { io: RunnerIO; events: RunEvents; access?: Access },
  runOne: (agent: A, io: RunnerIO, share: SharedWork) => Promise<O>,
  table: ManifestTable<A, O> = {},
): Promise<{ outcomes: O[] } & Pick<RunOutcome, 'failure' | 'stack'>> {
  const share = sharedWork(access ?? agents[0]?.spec ?? NO_ACCESS, io, events);
  const outcomes = await Promise.all(
    agents.map(async (agent) => {
      const own = table.viewOf?.(agent);
      const views = [...agentViews(io.views, agent.key), ...(own === undefined ? [] : [own])];
      const outcome = await runOne(agent, { ...io, views }, share);
      table.ended?.(agent, outcome);
      events.emit({
        kind: 'agent_over',
        agent: agent.key,
        ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
      });
      return outcome;
    }),
  );
  table.allEnded?.(outcomes);
  events.emit({ kind: 'agents_over' });
  await events.settled();
  return { outcomes, ...failureOfAgents(agents, outcomes) };
}
