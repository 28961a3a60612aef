/**
 * The GitHub deployment records of a run: one an environment, `in_progress`
 * once the service deployment is found or created, one final status at the
 * end. Agents whose environment is one text share one record, which lists
 * each and its id (null when it failed), starts once every one is found or
 * over, and is `success` only when every one is live. An empty environment
 * has no record.
 */
import type { GitHubApi } from '../client/api.js';
import type { DeploymentState, DeploymentStatusRequest, Repo } from '../client/requests.js';
import type { CallOptions } from '../client/calls.js';
import { publishedOrNothing } from '../../common/address.js';
import { AGENT_PLACEHOLDER, fillPlaceholder, shortSha } from '../../common/text.js';
import { plainLine } from '../../common/github-text.js';
import { healthAnswer } from '../../run/decisions/health.js';
import type { RunReport } from '../../run/ports/progress.js';

export const DESCRIPTION_LIMIT = 140;

export interface RecordContext {
  repository: Repo;
  sha: string;
  environment: string;
  /** A pull request's environment is transient (it goes away with the pull request). */
  transient: boolean;
  runUrl?: string;
}

export interface AgentOnGitHub {
  key: string;
  /** Its entry's `name`, else its key: what `{agent}` stands for. */
  name: string;
  deploymentName: string;
  environment?: string;
}

export interface ManifestOnGitHub {
  /** Its path, or `inline`. */
  source: string;
  /** The step's `name` input, holding `{agent}`. */
  nameTemplate?: string;
  agents: readonly AgentOnGitHub[];
}

/** Its entry's environment, else the step's, filled. */
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

type Status = { state: DeploymentState; text: string };

interface AgentEnd {
  agent: AgentOnGitHub;
  report?: RunReport;
  failure?: string;
}

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

export function description(text: string): string {
  return plainLine(text, DESCRIPTION_LIMIT);
}

/** Why a deployment whose health check was made and failed is not live, in its first words. */
function unanswered({ name, health }: RunReport, withBody: boolean): string | undefined {
  if (health === undefined || health.ok) return undefined;
  if (health.address === undefined) return `${name}: ${healthAnswer(health)}`;
  const body =
    !withBody || health.excerpt === undefined ? '' : `; the answer begins: ${health.excerpt}`;
  return `${name} does not answer its health check: ${healthAnswer(health)}${body}`;
}

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

interface Start {
  text: string;
  payload: Record<string, unknown>;
  status: Status;
  report?: RunReport;
}

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

export class DeploymentRecord {
  readonly #api: GitHubApi;
  readonly #context: RecordContext;
  readonly #redact: (text: string) => string;
  #id: number | undefined;

  constructor(api: GitHubApi, context: RecordContext, redact: (text: string) => string) {
    this.#api = api;
    this.#context = context;
    this.#redact = redact;
  }

  get id(): number | undefined {
    return this.#id;
  }

  async start({ text, payload, status, report }: Start, options: CallOptions = {}): Promise<void> {
    const { repository, sha, environment, transient } = this.#context;
    const created = await this.#api.createDeployment(
      repository,
      {
        ref: sha,
        environment,
        transient_environment: transient,
        description: description(this.#redact(text)),
        payload,
      },
      options,
    );
    this.#id = created.ok ? created.value : undefined;
    await this.finish(status, report, options);
  }

  /** Nothing when the deployment was never created. */
  async finish(
    { state, text }: Status,
    report?: RunReport,
    options: CallOptions = {},
  ): Promise<void> {
    if (this.#id === undefined) return;
    const { repository, runUrl } = this.#context;
    // The one address rule (src/common/address.ts).
    const environmentUrl =
      report === undefined
        ? undefined
        : (publishedOrNothing(report.url) ?? publishedOrNothing(report.dashboardUrl));
    const body: DeploymentStatusRequest = {
      state,
      description: description(this.#redact(text)),
      ...(runUrl === undefined ? {} : { log_url: runUrl }),
      ...(environmentUrl ? { environment_url: environmentUrl } : {}),
      ...(state === 'success' ? { auto_inactive: true } : {}),
    };
    await this.#api.createDeploymentStatus(repository, this.#id, body, options);
  }
}
