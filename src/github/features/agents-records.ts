/**
 * The GitHub deployment records of a manifest's deploy. Each agent's
 * environment is its entry's, else the step's, `{agent}` standing for the
 * agent's name; the agents whose environment is one text share one record.
 * An agent alone in its environment is recorded as a single deploy is; a
 * record shared by several lists every agent and its service id in its
 * payload, starts once every one of them is found or created (or has
 * failed: its id null), and ends when all of them are over: `success` only
 * when every one is live. An empty environment has no record.
 */
import { agentsOutputs } from '../../run/decisions/agents-report.js';
import type { DeploymentEntry } from '../../run/ports/findings.js';
import type { GitHubApi } from '../client/api.js';
import type { CallOptions } from '../client/calls.js';
import type { DeploymentState, DeploymentStatusRequest } from '../client/requests.js';
import type { RunReport } from '../../run/ports/progress.js';
import { description, finalStatus, type RecordContext } from './deployment-record.js';
import { AGENT_PLACEHOLDER, fillPlaceholder } from '../../common/placeholders.js';

/** One agent of the manifest, as GitHub shows it. */
export interface AgentOnGitHub {
  key: string;
  /** The agent's name (its entry's `name`, else its key): what `{agent}` stands for. */
  name: string;
  deploymentName: string;
  /** The entry's own environment, when it sets one. */
  environment?: string;
}

/** The manifest, as GitHub shows it. */
export interface ManifestOnGitHub {
  /** Where the manifest was read: its path, or `inline`. */
  source: string;
  /** The step's `name` input when set, holding `{agent}`. */
  nameTemplate?: string;
  agents: readonly AgentOnGitHub[];
}

/** The agent's environment, filled: its entry's, else the step's. */
export function environmentOf(agent: AgentOnGitHub, stepEnvironment: string): string {
  return fillPlaceholder(agent.environment ?? stepEnvironment, AGENT_PLACEHOLDER, agent.name);
}

/** The agents by environment, in the manifest's order; none for an empty environment. */
export function recordGroups(
  manifest: ManifestOnGitHub,
  stepEnvironment: string,
): Map<string, AgentOnGitHub[]> {
  const groups = new Map<string, AgentOnGitHub[]>();
  for (const agent of manifest.agents) {
    const environment = environmentOf(agent, stepEnvironment);
    if (environment === '') continue;
    groups.set(environment, [...(groups.get(environment) ?? []), agent]);
  }
  return groups;
}

/** How an agent of a shared record ended: its last report, or its failure alone. */
export interface AgentEnd {
  agent: AgentOnGitHub;
  report?: RunReport;
  failure?: string;
}

/** The shared record's final state and its description, from how each agent ended. */
export function sharedStatus(ends: readonly AgentEnd[]): { state: DeploymentState; text: string } {
  const states = ends.map(({ agent, report, failure }) =>
    report === undefined
      ? { state: 'failure' as const, text: `${agent.key}: the deploy failed: ${failure ?? ''}` }
      : finalStatus({ ...report, name: agent.key }),
  );
  const live = states.filter((s) => s.state === 'success').length;
  const count = `${live} of ${ends.length} agents live`;
  const worst =
    states.find((s) => s.state === 'error') ??
    states.find((s) => s.state === 'failure') ??
    states.find((s) => s.state === 'in_progress');
  if (worst === undefined) return { state: 'success', text: `${count}` };
  return { state: worst.state, text: `${count}; ${worst.text}` };
}

/** One GitHub deployment for several agents of one environment. */
export class SharedRecord {
  readonly #api: GitHubApi;
  readonly #context: RecordContext;
  readonly #agents: readonly AgentOnGitHub[];
  readonly #redact: (text: string) => string;
  #id: number | undefined;

  constructor(
    api: GitHubApi,
    context: RecordContext,
    agents: readonly AgentOnGitHub[],
    redact: (text: string) => string,
  ) {
    this.#api = api;
    this.#context = context;
    this.#agents = agents;
    this.#redact = redact;
  }

  get id(): number | undefined {
    return this.#id;
  }

  /** Creates the deployment, listing every agent with its id (null without one), and its `in_progress` status. */
  async start(ids: ReadonlyMap<string, string>, options: CallOptions = {}): Promise<void> {
    const { repository, sha, environment, transient } = this.#context;
    const agents = this.#agents.map((agent) => ({
      key: agent.key,
      name: agent.deploymentName,
      id: ids.get(agent.key) ?? null,
    }));
    const created = await this.#api.createDeployment(
      repository,
      {
        ref: sha,
        environment,
        transient_environment: transient,
        description: description(
          this.#redact(`Deployments of ${agents.length} agents (deploy-agent)`),
        ),
        payload: { agents },
      },
      options,
    );
    if (!created.ok) return;
    this.#id = created.value;
    const text = `${agents.length} agents: deploying`;
    await this.#status({ state: 'in_progress', text }, options);
  }

  /** The one final status, once every agent is over; nothing when never created. */
  async finish(ends: readonly AgentEnd[], options: CallOptions = {}): Promise<void> {
    await this.#status(sharedStatus(ends), options);
  }

  async #status(
    { state, text }: { state: DeploymentState; text: string },
    options: CallOptions,
  ): Promise<void> {
    if (this.#id === undefined) return;
    const body: DeploymentStatusRequest = {
      state,
      description: description(this.#redact(text)),
      ...(this.#context.runUrl === undefined ? {} : { log_url: this.#context.runUrl }),
      ...(state === 'success' ? { auto_inactive: true } : {}),
    };
    await this.#api.createDeploymentStatus(this.#context.repository, this.#id, body, options);
  }
}

/**
 * The manifest's outputs with each agent's `github-deployment-id` in `deployments` (the id of
 * the record covering it), rendered again from the deployments' entries; the rest as it is.
 */
export function withRecordIds(
  outputs: Readonly<Partial<Record<string, string>>>,
  entries: ReadonlyMap<string, DeploymentEntry> | undefined,
  ids: ReadonlyMap<string, number>,
): Readonly<Partial<Record<string, string>>> {
  const shown = outputs.deployments;
  if (shown === undefined || shown === '' || entries === undefined || ids.size === 0) {
    return outputs;
  }
  const recorded = new Map(
    [...entries].map(([key, entry]) => {
      const id = ids.get(key);
      return [key, id === undefined ? entry : { ...entry, 'github-deployment-id': String(id) }];
    }),
  );
  return { ...outputs, deployments: agentsOutputs(recorded).deployments };
}
