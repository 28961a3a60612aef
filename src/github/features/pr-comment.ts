/**
 * The pull request comment's life in one run: one walk of the pages to find
 * it among the token's own, then at most two writes. A comment by anyone
 * else is never edited, whatever it carries.
 */
import type { GitHubApi } from '../client/api.js';
import type { Repo } from '../client/requests.js';
import type { IssueComment } from '../client/responses.js';
import type { CallOptions } from '../client/calls.js';
import { MAX_COMMENT_PAGES, PER_PAGE } from '../client/pages.js';
import { carriesMarker, isOwnComment } from './comment-marker.js';
import { sameRetiredBody } from './retire-comment.js';
import type { Logger } from '../../common/runtime.js';

const MAX_WRITES = 2;

export class PullRequestComment {
  readonly #api: GitHubApi;
  readonly #context: { repository: Repo; pullRequest: number };
  readonly #logger: Logger;
  #commentId: number | undefined;
  #body: string | undefined;
  #writes = 0;
  /** Set once the comment cannot be written this run (already warned). */
  #given = false;
  #searched = false;

  readonly #carries: (body: string | null | undefined, name: string) => boolean;

  constructor(
    api: GitHubApi,
    context: { repository: Repo; pullRequest: number },
    logger: Logger,
    carries: (body: string | null | undefined, name: string) => boolean = carriesMarker,
  ) {
    this.#api = api;
    this.#context = context;
    this.#logger = logger;
    this.#carries = carries;
  }

  get commentId(): number | undefined {
    return this.#commentId;
  }

  get body(): string | undefined {
    return this.#body;
  }

  async writeBody(name: string, body: () => string, options: CallOptions = {}): Promise<void> {
    if (await this.#located(name, options)) await this.#write(body, options);
  }

  /** Rewrites the comment for `name` when there is one; creates none (a retired preview's). */
  async rewrite(
    name: string,
    body: () => string,
  ): Promise<'rewritten' | 'unchanged' | 'none' | 'failed'> {
    if (!(await this.#located(name, {}))) return 'failed';
    if (this.#commentId === undefined) return 'none';
    const next = body();
    if (this.#body !== undefined && sameRetiredBody(this.#body, next)) return 'unchanged';
    return (await this.#write(() => next, {})) ? 'rewritten' : 'failed';
  }

  /** False when no write can be made this run. */
  async #located(name: string, options: CallOptions): Promise<boolean> {
    if (this.#given || this.#writes >= MAX_WRITES) return false;
    if (!this.#searched) {
      this.#searched = true;
      const found = await this.#find(name, options);
      if (found === 'give up') {
        this.#given = true;
        return false;
      }
      this.#commentId = found?.id;
      this.#body = found?.body ?? undefined;
    }
    return true;
  }

  async #write(body: () => string, options: CallOptions): Promise<boolean> {
    const { repository, pullRequest } = this.#context;
    this.#writes += 1;
    const text = body();
    const written = await this.#api.writeComment(
      repository,
      pullRequest,
      this.#commentId,
      text,
      options,
    );
    if (written.ok) {
      this.#commentId = written.value;
      this.#body = text;
    }
    // A failed write was warned about; a second would fail the same way (or double a create).
    else this.#given = true;
    return written.ok;
  }

  async #find(name: string, options: CallOptions): Promise<IssueComment | undefined | 'give up'> {
    const viewer = await this.#api.viewerLogin(options);
    if (!viewer.ok) return 'give up';
    let found: IssueComment | undefined;
    const walked = await this.#api.walkComments(
      this.#context.repository,
      this.#context.pullRequest,
      (comments) => {
        found = comments.find(
          (c) => isOwnComment(c.user, viewer.value) && this.#carries(c.body, name),
        );
        return found === undefined ? 'more' : 'stop';
      },
      options,
    );
    if (!walked.ok) return 'give up';
    if (found === undefined && !walked.value.ended) {
      // Past the cap the comment may exist: a new one could be a second one on every run.
      this.#logger.warning(
        `GitHub: pull request #${this.#context.pullRequest} has more than ${MAX_COMMENT_PAGES * PER_PAGE} comments; the action reads no further, and writes no comment for '${name}' so as not to add a second one. The deploy itself is not affected.`,
      );
      return 'give up';
    }
    return found;
  }
}
