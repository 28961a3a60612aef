/**
 * Live (docs/how-it-works.md, "What green means"): READY, the latest revision active (or
 * none), and for a targeted commit, a latest revision for it or for a newer push: a commit
 * the adapter says is newer, or a revision the step did not see for a commit not said older.
 * Which of two commits is newer is asked of the adapter once a commit against the target,
 * and remembered for the run (`CommitOrders`).
 */
import type { CommitRequest } from '../../inputs/deploy-spec.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { Deployment } from '../../service/schemas.js';
import type { Liveness } from '../ports/findings.js';
import type { AskCommitOrder, CommitOrder } from '../ports/progress.js';

export interface Target {
  sha: string;
  /** When the commit was derived from the event. */
  branch?: string;
}

export function latestCommit(deployment: Deployment): string | undefined {
  const sha = deployment.source_revision_config.repo_commit_sha;
  return sha === undefined || sha === null || sha === '' ? undefined : sha.toLowerCase();
}

/** `seenRevisions`: a revision for another commit not among them is a newer push. */
export function liveness(
  deployment: Deployment,
  target: Target | undefined,
  seenRevisions: ReadonlySet<string>,
  orderOf: (commit: string) => CommitOrder = () => undefined,
): Liveness {
  const { status, latest_revision_id: latest, active_revision_id: active } = deployment;
  const deleting = 'the deployment is being deleted (AWAITING_DELETE)';
  if (status === 'AWAITING_DELETE') return { live: false, missing: deleting, final: true };
  if (status !== 'READY') {
    const shown = untrusted(status);
    return { live: false, missing: `status is ${shown}, not READY`, briefly: shown };
  }
  if (latest === null) {
    return target === undefined
      ? { live: true }
      : { live: false, missing: `no revision yet for commit ${shortSha(target.sha)}` };
  }
  if (active !== latest) {
    const still = active === null ? 'no revision is active yet' : `revision ${active} still is`;
    return {
      live: false,
      missing: `the latest revision ${latest} is not active yet (${still}; if it stays so, its build may have failed)`,
    };
  }
  if (target === undefined) return { live: true };
  const commit = latestCommit(deployment);
  if (commit === target.sha) return { live: true };
  const order = commit === undefined ? undefined : orderOf(commit);
  // Newer than the target (its descendant): live instead of it. Unseen: a newer push, unless it is older.
  if (
    commit !== undefined &&
    (order === 'newer' || (order !== 'older' && !seenRevisions.has(latest)))
  )
    return { live: true, supersededBy: commit };
  const branch = target.branch === undefined ? '' : ` of branch ${target.branch}`;
  const shown = commit === undefined ? '(none given)' : shortSha(untrusted(commit));
  const relation = order === 'older' ? 'older than' : 'not';
  const missing = `the latest revision is for commit ${shown}, ${relation} the target ${shortSha(target.sha)}${branch}`;
  // Older: the target's push may still come. Not known: only a push of the target builds it.
  if (commit === undefined || order === 'older') return { live: false, missing };
  return {
    live: false,
    missing: `${missing}; which of the two is newer is not known here`,
    remedy: unpushedRemedy(deployment, target.sha, commit),
  };
}

function unpushedRemedy(deployment: Deployment, target: string, live: string): string {
  const ref = deployment.source_revision_config.repo_ref;
  const where =
    ref === undefined || ref === null ? 'the branch it tracks' : `branch ${untrusted(ref)}`;
  return `A longer wait does not build commit ${shortSha(target)} unless it is pushed to ${where}: push it there, or target commit ${shortSha(untrusted(live))} if that is the newer one.`;
}

/** An explicit sha always; `auto` only when the run's branch is the one the deployment tracks. */
export function chooseTarget(
  commit: CommitRequest,
  tracked: string | undefined,
  logger: Logger,
): Target | undefined {
  switch (commit.kind) {
    case 'sha':
      return { sha: commit.sha };
    case 'none':
      logger.info(`no commit is targeted: ${commit.reason}`);
      return undefined;
    case 'auto':
      if (tracked === commit.branch) return { sha: commit.sha, branch: commit.branch };
      logger.info(
        `no commit is targeted: the run is for branch ${commit.branch}, and the deployment tracks ${tracked === undefined ? 'no branch' : untrusted(tracked)}`,
      );
      return undefined;
  }
}

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
