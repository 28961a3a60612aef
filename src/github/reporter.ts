/**
 * What the run tells GitHub (contract v1.2), as the view of the core's
 * events (src/github/integration.ts): `deployed` once the service
 * deployment is found or created, `finished` when the run ends, `planned`
 * for a plan; and the answers to the core's questions, `commitOrder` when it
 * asks which of two commits is newer (behaviour 15), `retired` for a retire. Everything here is advisory: it warns, it never throws, and its time
 * is bounded by the run's budget.
 */
import { GitHubApi, type Repo } from './api.js';
import type { CallOptions, GitHubApiOptions } from './calls.js';
import type { CommentReport } from './comment.js';
import type { GitHubSettings } from './inputs.js';
import { Budget } from './budget.js';
import { DeploymentRecord, description } from './deployment-record.js';
import { carriesPlanMarker, planCommentBody, planNotMadeBody } from './plan-comment.js';
import { PullRequestComment } from './pr-comment.js';
import { retiredCommentBody } from './retire-comment.js';
import { markInactive } from './retire-records.js';
import type { Clock, Logger } from '../common/runtime.js';
import type {
  CommitOrder,
  PlanNotMade,
  PlanReport,
  RetireReport,
  Retirement,
  RunReport,
} from '../run/ports/progress.js';

/** Where the run stands on GitHub: from the event and the runner's variables. */
export interface GitHubRunContext {
  /** The workflow's repository: the record and the comment go there. */
  repository: Repo;
  /** The commit the run is for: the pull request's head on pull request events, else GITHUB_SHA. */
  sha: string;
  /** The pull request's number on `pull_request` and `pull_request_target` events. */
  pullRequest?: number;
  /** How the pull request stands, from the event: merged, closed without merging, or open. */
  pullRequestState?: 'merged' | 'closed' | 'open';
  /** The pull request comes from a fork: its token is read-only. */
  fork: boolean;
  /** The workflow run's page, for `log_url` and the comment. */
  runUrl?: string;
  /** GITHUB_API_URL. */
  apiUrl?: string;
}

export interface ReporterDependencies {
  logger: Logger;
  clock: Clock;
  redact: (text: string) => string;
  /** Overrides for tests: call limits, budget, Octokit's loader. */
  api?: Partial<Pick<GitHubApiOptions, 'limits' | 'load'>>;
  budgetMs?: number;
  /** Called once the GitHub deployment is recorded (the `github-deployment-id` output). */
  onRecorded?: (id: number) => void;
}

/**
 * A cancelled run: the runner sends SIGINT, then SIGTERM 7.5 s later, then
 * kills the step. Calls under way get `CANCEL_GRACE_MS` to finish, and the
 * last status `CANCEL_WINDOW_MS`.
 */
export const CANCEL_GRACE_MS = 1_000;
export const CANCEL_WINDOW_MS = 2_500;

/**
 * The hooks the core calls; every method is safe to call in any order, any
 * number of times. Made by `gitHubHooks` (integration.ts), only with a token.
 */
export class GitHubReporter {
  readonly api: GitHubApi;
  readonly #record: DeploymentRecord | undefined;
  readonly #comment: PullRequestComment | undefined;
  readonly #planComment: PullRequestComment | undefined;
  readonly #redact: (text: string) => string;
  readonly #context: GitHubRunContext;
  readonly #features: GitHubSettings;
  readonly #logger: Logger;
  readonly #onRecorded: ((id: number) => void) | undefined;
  /** Ends calls still under way when the run is cancelled, so the last status goes at once. */
  readonly #work = new AbortController();
  #started: Promise<void> | undefined;
  #finished = false;
  readonly #orders = new Map<string, Promise<CommitOrder>>();

