/** What the step asks of the deployment `deploy` found or created (docs/how-it-works.md, "What green means", "Drift"). */
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import { ACTION_WORDS, type RemedyWords } from '../../service/answers.js';
import type { Deployment } from '../../service/schemas.js';
import type { DeployResult } from './deploy.js';
import { fullName } from './find.js';
import type { Drift, Liveness, UnbuiltDrift } from '../ports/findings.js';
import { fieldDrift, findDrift, showValue } from './drift.js';
import { chooseTarget, CommitOrders, latestCommit, liveness } from './live.js';
import type { Target } from './live.js';
import type { AskCommitOrder } from '../ports/progress.js';
import type { HealthJudge } from './health.js';

export interface Goal {
  target?: Target;
  /** Revision ids seen when the step found or created the deployment (on create, the head the service knows). */
  seenRevisions: ReadonlySet<string>;
  /** Reuse only; the `unbuilt` entry last. Blocking entries make the deployment not live, whatever its status. */
  drift: Drift[];
  orders: CommitOrders;
  /** `RemedyWords.asker`; absent: the step. */
  asker?: string;
}

function reusedOf(result: DeployResult): Deployment | undefined {
  return result.created ? undefined : result.deployment;
}

/**
 * A revision the step did not see is a newer push. The same rule on create and reuse, so one
 * world gets one verdict: a create's own revision is the head the service knows, not a push.
 */
function seenRevisionsOf(deployment: Deployment | undefined): Set<string> {
  const ids = [deployment?.latest_revision_id, deployment?.active_revision_id];
  return new Set(ids.filter((id) => typeof id === 'string'));
}

function targetOf(spec: DeploySpec, result: DeployResult, logger: Logger): Target | undefined {
  if (spec.source !== 'codehost') return undefined;
  const requested = result.request.source_revision_config.repo_ref;
  const tracked = reusedOf(result)?.source_revision_config.repo_ref ?? requested ?? undefined;
  return chooseTarget(spec.commit, tracked, logger);
}

/** The target as drift: a reused deployment will not build it, and the live commit is not newer. */
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

/**
 * `ask` says which commit is newer when the reused deployment runs another. A target the
 * deployment will not build is blocking drift: not live, and the step does not wait for it.
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
  const repository = spec.source === 'codehost' ? fullName(spec.repository) : undefined;
  const orders = new CommitOrders(ask, repository, target, logger);
  if (reused !== undefined) await orders.learn(reused);
  const unbuilt = unbuiltOf(reused, target, orders);
  if (unbuilt === undefined) return { target, seenRevisions, drift, orders, asker };
  return { seenRevisions, drift: [...drift, unbuilt], orders, asker };
}

export function blockedIn(drift: readonly Drift[]): Drift[] {
  return drift.filter((entry) => entry.blocks);
}

export function unbuiltIn(drift: readonly Drift[]): UnbuiltDrift | undefined {
  return drift.find((entry): entry is UnbuiltDrift => entry.kind === 'unbuilt');
}

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

export function blockedRemedy(goal: Pick<Goal, 'drift'>): string {
  const kinds = blockedIn(goal.drift).map((entry) => entry.kind);
  const remedies = [
    kinds.includes('unbuilt') &&
      'turn build_on_push on for the deployment in the service (or set commit: none)',
    kinds.includes('field') && 'change the deployment in the service',
    'deploy under a new name',
  ].filter((remedy) => remedy !== false);
  return `To fix it: ${remedies.join(', or ')}.`;
}

function showCommit(value: unknown): string {
  return typeof value === 'string' ? shortSha(untrusted(value)) : '(none given)';
}

/** What live is judged against: a goal, or less (`status` asks only to be live: `ONLY_LIVE`). */
export type LiveGoal = Pick<Goal, 'target' | 'seenRevisions' | 'asker'> &
  Partial<Pick<Goal, 'orders' | 'drift'>> & { health?: HealthJudge };

export const ONLY_LIVE: LiveGoal = { seenRevisions: new Set() };

/**
 * The one place live is decided: the flows once for the deployment they found, the wait for
 * each state it sees; everything else reads the value passed on. A new condition of live goes
 * here only; the last, the address's answer, is asked once the deployment is otherwise live.
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
