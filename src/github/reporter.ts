/**
 * What the run tells GitHub (contract v1.2), as the view of the core's
 * events (src/github/integration.ts): `deployed` once the service
 * deployment is found or created, `finished` when the run ends, `planned`
 * for a plan; and the answers to the core's questions, `commitOrder` when it
 * asks which of two commits is newer (behaviour 15), `retired` for a retire
 * and for each orphan of a sweep, `pullRequestStates` for a sweep.
 * Everything here is advisory: it warns, it never throws, and its time is
 * bounded by the run's budget; except the pull requests' states, without
 * which a sweep has nothing to go on: their failure is an `ActionError`.
 */
import { GitHubApi, type Repo } from './api.js';
import type { CallOptions, GitHubApiOptions } from './calls.js';
import type { CommentReport } from './comment.js';
import type { GitHubSettings } from './inputs.js';
import { Budget } from './budget.js';
import { DeploymentRecord, description } from './deployment-record.js';
import { carriesPlanMarker, planCommentBody, planNotMadeBody } from './plan-comment.js';
import { PullRequestComment } from './pr-comment.js';
import { retiredCommentBody, sameRetiredBody } from './retire-comment.js';
import { markInactive } from './retire-records.js';
import { askPullRequestStates } from './states-question.js';
import type { Clock, Logger } from '../common/runtime.js';
import type {
  CommitOrder,
  PlanNotMade,
  PlanReport,
  PullRequestState,
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
  /** The sweep's: each orphan's pull request comment, and how its pull request stands. */
  readonly #orphanComments = new Map<number, PullRequestComment>();
  readonly #states = new Map<number, PullRequestState>();

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
    const retires = features.retire === true || features.sweep === true;
    if (features.environment !== '' && !retires) {
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
   * Retires a preview on GitHub (contract v1.3, `retire`; v1.4, `sweep`):
   * every deployment of its environment marked `inactive` (those already
   * inactive skipped, without a write), and its comment rewritten when there
   * is one and it does not already say so, side by side within the run's
   * budget. The retire step's preview is its event's pull request and its
   * `environment` setting; a sweep's orphan names its own (`report`), and
   * the orphans of one pull request come as one report, one rewrite.
   */
  async retired(report: RetireReport): Promise<Retirement> {
    const swept = report.pullRequest !== undefined;
    const environment = report.environment ?? this.#features.environment;
    const pullRequest = report.pullRequest ?? this.#context.pullRequest;
    const { repository, runUrl } = this.#context;
    if (!swept && this.#context.pullRequestState === 'open') {
      this.#logger.warning(
        `pull request #${pullRequest} is still open, and its preview is retired all the same: run the retire step on \`pull_request: types: [closed]\`.`,
      );
    }
    const pullRequestState = swept
      ? this.#sweptState(report.pullRequest)
      : this.#context.pullRequestState;
    const count = report.deployments.length;
    const still =
      count === 1 ? 'its deployment still exists' : `its ${count} deployments still exist`;
    const what = count === 0 ? '' : `; ${still} in the service`;
    const comment = pullRequest === undefined ? undefined : this.#commentOf(pullRequest);
    const [records, rewritten] = await Promise.all([
      environment === ''
        ? undefined
        : markInactive(
            this.api,
            repository,
            environment,
            {
              description: description(this.#redact(`${report.name}: preview retired${what}`)),
              ...(runUrl === undefined ? {} : { log_url: runUrl }),
            },
            this.#logger,
          ),
      comment === undefined
        ? ('skipped' as const)
        : comment.rewrite(
            report.name,
            () =>
              retiredCommentBody(
                {
                  ...report,
                  ...(pullRequestState === undefined ? {} : { pullRequestState }),
                  ...(runUrl === undefined ? {} : { runUrl }),
                },
                this.#redact,
              ),
            {},
            sameRetiredBody,
          ),
    ]);
    return {
      ...(records === undefined
        ? { found: 0, inactive: 0, more: false }
        : {
            environment,
            found: records.found,
            inactive: records.inactive,
            more: records.more,
            alreadyInactive: records.already,
          }),
      comment: rewritten,
    };
  }

  /** The retire step's comment (its event's pull request), else the orphan's own, made once. */
  #commentOf(pullRequest: number): PullRequestComment | undefined {
    if (pullRequest === this.#context.pullRequest) return this.#comment;
    if (!this.#features.comment) return undefined;
    let comment = this.#orphanComments.get(pullRequest);
    if (comment === undefined) {
      const where = { repository: this.#context.repository, pullRequest };
      comment = new PullRequestComment(this.api, where, this.#logger, this.#redact);
      this.#orphanComments.set(pullRequest, comment);
    }
    return comment;
  }

  /** How an orphan's pull request stands, as `pullRequestStates` last said (merged or closed). */
  #sweptState(pullRequest: number | undefined): 'merged' | 'closed' | undefined {
    const state = pullRequest === undefined ? undefined : this.#states.get(pullRequest)?.state;
    return state === 'merged' || state === 'closed' ? state : undefined;
  }

  /**
   * The sweep's question (states-question.ts): how the repository's pull
   * requests stand; throws when GitHub cannot say. Remembered for `retired`.
   */
  async pullRequestStates(
    numbers: readonly number[],
  ): Promise<ReadonlyMap<number, PullRequestState>> {
    const { repository } = this.#context;
    const states = await askPullRequestStates(this.api, repository, numbers, {
      signal: this.#work.signal,
    });
    for (const [number, state] of states) this.#states.set(number, state);
    return states;
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
