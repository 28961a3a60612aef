/**
 * What the step asks of the deployment `deploy` found or created: the commit
 * that must be live, the revisions it saw, and where a reused deployment
 * differs from what the step asks for (docs/how-it-works.md, "What green means", "Drift").
 */
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { ACTION_WORDS, type RemedyWords } from '../../service/answers.js';
import type { Deployment } from '../../service/schemas.js';
import type { DeployResult } from './deploy.js';
import { CommitOrders } from './commit-order.js';
import type { Drift, Liveness, UnbuiltDrift } from '../ports/findings.js';
import { fieldDrift, findDrift, showValue } from './drift.js';
import { chooseTarget, latestCommit, liveness, trackedRef, type Target } from './live.js';
import type { AskCommitOrder } from '../ports/progress.js';
import type { HealthJudge } from './health.js';

export interface Goal {
  /** The commit that must be live, if one is targeted. */
  target?: Target;
  /**
   * Revision ids the step saw when it found or created the deployment: on
   * create, the one the create queued (the head the service knows, not a push).
   */
  seenRevisions: ReadonlySet<string>;
  /**
   * Differences from what the step asks for (reuse only), each saying what it
   * is: the entry of kind `unbuilt` (a commit the deployment will not build:
   * `build_on_push` off, another commit live) last. The entries that block
   * (`blockedIn`) make the deployment not live, whatever its status.
   */
  drift: Drift[];
  /** What the adapter said of the commits the deployment's latest revision was for. */
  orders: CommitOrders;
  /** Who asks, in the entry's words (`RemedyWords.asker`): the step (when absent), the command. */
  asker?: string;
}

/** The deployment `deploy` found, or undefined when it created one (or would). */
function reusedOf(result: DeployResult): Deployment | undefined {
  return result.created ? undefined : result.deployment;
}

/**
 * The revisions of the deployment as the step found or created it: a
 * revision the step did not see is a newer push. The same rule on create and
 * on reuse, so that one world gets one verdict: a create's own revision is
 * the branch's head as the service knows it, no evidence of a newer push.
 */
function seenRevisionsOf(deployment: Deployment | undefined): Set<string> {
  if (deployment === undefined) return new Set();
  return new Set(
    [deployment.latest_revision_id, deployment.active_revision_id].filter((id) => id !== null),
  );
}

/** The target of a codehost spec, against the branch the deployment tracks. */
function targetOf(spec: DeploySpec, result: DeployResult, logger: Logger): Target | undefined {
  if (spec.source !== 'codehost') return undefined;
  const tracked = trackedRef(reusedOf(result), result.request.source_revision_config.repo_ref);
  return chooseTarget(spec.commit, tracked, logger);
}

/**
 * The target as drift, when a reused deployment will not build it and
 * another commit is live that is not newer than it (a newer one supersedes it).
 */
function unbuiltOf(
  reused: Deployment | undefined,
  target: Target | undefined,
  orders: CommitOrders,
): UnbuiltDrift | undefined {
  if (reused === undefined || target === undefined) return undefined;
  if (reused.source_config.build_on_push === true) return undefined;
  const live = latestCommit(reused);
  if (live === target.sha) return undefined;
  if (live !== undefined && orders.of(live) === 'newer') return undefined;
  return {
    field: 'source_revision_config.repo_commit_sha',
    wanted: target.sha,
    live: live ?? null,
    kind: 'unbuilt',
    blocks: true,
  };
}

/** The repository whose commits are compared: the deployed one (`repository`). */
function comparedRepository(spec: DeploySpec): string | undefined {
  return spec.source === 'codehost'
    ? `${spec.repository.owner}/${spec.repository.name}`
    : undefined;
}

/**
 * The goal of the run. When the reused deployment's latest revision is for
 * another commit, `ask` (if any) says which is newer. A target the deployment
 * will not build is drift, and blocked with the revision drift: the
 * deployment is not live, and the step does not wait for it.
 */