  constructor(
    context: GitHubRunContext,
    features: GitHubSettings,
    dependencies: ReporterDependencies,
  ) {
    const { logger, clock, redact } = dependencies;
    this.#context = context;
    this.#features = features;
    this.#logger = logger;
    this.#onRecorded = dependencies.onRecorded;
    this.api = new GitHubApi({
      token: features.token,
      baseUrl: context.apiUrl,
      logger,
      clock,
      budget: new Budget(clock, dependencies.budgetMs),
      fork: context.fork,
      ...dependencies.api,
    });
    if (features.environment !== '' && features.retire !== true) {
      this.#record = new DeploymentRecord(
        this.api,
        {
          repository: context.repository,
          sha: context.sha,
          environment: features.environment,
          transient: context.pullRequest !== undefined,
          ...(context.runUrl === undefined ? {} : { runUrl: context.runUrl }),
        },
        redact,
      );
    }
    if (features.comment && context.pullRequest !== undefined) {
      const where = { repository: context.repository, pullRequest: context.pullRequest };
      this.#comment = new PullRequestComment(this.api, where, logger, redact);
      this.#planComment = new PullRequestComment(
        this.api,
        where,
        logger,
        redact,
        carriesPlanMarker,
      );
    }
    this.#redact = redact;
  }

  /** The GitHub deployment's id, once recorded (the `github-deployment-id` output). */
  get deploymentId(): number | undefined {
    return this.#record?.id;
  }

  /** Starts the record and the first comment write; the run goes on meanwhile. */
  deployed(report: RunReport): void {
    if (this.#started !== undefined || this.#finished) return;
    const options: CallOptions = { signal: this.#work.signal };
    this.#started = Promise.all([
      this.#record?.start(report, options).then(() => {
        if (this.#record?.id !== undefined) this.#onRecorded?.(this.#record.id);
      }),
      this.#comment?.write(this.#withRunUrl(report), options),
    ]).then(() => undefined);
  }

  /**
   * The final status and the comment's update. A cancelled run ends what is
   * still under way and writes its `error` status within `CANCEL_WINDOW_MS`.
   */
  async finished(report: RunReport): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    const cancelled = report.stage === 'cancelled';
    if (cancelled && this.#started !== undefined) {
      // What is under way may finish (the record's id is needed for its last status), briefly.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.#started,
        new Promise((resolve) => (timer = setTimeout(resolve, CANCEL_GRACE_MS))),
      ]);
      clearTimeout(timer);
      this.#work.abort();
    }
    await this.#started;
    const options: CallOptions = cancelled ? { callMs: CANCEL_WINDOW_MS } : {};
    // A cancelled run has no time to look for the comment: it updates one it already has.
    const comment = cancelled && this.#comment?.commentId === undefined ? undefined : this.#comment;
    await Promise.all([
      this.#record?.finish(report, options),
      comment?.write(this.#withRunUrl(report), options),
    ]);
  }

  /**
   * The plan comment (contract v1.3): found among the token's own comments by
   * its own marker, then created or updated in place, one write a run; a plan
   * that could not be made rewrites it to say so, without a verdict (v1.4).
   */
  async planned(report: PlanReport | PlanNotMade): Promise<void> {
    if (this.#planComment === undefined) return;
    const { runUrl } = this.#context;
    const withRunUrl = <T extends object>(value: T) =>
      runUrl === undefined ? value : { ...value, runUrl };
    // A plan not made names the head it was for: the core's, else the pull request's head.
    const body = () =>
      'verdict' in report
        ? planCommentBody(withRunUrl(report), this.#redact)
        : planNotMadeBody(
            withRunUrl({
              ...(this.#context.sha === '' ? {} : { head: this.#context.sha }),
              ...report,
            }),
            this.#redact,
          );
    await this.#planComment.writeBody(report.name, body);
  }

  /**
   * Retires the preview on GitHub (contract v1.3, `retire`): every deployment
   * of the environment marked `inactive`, and the preview's comment rewritten
   * when there is one, side by side within the run's budget.
   */
  async retired(report: RetireReport): Promise<Retirement> {
    const { environment } = this.#features;
    const { repository, pullRequest, pullRequestState } = this.#context;
    if (pullRequestState === 'open') {
      this.#logger.warning(
        `pull request #${pullRequest} is still open, and its preview is retired all the same: run the retire step on \`pull_request: types: [closed]\`.`,
      );
    }
    const what =
      report.deployment === undefined ? '' : '; its deployment still exists in the service';
    const [records, rewritten] = await Promise.all([
      environment === ''
        ? undefined
        : markInactive(
            this.api,
            repository,
            environment,
            {
              description: description(this.#redact(`${report.name}: preview retired${what}`)),
              ...(this.#context.runUrl === undefined ? {} : { log_url: this.#context.runUrl }),
            },
            this.#logger,
          ),
      this.#comment === undefined || pullRequest === undefined
        ? ('skipped' as const)
        : this.#comment.rewrite(report.name, () =>
            retiredCommentBody(
              {
                ...report,
                ...(pullRequestState === undefined ? {} : { pullRequestState }),
                ...(this.#context.runUrl === undefined ? {} : { runUrl: this.#context.runUrl }),
              },
              this.#redact,
            ),
          ),
    ]);
    return {
      ...(records === undefined
        ? { found: 0, inactive: 0, more: false }
        : { environment, ...records }),
      comment: rewritten,
    };
  }

  #withRunUrl(report: RunReport): CommentReport {
    return this.#context.runUrl === undefined
      ? report
      : { ...report, runUrl: this.#context.runUrl };
  }

  /**
   * Behaviour 15: `GET compare/{target}...{latest}` on the deployed
   * repository. `ahead`: latest is newer; `behind`: older; any other answer
   * (diverged, identical, an error) is unknown, and says nothing: the core
   * writes the one debug line an unknown order gets. Asked once per pair of
   * commits.
   */
  commitOrder(repository: string, target: string, latest: string): Promise<CommitOrder> {
    const key = `${repository}\n${target}\n${latest}`.toLowerCase();
    let order = this.#orders.get(key);
    if (order === undefined) {
      order = this.#compare(repository, target, latest);
      this.#orders.set(key, order);
    }
    return order;
  }

  async #compare(repository: string, target: string, latest: string): Promise<CommitOrder> {
    const [owner, repo, ...rest] = repository.split('/');
    if (!owner || !repo || rest.length > 0) return undefined;
    const result = await this.api.compare({ owner, repo }, target, latest, { silent: true });
    if (!result.ok) return undefined;
    const { status } = result.value;
    if (status === 'ahead') return 'newer';
    if (status === 'behind') return 'older';
    return undefined;
  }
}
