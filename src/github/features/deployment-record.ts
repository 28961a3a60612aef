/**
 * The GitHub deployment records of a run: one deployment in each
 * environment, an `in_progress` status once the service deployment is found
 * or created, and one final status when the run ends. A manifest's agent's
 * environment is its entry's, else the step's, `{agent}` standing for the
 * agent's name; the agents whose environment is one text share one record.
 * An agent alone in its environment is recorded as a single deploy is; a
 * record shared by several lists every agent and its service id in its
 * payload, starts once every one of them is found or created (or has
 * failed: its id null), and ends when all of them are over: `success` only
 * when every one is live. An empty environment has no record.
 */
import type { GitHubApi } from '../client/api.js';
import type { DeploymentState, DeploymentStatusRequest, Repo } from '../client/requests.js';
import type { CallOptions } from '../client/calls.js';
import { publishedOrNothing } from '../../common/address.js';
import { AGENT_PLACEHOLDER, fillPlaceholder } from '../../common/placeholders.js';
import { plainLine } from '../../common/github-text.js';
import { shortSha } from '../../common/text.js';
import { healthAnswer } from '../../run/decisions/health.js';
import type { RunReport } from '../../run/ports/progress.js';

/** GitHub's limit on a status description. */
export const DESCRIPTION_LIMIT = 140;

export interface RecordContext {
  repository: Repo;
  /** The commit the run is for (the pull request's head on pull request events). */
  sha: string;
  environment: string;
  /** A pull request's environment is transient (it goes away with the pull request). */
  transient: boolean;
  runUrl?: string;
}

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

/** A status: its state, and its description. */
type Status = { state: DeploymentState; text: string };

/** How an agent of a shared record ended: its last report, or its failure alone. */
export interface AgentEnd {
  agent: AgentOnGitHub;
  report?: RunReport;
  failure?: string;
}

