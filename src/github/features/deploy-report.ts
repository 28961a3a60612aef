/**
 * What a deploy tells GitHub, as it goes: its deployment record (when
 * `environment` names one) and its preview comment (on a pull request, when
 * `pr-comment` asks), both started once the service deployment is found or
 * created and ended when the run ends. Advisory: it warns, it never throws,
 * and its time is bounded by the run's budget.
 */
import type { GitHubApi } from '../client/api.js';
import type { CallOptions } from '../client/calls.js';
import type { Logger } from '../../common/runtime.js';
import type { RunReport } from '../../run/ports/progress.js';
import { withRunUrl, type GitHubRunContext } from './context.js';
import { DeploymentRecord } from './deployment-record.js';
import { PullRequestComment } from './pr-comment.js';

/**
 * A cancelled run: the runner sends SIGINT, then SIGTERM 7.5 s later, then
 * kills the step. Calls under way get `CANCEL_GRACE_MS` to finish, and the
 * last status `CANCEL_WINDOW_MS`.
 */
export const CANCEL_GRACE_MS = 1_000;
export const CANCEL_WINDOW_MS = 2_500;

/** What the deploy's GitHub inputs ask for: a record in `environment` (none when empty), a comment. */
export interface DeployWanted {
  environment: string;
  comment: boolean;
}

export interface DeployReportParts {
  logger: Logger;
  redact: (text: string) => string;
  /** Called once the GitHub deployment is recorded (the `github-deployment-id` output). */
  onRecorded?: (id: number) => void;
}

/** The record and the comment of one deploy; each method is safe to call in any order, any number of times. */
export class DeployReport {
  readonly #record: DeploymentRecord | undefined;
  readonly #comment: PullRequestComment | undefined;
  readonly #runUrl: string | undefined;
  readonly #onRecorded: ((id: number) => void) | undefined;
  /** Ends calls still under way when the run is cancelled, so the last status goes at once. */
  readonly #work = new AbortController();
  #started: Promise<void> | undefined;
  #finished = false;

  constructor(
    api: GitHubApi,
    context: GitHubRunContext,
    wanted: DeployWanted,
    parts: DeployReportParts,
  ) {
    const { logger, redact } = parts;
    this.#runUrl = context.runUrl;
    this.#onRecorded = parts.onRecorded;
    if (wanted.environment !== '') {
      this.#record = new DeploymentRecord(
        api,
        {
          repository: context.repository,
          sha: context.sha,
          environment: wanted.environment,
          transient: context.pullRequest !== undefined,
          ...(context.runUrl === undefined ? {} : { runUrl: context.runUrl }),
        },
        redact,
      );
    }
    if (wanted.comment && context.pullRequest !== undefined) {
      const where = { repository: context.repository, pullRequest: context.pullRequest };
      this.#comment = new PullRequestComment(api, where, logger, redact);
    }
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
      this.#comment?.write(withRunUrl(report, this.#runUrl), options),
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
      comment?.write(withRunUrl(report, this.#runUrl), options),
    ]);
  }
}
