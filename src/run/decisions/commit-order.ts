/**
 * Which of two commits is newer, as the adapter
 * answers it: asked once for each commit a deployment's latest revision is
 * for, against the target, and remembered for the rest of the run. The
 * answer decides whether another commit supersedes the target (live.ts).
 */
import type { Logger } from '../../common/runtime.js';
import { untrusted } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { Deployment } from '../../service/schemas.js';
import { latestCommit, type Target } from './live.js';
import type { AskCommitOrder, CommitOrder } from '../ports/progress.js';

/** The longest list of commits a run asks about: a wait sees a few pushes, not hundreds. */
const MAX_QUESTIONS = 20;

export class CommitOrders {
  readonly #answers = new Map<string, CommitOrder>();
  readonly #ask: AskCommitOrder | undefined;
  readonly #repository: string | undefined;
  readonly #target: Target | undefined;
  readonly #logger: Logger;

  /** Without a question, a repository or a target, nothing is asked and every answer is unknown. */
  constructor(
    ask: AskCommitOrder | undefined,
    repository: string | undefined,
    target: Target | undefined,
    logger: Logger,
  ) {
    this.#ask = ask;
    this.#repository = repository;
    this.#target = target;
    this.#logger = logger;
  }

  /** What is known of `commit` against the target; undefined when not asked or not known. */
  of(commit: string): CommitOrder {
    return this.#answers.get(commit);
  }

  /** Asks about the commit of the deployment's latest revision, once, when it is not the target. */
  async learn(deployment: Deployment): Promise<void> {
    const commit = latestCommit(deployment);
    const ask = this.#ask;
    const target = this.#target?.sha;
    if (ask === undefined || this.#repository === undefined || target === undefined) return;
    if (commit === undefined || commit === target || this.#answers.has(commit)) return;
    if (this.#answers.size >= MAX_QUESTIONS) return;
    this.#answers.set(commit, undefined);
    const order = await ask(this.#repository, target, commit);
    this.#answers.set(commit, order);
    const which = `commit ${shortSha(untrusted(commit))} against the target ${shortSha(target)}`;
    if (order === undefined) {
      this.#logger.debug(`commit order of ${which}: not known, so it counts as before`);
    } else {
      this.#logger.debug(`commit order of ${which}: ${order}`);
    }
  }
}
