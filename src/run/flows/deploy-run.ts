/**
 * The deploy as a run, of every agent of a manifest (a step without `agents`
 * is a manifest of one, laid out flat: its run is the pipeline's, pipeline.ts).
 * Each agent's run of a manifest is that same deploy, as if it were alone, over what all share
 * (shared-work.ts: a few find or create at once, one status request a check
 * for every agent that waits, the repository listing once); one agent's
 * failure stops none of the others, and the run fails once every agent has
 * finished, naming each that failed. Its outputs and its summary are the
 * manifest's, keyed by agent; each agent's events carry its key.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { DeployRequest } from '../../inputs/deploy-request.js';
import { RunEvents, type EventView } from '../ports/events.js';
import type { RunnerIO, RunOutcome } from '../ports/runner.js';
import type { DeploymentSummary, DeploySummary } from '../ports/summaries.js';
import { deploymentEntry, keyedOutputs } from '../decisions/report.js';
import type { DeploymentEntry } from '../ports/findings.js';
import { pipeline, type SharedWork } from './pipeline.js';
import { eachAgent } from './each-agent.js';

/** One agent of a manifest as its run sees it: its key, and its deployment's name and service. */
export interface ManifestAgent {
  key: string;
  spec: Pick<DeploySpec, 'name' | 'apiUrl' | 'headers'>;
}

/** Where the manifest's outputs go: as text, and each deployment's entry as a value. */
type SetOutputs = (
  outputs: Readonly<Record<string, string>>,
  entries: ReadonlyMap<string, DeploymentEntry>,
) => void;

/** The manifest's outputs, set again as any agent's change: each agent's entry, by key. */
export class AgentsTable {
  readonly #entries = new Map<string, DeploymentEntry>();
  /** Each agent's deployment as far as its run knows it. */
  readonly #known = new Map<string, DeploymentSummary>();
  readonly #emit: SetOutputs;

  constructor(agents: readonly ManifestAgent[], emit: SetOutputs) {
    this.#emit = emit;
    for (const { key, spec } of agents) this.#entries.set(key, deploymentEntry(spec.name));
  }

  /** The view that keeps an agent's deployment as its run knows it. */
  viewOf(agent: ManifestAgent): EventView {
    return (event) => {
      if (event.kind !== 'outputs' || event.deployment === undefined) return;
      this.#known.set(agent.key, event.deployment);
      this.#set(agent, deploymentEntry(agent.spec.name, event.deployment));
    };
  }

  /** The agent's run ended: its failure, if any, joins its entry. */
  ended(agent: ManifestAgent, { failure }: RunOutcome): void {
    this.#set(agent, deploymentEntry(agent.spec.name, this.#known.get(agent.key), failure));
  }

  #set(agent: ManifestAgent, entry: DeploymentEntry): void {
    this.#entries.set(agent.key, entry);
    this.#emit(keyedOutputs(this.#entries), new Map(this.#entries));
  }
}

/**
 * Runs `runOne` for every agent asked for (the deploy's, `status`'s): one deployment laid out
 * flat is its run alone (no work to share); a manifest's outputs and summary are keyed, each
 * agent's deployment, or, when its run had none, its name (and `specOf`'s source) and why.
 */
export async function runEach<Agent extends ManifestAgent>(
  asked: { layout: 'flat' | 'keyed'; source: string; agents: readonly Agent[] },
  io: RunnerIO,
  runOne: (agent: Agent, io: RunnerIO, share?: SharedWork) => Promise<RunOutcome>,
  specOf: (agent: Agent) => DeploymentSummary['spec'],
): Promise<RunOutcome> {
  const [one] = asked.agents;
  if (asked.layout === 'flat' && one !== undefined) return runOne(one, io);
  const events = new RunEvents(io.views, io.redact);
  const table = new AgentsTable(asked.agents, (outputs, entries) =>
    events.emit({ kind: 'outputs', outputs, entries }),
  );
  const { outcomes, ...ending } = await eachAgent(asked.agents, { io, events }, runOne, table);
  const deployments = asked.agents.map((agent, at) => {
    const { key } = agent;
    const { summary: own, failure } = outcomes[at] ?? {};
    if (own?.kind === 'deploy' && own.deployments[0] !== undefined)
      return { key, summary: own.deployments[0].summary };
    return { key, summary: { spec: specOf(agent), ...(failure === undefined ? {} : { failure }) } };
  });
  const summary: DeploySummary = {
    kind: 'deploy',
    layout: 'keyed',
    source: asked.source,
    deployments,
  };
  return { ...ending, summary };
}

/** Deploys every agent asked for; never throws: how it ended is in the outcome. */
export async function runDeploy(
  asked: Pick<DeployRequest, 'layout' | 'source' | 'agents'>,
  io: RunnerIO,
): Promise<RunOutcome> {
  return runEach(
    asked,
    io,
    (agent, own, share) => pipeline(agent.spec, own, share),
    (agent) => agent.spec,
  );
}
