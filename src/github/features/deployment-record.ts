/**
 * The GitHub deployment record of a run: one deployment in the `environment`
 * input's environment, an `in_progress` status once the service deployment is
 * found or created, and one final status when the run ends.
 */
import type { GitHubApi } from '../client/api.js';
import type { DeploymentState, DeploymentStatusRequest, Repo } from '../client/requests.js';
import type { CallOptions } from '../client/calls.js';
import { publishedOrNothing } from '../../common/address.js';
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
export function finalStatus(report: RunReport): { state: DeploymentState; text: string } {
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

  /** The GitHub deployment's id, once created. */
  get id(): number | undefined {
    return this.#id;
  }

  /** Creates the deployment and its `in_progress` status. */
  async start(report: RunReport, options: CallOptions = {}): Promise<void> {
    const { repository, sha, environment, transient } = this.#context;
    const created = await this.#api.createDeployment(
      repository,
      {
        ref: sha,
        environment,
        transient_environment: transient,
        description: description(this.#redact(`Deployment ${report.name} (deploy-agent)`)),
        payload: { id: report.id ?? null, name: report.name },
      },
      options,
    );
    if (!created.ok) return;
    this.#id = created.value;
    const waiting =
      report.waitingFor === undefined ? 'deploying' : `deploying (${report.waitingFor})`;
    await this.#status(
      { state: 'in_progress', text: `${report.name}: ${waiting}` },
      report,
      options,
    );
  }

  /** The one final status; nothing when the deployment was never created. */
  async finish(report: RunReport, options: CallOptions = {}): Promise<void> {
    if (this.#id === undefined) return;
    await this.#status(finalStatus(report), report, options);
  }

  async #status(
    { state, text }: { state: DeploymentState; text: string },
    report: RunReport,
    options: CallOptions,
  ): Promise<void> {
    if (this.#id === undefined) return;
    // The one address rule (src/common/address.ts): the deployment's own address when it may be
    // published, else the dashboard's, else none.
    const environmentUrl =
      publishedOrNothing(report.url) ?? publishedOrNothing(report.dashboardUrl);
    const body: DeploymentStatusRequest = {
      state,
      description: description(this.#redact(text)),
      ...(this.#context.runUrl === undefined ? {} : { log_url: this.#context.runUrl }),
      ...(environmentUrl ? { environment_url: environmentUrl } : {}),
      ...(state === 'success' ? { auto_inactive: true } : {}),
    };
    await this.#api.createDeploymentStatus(this.#context.repository, this.#id, body, options);
  }
}
