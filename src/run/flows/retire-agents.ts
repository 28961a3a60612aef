/**
 * The retire of several agents' previews (a manifest) in one run: each
 * agent's preview is looked up as the single retire does (retire-run.ts), a
 * few at once; once every agent is looked up (or failed), the adapter
 * retires them together (its environments, the manifest's one comment);
 * the run fails, once every agent's is over, when any failed, naming each.
 * Its outputs are the manifest's: `retired` the total (an environment the
 * agents share counted once), and `deployments` keyed by agent; each
 * agent's events carry its key.
 */
import type { RetireRequest } from '../../inputs/retire-inputs.js';
import { RunEvents, type EventView } from '../ports/events.js';
import type {
  AgentRetireReport,
  ReportAgentsRetired,
  ReportRetired,
  Retirement,
} from '../ports/progress.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import type { RetireSummary } from '../ports/summaries.js';
import { failureOfAgents } from './agents-failure.js';
import { runRetire } from './retire-run.js';
import { eachAgent } from './each-agent.js';

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

  viewOf(agent: AgentToRetire): EventView {
    return (event) => {
      if (event.kind !== 'outputs') return;
      this.#outputs.set(agent.key, { ...this.#outputs.get(agent.key), ...event.outputs });
    };
  }

  /** The manifest's outputs: `deployments` keyed by agent, `retired` the total. */
  outputs(
    agents: readonly AgentToRetire[],
    retirements: readonly (Retirement | undefined)[],
  ): Record<string, string> {
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
    // An environment several agents share is one set of records: counted once.
    const byEnvironment = new Map<string, number>();
    for (const retirement of retirements) {
      if (retirement?.environment === undefined) continue;
      byEnvironment.set(retirement.environment, retirement.inactive);
    }
    const retired = [...byEnvironment.values()].reduce((sum, count) => sum + count, 0);
    return {
      deployments: JSON.stringify(Object.fromEntries(entries)),
      retired: String(retired),
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
    };
  }
}

const NOTHING: Retirement = { found: 0, inactive: 0, more: false, comment: 'skipped' };

/**
 * The agents' previews retired together: each agent's `retired` waits until
 * every agent is looked up or over, then the adapter's one call retires them.
 */
class RetiredTogether {
  readonly #pending: Set<string>;
  readonly #reports: AgentRetireReport[] = [];
  readonly #hook: ReportAgentsRetired;
  readonly #all: Promise<ReadonlyMap<string, Retirement>>;
  #start: () => void = () => undefined;

  constructor(keys: readonly string[], hook: ReportAgentsRetired) {
    this.#pending = new Set(keys);
    this.#hook = hook;
    // No agent looked up: nothing on GitHub is changed, as for a single retire that failed.
    this.#all = new Promise<void>((resolve) => (this.#start = resolve)).then(() =>
      this.#reports.length === 0
        ? new Map<string, Retirement>()
        : this.#hook(this.#reports).catch(() => new Map<string, Retirement>()),
    );
  }

  /** The agent's `retired`: it is looked up; its retirement once every agent's is known. */
  retiredOf(key: string, looked: () => void): ReportRetired {
    return async (report) => {
      looked();
      this.#reports.push({ key, report });
      this.over(key);
      return (await this.#all).get(key) ?? NOTHING;
    };
  }

  /** The agent is over (looked up, or failed before). */
  over(key: string): void {
    if (!this.#pending.delete(key)) return;
    if (this.#pending.size === 0) this.#start();
  }
}

/** The retire summaries of the outcomes, in the agents' order. */
function partsOf(outcomes: readonly RunOutcome[]): RetireSummary[] {
  return outcomes.flatMap((outcome) =>
    outcome.summary?.kind === 'retire' ? [outcome.summary] : [],
  );
}

/** Retires every agent's preview; never throws: how it ended is in the outcome. */
export async function retireAgents(asked: AgentsToRetire, io: RunnerIO): Promise<RunOutcome> {
  const { source, agents, ...access } = asked;
  const events = new RunEvents(io.views, io.redact);
  const table = new RetiredTable();
  const together =
    io.retiredAgents === undefined
      ? undefined
      : new RetiredTogether(
          agents.map(({ key }) => key),
          io.retiredAgents,
        );
  const outcomes = await eachAgent(
    agents,
    { io, events, access },
    async (agent, agentIo, share) => {
      const taken = await share.take();
      let held = true;
      // The slot goes back once the agent is looked up: the others' lookups need it.
      const release = () => {
        if (held) taken();
        held = false;
      };
      const retired = together?.retiredOf(agent.key, release) ?? io.retired;
      try {
        return await runRetire(
          { ...access, name: agent.name },
          { ...agentIo, ...(retired === undefined ? {} : { retired }) },
        );
      } finally {
        release();
        together?.over(agent.key);
      }
    },
    {
      viewOf: (agent) => table.viewOf(agent),
      allEnded: (all) => {
        const retirements = partsOf(all).map((part) => part.retirement);
        events.emit({ kind: 'outputs', outputs: table.outputs(agents, retirements) });
      },
    },
  );
  const parts = partsOf(outcomes);
  return {
    ...failureOfAgents(agents, outcomes),
    summary: { kind: 'agents-retire', source, agents: parts },
  };
}
