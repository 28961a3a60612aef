/** Which of two commits is newer, asked of the adapter once a commit against the target, and remembered for the run. */
import type { Logger } from '../../common/runtime.js';
import { untrusted } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { Deployment } from '../../service/schemas.js';
import { latestCommit, type Target } from './live.js';
import type { AskCommitOrder, CommitOrder } from '../ports/progress.js';

/** A wait sees a few pushes, not hundreds. */
const MAX_QUESTIONS = 20;

export class CommitOrders {
  readonly #answers = new Map<string, CommitOrder>();
  readonly #asking;

  /** Without a question, a repository or a target, nothing is asked and every answer is unknown. */
  constructor(
    ask: AskCommitOrder | undefined,
    repository: string | undefined,
    target: Target | undefined,
    logger: Logger,
  ) {
    this.#asking = { ask, repository, target: target?.sha, logger };
  }

  of(commit: string): CommitOrder {
    return this.#answers.get(commit);
  }

  /** Asks about the commit of the deployment's latest revision, once, when it is not the target. */
  async learn(deployment: Deployment): Promise<void> {
    const commit = latestCommit(deployment);
    const { ask, repository, target, logger } = this.#asking;
    if (ask === undefined || repository === undefined || target === undefined) return;
    if (commit === undefined || commit === target || this.#answers.has(commit)) return;
    if (this.#answers.size >= MAX_QUESTIONS) return;
    this.#answers.set(commit, undefined);
    const order = await ask(repository, target, commit);
    this.#answers.set(commit, order);
    const which = `commit ${shortSha(untrusted(commit))} against the target ${shortSha(target)}`;
    logger.debug(`commit order of ${which}: ${order ?? 'not known, so it counts as before'}`);
  }
}
