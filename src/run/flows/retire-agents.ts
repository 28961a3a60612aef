/**
 * The retire of several agents' previews (a manifest) in one run: each
 * agent's preview is retired as the single retire does (retire-run.ts), a
 * few at once; the run fails, once every agent's is over, when any failed,
 * naming each. Its outputs are the manifest's: `retired` the total, and
 * `deployments` keyed by agent; each agent's events carry its key.
 */
import type { RetireRequest } from '../../inputs/retire-inputs.js';
import { agentViews, RunEvents, type EventView } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { failureOfAgents } from './agents-failure.js';
import { runRetire } from './retire-run.js';
import { sharedWork } from './shared-work.js';

/** One agent's preview: its key, and its deployment's name (the step's template filled). */
export interface AgentToRetire {
  key: string;
  name: string;
}

/** What a retire of several agents' previews is asked to do. */
export interface AgentsToRetire extends Omit<RetireRequest, 'name'> {
  /** Where the manifest was read: its path, or `inline`. */
  source: string;
  agents: readonly AgentToRetire[];
}

/** Each agent's retire outputs, as its run sets them. */
class RetiredTable {
  readonly #outputs = new Map<string, Readonly<Partial<Record<string, string>>>>();

  constructor(agents: readonly AgentToRetire[]) {
    for (const { key } of agents) this.#outputs.set(key, {});
  }

  viewOf(agent: AgentToRetire): EventView {
    return (event) => {
      if (event.kind !== 'outputs') return;
      this.#outputs.set(agent.key, { ...this.#outputs.get(agent.key), ...event.outputs });
    };
  }

  /** The manifest's outputs: `deployments` keyed by agent, `retired` the total. */
  outputs(agents: readonly AgentToRetire[]): Record<string, string> {
    const entries = agents.map(({ key, name }) => {
      const outputs = this.#outputs.get(key) ?? {};
      return [
        key,
        {
          name,
          'deployment-id': outputs['deployment-id'] ?? '',
          status: outputs.status ?? '',
          'dashboard-url': outputs['dashboard-url'] ?? '',
          retired: Number(outputs.retired ?? '0'),
        },
      ] as const;
    });
    const retired = entries.reduce((sum, [, entry]) => sum + entry.retired, 0);
    return {
      deployments: JSON.stringify(Object.fromEntries(entries)),
      retired: String(retired),
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
    };
  }
}

/** Retires every agent's preview; never throws: how it ended is in the outcome. */
export async function retireAgents(asked: AgentsToRetire, io: RunnerIO): Promise<RunOutcome> {
  const { source, agents, ...access } = asked;
  const events = new RunEvents(io.views, io.redact);
  const table = new RetiredTable(agents);
  const share = sharedWork(access, io, events);
  const outcomes = await Promise.all(
    agents.map(async (agent) => {
      const views = [...agentViews(io.views, agent.key), table.viewOf(agent)];
      const release = await share.take();
      try {
        return await runRetire({ ...access, name: agent.name }, { ...io, views });
      } finally {
        release();
      }
    }),
  );
  events.emit({ kind: 'outputs', outputs: table.outputs(agents) });
  await events.settled();
  const parts = outcomes.flatMap((outcome) =>
    outcome.summary?.kind === 'retire' ? [outcome.summary] : [],
  );
  return {
    ...failureOfAgents(agents, outcomes),
    summary: { kind: 'agents-retire', source, agents: parts },
  };
}