/** The shared record's final state and its description, from how each agent ended. */
export function sharedStatus(ends: readonly AgentEnd[]): Status {
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

/** A description on one line, at most 140 characters. */
export function description(text: string): string {
  return plainLine(text, DESCRIPTION_LIMIT);
}

/**
 * Why the deployment is not live, when its health check was made and did not
 * pass: it does not answer (the answer, the start of its body), or the check
 * cannot be made (no `custom_url`). The description's first words say it.
 */
function unanswered({ name, health }: RunReport, withBody: boolean): string | undefined {
  if (health === undefined || health.ok) return undefined;
  if (health.address === undefined) return `${name}: ${healthAnswer(health)}`;
  const body =
    !withBody || health.excerpt === undefined ? '' : `; the answer begins: ${health.excerpt}`;
  return `${name} does not answer its health check: ${healthAnswer(health)}${body}`;
}

/** The final state and its description, from how the run ended. */
export function finalStatus(report: RunReport): Status {
  const name = report.name;
  switch (report.stage) {
    case 'live': {
      const commit = report.supersededBy ?? report.liveCommit;
      const answers =
        report.health === undefined ? '' : `; its health check ${healthAnswer(report.health)}`;
      return {
        state: 'success',
        text: `${name} is live${commit === undefined ? '' : ` at commit ${shortSha(commit)}`}${answers}`,
      };
    }
    case 'failed': {
      const unhealthy = unanswered(report, true);
      if (unhealthy !== undefined) return { state: 'failure', text: unhealthy };
      return {
        state: 'failure',
        text: `${name}: the deploy failed${report.failure === undefined ? '' : `: ${report.failure}`}`,
      };
    }
    case 'cancelled':
      return { state: 'error', text: `${name}: the run was cancelled` };
    case 'not-live':
      // A revision the deployment will never take: no later status would end an in_progress one.
      if (report.never === true) {
        return {
          state: 'failure',
          text: `${name} will not run what this run asks for${report.waitingFor === undefined ? '' : `: ${report.waitingFor}`}`,
        };
      }
      return {
        state: 'in_progress',
        text: `${unanswered(report, false) ?? `${name} is not live yet`}; the step did not wait`,
      };
    case 'deploying':
      return { state: 'in_progress', text: `${name} is not live yet; the step did not wait` };
  }
}

/** How a record is written: its API, where, and what hides secret values. */
interface RecordWriter {
  api: GitHubApi;
  context: RecordContext;
  redact: (text: string) => string;
}

/** Creates the deployment; its id, or undefined when it was not made. */
async function create(
  { api, context, redact }: RecordWriter,
  text: string,
  payload: Record<string, unknown>,
  options: CallOptions,
): Promise<number | undefined> {
  const { repository, sha, environment, transient } = context;
  const created = await api.createDeployment(
    repository,
    {
      ref: sha,
      environment,
      transient_environment: transient,
      description: description(redact(text)),
      payload,
    },
    options,
  );
  return created.ok ? created.value : undefined;
}

/** Writes a status of the deployment `id`, with the address shown when one may be published. */
async function writeStatus(
  { api, context, redact }: RecordWriter,
  id: number | undefined,
  { state, text }: Status,
  report: RunReport | undefined,
  options: CallOptions,
): Promise<void> {
  if (id === undefined) return;
  // The one address rule (src/common/address.ts): the deployment's own address when it may be
  // published, else the dashboard's, else none.
  const environmentUrl =
    report === undefined
      ? undefined
      : (publishedOrNothing(report.url) ?? publishedOrNothing(report.dashboardUrl));
  const body: DeploymentStatusRequest = {
    state,
    description: description(redact(text)),
    ...(context.runUrl === undefined ? {} : { log_url: context.runUrl }),
    ...(environmentUrl ? { environment_url: environmentUrl } : {}),
    ...(state === 'success' ? { auto_inactive: true } : {}),
  };
  await api.createDeploymentStatus(context.repository, id, body, options);
}

/** How a record starts: its description and payload, and its `in_progress` status. */
interface Start {
  text: string;
  payload: Record<string, unknown>;
  status: Status;
  report?: RunReport;
}

/** A single deploy's record starts with its deployment's id and name. */
export function singleStart(report: RunReport): Start {
  const waiting =
    report.waitingFor === undefined ? 'deploying' : `deploying (${report.waitingFor})`;
  return {
    text: `Deployment ${report.name} (deploy-agent)`,
    payload: { id: report.id ?? null, name: report.name },
    status: { state: 'in_progress', text: `${report.name}: ${waiting}` },
    report,
  };
}

/** A shared record lists every agent with its id (null without one). */
export function sharedStart(
  agents: readonly AgentOnGitHub[],
  ids: ReadonlyMap<string, string | undefined>,
): Start {
  const listed = agents.map((agent) => ({
    key: agent.key,
    name: agent.deploymentName,
    id: ids.get(agent.key) ?? null,
  }));
  return {
    text: `Deployments of ${listed.length} agents (deploy-agent)`,
    payload: { agents: listed },
    status: { state: 'in_progress', text: `${listed.length} agents: deploying` },
  };
}

/** One GitHub deployment in one environment, of one agent or shared by several. */
export class DeploymentRecord {
  readonly #writer: RecordWriter;
  #id: number | undefined;

  constructor(api: GitHubApi, context: RecordContext, redact: (text: string) => string) {
    this.#writer = { api, context, redact };
  }

  /** The GitHub deployment's id, once created. */
  get id(): number | undefined {
    return this.#id;
  }

  /** Creates the deployment and its `in_progress` status. */
  async start({ text, payload, status, report }: Start, options: CallOptions = {}): Promise<void> {
    this.#id = await create(this.#writer, text, payload, options);
    await writeStatus(this.#writer, this.#id, status, report, options);
  }

  /** The one final status; nothing when the deployment was never created. */
  async finish(status: Status, report?: RunReport, options: CallOptions = {}): Promise<void> {
    await writeStatus(this.#writer, this.#id, status, report, options);
  }
}
