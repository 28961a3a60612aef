/**
 * The wait as a phase of a flow (the deploy's, `status`'s): in a log group,
 * until the deployment is live, and what the log says of it then. The wait
 * itself is run/decisions/wait.ts.
 */
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup, type RunDependencies } from '../ports/dependencies.js';
import type { Liveness } from '../ports/findings.js';
import { DEFAULT_WAIT } from '../ports/pace.js';
import type { LiveGoal } from '../decisions/goal.js';
import { waitUntilLive } from '../decisions/wait.js';

/** Says which commit is live when another one superseded the target. */
export function noteSuperseded(goal: LiveGoal, liveness: Liveness, logger: Logger): void {
  if (!liveness.live || liveness.supersededBy === undefined || goal.target === undefined) return;
  const newer =
    goal.orders?.of(liveness.supersededBy) === 'newer' ? 'a newer commit' : 'a newer push';
  logger.info(
    `commit ${shortSha(goal.target.sha)} was superseded by ${newer}: commit ${shortSha(untrusted(liveness.supersededBy))} is live instead`,
  );
}

/**
 * Waits, in a log group, until the deployment is live, from how live it was
 * found (not decided again); the deployment as it ends up, and how it is live.
 */
export async function waitForLive(
  asked: Pick<DeploySpec, 'name' | 'waitTimeoutSeconds'>,
  found: Deployment,
  liveness: Liveness,
  goal: LiveGoal,
  dependencies: RunDependencies,
): Promise<{ deployment: Deployment; liveness: Liveness & { live: true } }> {
  const { logger } = dependencies;
  const what = goal.target === undefined ? '' : ` with commit ${shortSha(goal.target.sha)}`;
  const { deployment, verdict } = await inGroup(dependencies)(
    `Waiting until '${asked.name}' is live${what}`,
    'wait',
    () =>
      waitUntilLive(
        found,
        goal,
        { ...(dependencies.wait ?? DEFAULT_WAIT), timeoutMs: asked.waitTimeoutSeconds * 1000 },
        dependencies,
        liveness,
      ),
  );
  noteSuperseded(goal, verdict, logger);
  logger.info(`'${asked.name}' is live`);
  return { deployment, liveness: verdict };
}
