/**
 * The deploy as a run, of every agent of a manifest (a step without `agents` is a manifest of
 * one, laid out flat: its run is the pipeline's). Each agent's run of a manifest is that same
 * deploy, as if it were alone (each-agent.ts); its outputs and summary are keyed by agent.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { DeployRequest } from '../../inputs/deploy-request.js';
import { RunEvents, withEvents, type EventView } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import { flatSummary, type DeploymentSummary } from '../ports/summaries.js';
import { deploymentEntry, keyedOutputs } from '../decisions/report.js';
import type { DeploymentEntry } from '../ports/findings.js';
import { pipeline } from './pipeline.js';
import type { SharedWork } from '../decisions/shared-work.js';
import { runAgents } from './each-agent.js';
import { unchangedAgents } from './unchanged.js';

export interface ManifestAgent {
  key: string;
  spec: Pick<DeploySpec, 'name' | 'apiUrl' | 'headers'>;
}

type SetOutputs = (
  outputs: Readonly<Record<string, string>>,
  entries: ReadonlyMap<string, DeploymentEntry>,
) => void;

/** The manifest's outputs, set again at any agent's change: each agent's entry, by key. */
class AgentsTable {
  readonly #entries = new Map<string, DeploymentEntry>();
  /** Each agent's deployment as far as its run knows it. */
  readonly #known = new Map<string, DeploymentSummary>();
  readonly #emit: SetOutputs;

  constructor(agents: readonly ManifestAgent[], emit: SetOutputs) {
    this.#emit = emit;
    for (const { key, spec } of agents) this.#entries.set(key, deploymentEntry(spec.name));
  }

  viewOf(agent: ManifestAgent): EventView {
    return (event) => {
      if (event.kind === 'skipped')
        this.#set(agent, { name: agent.spec.name, skipped: 'unchanged' });
      if (event.kind !== 'outputs' || event.deployment === undefined) return;
      this.#known.set(agent.key, event.deployment);
      this.#set(agent, deploymentEntry(agent.spec.name, event.deployment));
    };
  }

  /** The agent's run ended: its failure, if any, joins its entry. */
  ended(agent: ManifestAgent, { failure }: RunOutcome): void {
    if ('skipped' in (this.#entries.get(agent.key) ?? {})) return;
    this.#set(agent, deploymentEntry(agent.spec.name, this.#known.get(agent.key), failure));
  }

  #set(agent: ManifestAgent, entry: DeploymentEntry): void {
    this.#entries.set(agent.key, entry);
    this.#emit(keyedOutputs(this.#entries), new Map(this.#entries));
  }
}

/**
 * Runs `runOne` for every agent asked for (the deploy's, `status`'s); a manifest's summary is
 * keyed, each agent's deployment, or, when its run had none, its name (`specOf`) and why.
 */
export async function runEach<Agent extends ManifestAgent>(
  asked: { layout: 'flat' | 'keyed'; source: string; agents: readonly Agent[] },
  io: RunnerIO,
  runOne: (agent: Agent, io: RunnerIO, share?: SharedWork) => Promise<RunOutcome>,
  specOf: (agent: Agent) => DeploymentSummary['spec'],
): Promise<RunOutcome> {
  return runAgents(asked, io, runOne, (events) => {
    const table = new AgentsTable(asked.agents, (outputs, entries) =>
      events.emit({ kind: 'outputs', outputs, entries }),
    );
    return {
      viewOf: (agent) => table.viewOf(agent),
      ended: (agent, outcome) => table.ended(agent, outcome),
      summary: (outcomes) => ({
        kind: 'deploy',
        layout: 'keyed',
        source: asked.source,
        deployments: asked.agents.map((agent, at) => {
          const { key } = agent;
          const { summary: own, failure } = outcomes[at] ?? {};
          if (own?.kind === 'deploy' && own.deployments[0] !== undefined)
            return { key, summary: own.deployments[0].summary };
          return { key, summary: { spec: specOf(agent), failure } };
        }),
      }),
    };
  });
}

/** An agent the pull request does not change: told so, and nothing asked of the service or GitHub. */
function skipped(agent: DeployRequest['agents'][number], io: RunnerIO): RunOutcome {
  new RunEvents(io.views, io.redact).emit({ kind: 'skipped', reason: 'unchanged' });
  return { summary: flatSummary({ spec: agent.spec, skipped: 'unchanged' }) };
}

/**
 * Deploys every agent asked for, but one a pull request does not change (its `paths`); never
 * throws: how it ended is in the outcome.
 */
export async function runDeploy(
  asked: Pick<DeployRequest, 'layout' | 'source' | 'agents'>,
  io: RunnerIO,
): Promise<RunOutcome> {
  const unchanged = await withEvents(io, (events) =>
    unchangedAgents(asked.agents, io.changedFiles, events.logger),
  );
  return runEach(
    asked,
    io,
    (agent, own, share) =>
      unchanged.has(agent.key)
        ? Promise.resolve(skipped(agent, own))
        : pipeline(agent.spec, own, share),
    (agent) => agent.spec,
  );
}
