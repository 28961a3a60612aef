/**
 * Running every agent of a manifest at once, the one way every entry does it (deploy, plan,
 * retire, status): each agent's run as if it were alone, its events tagged with its key, over
 * the work the agents share; one agent's failure stops none of the others. Each agent's end
 * is told (`agent_over`), then the end of all (`agents_over`), once the manifest's outputs
 * are set.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { agentViews, RunEvents, type EventView } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import type { RunSummary } from '../ports/summaries.js';
import { AddressChecks } from '../decisions/address-pace.js';
import { sharedListings, Slots, type SharedWork } from '../decisions/shared-work.js';
import { StatusChecks } from '../decisions/status-checks.js';
import { dependenciesOf } from './setup.js';

/**
 * How a run of several agents ends: one message naming each failed agent and its reason,
 * with their stacks (in the agents' order); none when all succeeded.
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
  const stacks = outcomes.flatMap((outcome) => outcome.stack ?? []);
  const failure = `${failed.length} of ${agents.length} agents failed:\n${failed.join('\n')}`;
  return {
    failure: failed.length === 0 ? undefined : failure,
    stack: stacks.length === 0 ? undefined : stacks.join('\n'),
  };
}

type Access = Pick<DeploySpec, 'apiUrl' | 'headers'>;

/**
 * What the agents share, made once: a few slots in which they find or create at once (a
 * waiting agent holds none), one status request a check for every agent that waits, one
 * health check an address a tick, and each integration's repository listing read once.
 */
function sharedWork(access: Access, io: RunnerIO, events: RunEvents): SharedWork {
  const dependencies = dependenciesOf(access, io, events);
  const slots = new Slots(4);
  return {
    take: () => slots.take(),
    dependencies: {
      statusCheck: new StatusChecks(dependencies).check,
      repositories: sharedListings(dependencies.service),
      addressCheck: new AddressChecks(dependencies).answer,
    },
  };
}

/** What follows the agents' runs for the manifest: its outputs and its summary. */
interface Manifest<A> {
  /** The service the shared work reaches; the first agent's spec's when absent. */
  access?: Access;
  viewOf?(agent: A): EventView;
  ended?(agent: A, outcome: RunOutcome): void;
  /** Every agent's run is over, before the end of all is told. */
  allEnded?(outcomes: readonly RunOutcome[]): void;
  summary(outcomes: readonly RunOutcome[]): RunSummary;
}

/**
 * Runs `runOne` for every agent asked for: one laid out flat is its run alone (no work to
 * share); a manifest's at once, over what they share, its outputs and summary `keyed`'s. How
 * the run ends: failed when any agent failed, naming each, once every agent's run is over.
 */
export async function runAgents<A extends { key: string; spec?: Access }>(
  asked: { layout: 'flat' | 'keyed'; agents: readonly A[] },
  io: RunnerIO,
  runOne: (agent: A, io: RunnerIO, share?: SharedWork) => Promise<RunOutcome>,
  keyed: (events: RunEvents) => Manifest<A>,
): Promise<RunOutcome> {
  const { agents } = asked;
  const [one] = agents;
  if (asked.layout === 'flat' && one !== undefined) return runOne(one, io);
  const events = new RunEvents(io.views, io.redact);
  const manifest = keyed(events);
  // The manifest always has an agent: no service is only for none.
  const access = manifest.access ?? one?.spec ?? { apiUrl: '', headers: {} };
  const share = sharedWork(access, io, events);
  const outcomes = await Promise.all(
    agents.map(async (agent) => {
      const own = manifest.viewOf?.(agent);
      const views = [...agentViews(io.views, agent.key), ...(own === undefined ? [] : [own])];
      const outcome = await runOne(agent, { ...io, views }, share);
      manifest.ended?.(agent, outcome);
      events.emit({
        kind: 'agent_over',
        agent: agent.key,
        ...(outcome.failure === undefined ? {} : { failure: outcome.failure }),
      });
      return outcome;
    }),
  );
  manifest.allEnded?.(outcomes);
  events.emit({ kind: 'agents_over' });
  await events.settled();
  return { ...failureOfAgents(agents, outcomes), summary: manifest.summary(outcomes) };
}