export async function assess(
  spec: DeploySpec,
  result: DeployResult,
  logger: Logger,
  ask?: AskCommitOrder,
  { asker }: Pick<RemedyWords, 'asker'> = ACTION_WORDS,
): Promise<Goal> {
  const reused = reusedOf(result);
  const seenRevisions = seenRevisionsOf(result.deployment);
  const drift = reused === undefined ? [] : findDrift(spec, result.request, reused).map(fieldDrift);
  const target = targetOf(spec, result, logger);
  const orders = new CommitOrders(ask, comparedRepository(spec), target, logger);
  if (reused !== undefined) await orders.learn(reused);
  const unbuilt = unbuiltOf(reused, target, orders);
  if (unbuilt === undefined) return { target, seenRevisions, drift, orders, asker };
  return { seenRevisions, drift: [...drift, unbuilt], orders, asker };
}

/**
 * The differences that block the revision (a revision field the deployment
 * will never take, and a commit it will not build): the deployment never
 * runs what the step asks for.
 */
export function blockedIn(drift: readonly Drift[]): Drift[] {
  return drift.filter((entry) => entry.blocks);
}

/** The targeted commit the reused deployment will not build, when it is drift. */
export function unbuiltIn(drift: readonly Drift[]): UnbuiltDrift | undefined {
  return drift.find((entry): entry is UnbuiltDrift => entry.kind === 'unbuilt');
}

/**
 * What runs and what the step asked for, for each blocked entry, in one
 * sentence; the remedy last.
 */
export function blockedText({
  drift,
  asker = ACTION_WORDS.asker,
}: Pick<Goal, 'drift' | 'asker'>): string {
  const parts = blockedIn(drift).map((entry) =>
    entry.kind === 'unbuilt'
      ? `it runs commit ${showCommit(entry.live)} and ${asker} asks for commit ${shortSha(entry.wanted)}, which the service will not build (build_on_push is off)`
      : `${untrusted(entry.field)} is ${showValue(entry.live)} and ${asker} asks for ${showValue(entry.wanted)}`,
  );
  return `${parts.join('; ')}. The service cannot update a deployment, so what ${asker} asks for will never run there`;
}

/** What to do about blocked entries: the remedies that fit them. */
export function blockedRemedy(goal: Pick<Goal, 'drift'>): string {
  const blocked = blockedIn(goal.drift);
  const unbuilt = blocked.some((entry) => entry.kind === 'unbuilt');
  const others = blocked.some((entry) => entry.kind !== 'unbuilt');
  const remedies = [
    ...(unbuilt
      ? ['turn build_on_push on for the deployment in the service (or set commit: none)']
      : []),
    ...(others ? ['change the deployment in the service'] : []),
    'deploy under a new name',
  ];
  return `To fix it: ${remedies.join(', or ')}.`;
}

function showCommit(value: unknown): string {
  return typeof value === 'string' ? shortSha(untrusted(value)) : '(none given)';
}

/**
 * What live is judged against: a goal, or less. `status` and a wait's tests
 * ask nothing but to be live (`ONLY_LIVE`).
 */
export type LiveGoal = Pick<Goal, 'target' | 'seenRevisions'> &
  Partial<Pick<Goal, 'orders' | 'drift'>> &
  Pick<Goal, 'asker'> & {
    /** The check of the deployment's own address, when one is asked (health.ts). */
    health?: HealthJudge;
  };

/** Nothing asked of the deployment but to be live: no target, no revision seen, no drift. */
export const ONLY_LIVE: LiveGoal = { seenRevisions: new Set() };

/**
 * Whether the deployment is live for the goal, now: what blocks it, its
 * target, the revisions the step saw, and what the adapter says of the
 * order of commits (asked here, once a commit; none: unknown).
 *
 * The one place where live is decided. The flows decide it once for the
 * deployment they found, the wait for each one it sees, and the rest (the
 * run's record, its outputs, reports and summary, the log) reads the value
 * they pass on. A new condition of live goes here, and only here: the last
 * is an answer from the deployment's address, asked once it is otherwise live.
 */
export async function decideLive(deployment: Deployment, goal: LiveGoal): Promise<Liveness> {
  await goal.orders?.learn(deployment);
  const { drift = [], asker } = goal;
  if (blockedIn(drift).length > 0)
    return { live: false, missing: blockedText({ drift, asker }), final: true };
  const otherwise = liveness(deployment, goal.target, goal.seenRevisions, (commit) =>
    goal.orders?.of(commit),
  );
  if (!otherwise.live || goal.health === undefined) return otherwise;
  return goal.health.judge(deployment, otherwise);
}
