/** The wait as a phase of the deploy's and `status`'s flows; the wait itself is run/decisions/wait.ts. */
import { untrusted, type Logger } from '../../common/runtime.js';
import { shortSha } from '../../common/text.js';
import type { DeploySpec, HealthRequest } from '../../inputs/deploy-spec.js';
import { CHECK_TIMEOUT_MS } from '../../service/address-check.js';
import type { RemedyWords } from '../../service/answers.js';
import type { ProxySettings } from '../../service/proxy.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup, type RunDependencies } from '../ports/dependencies.js';
import type { Liveness } from '../ports/findings.js';
import { DEFAULT_WAIT } from '../ports/pace.js';
import type { LiveGoal } from '../decisions/goal.js';
import { waitUntilLive } from '../decisions/wait.js';
import { AddressChecks } from '../decisions/address-pace.js';
import { healthLine, healthNotMade, HealthProbe } from '../decisions/health.js';

/** The goal with the health check, when asked: it checks as long as the wait may (one check without). */
export function withHealth<G extends LiveGoal>(
  goal: G,
  asked: { health?: HealthRequest; waitForReady: boolean; waitTimeoutSeconds: number },
  dependencies: RunDependencies,
  proxy: ProxySettings,
): G {
  if (asked.health === undefined) return goal;
  const { clock, logger, events, signal, redact } = dependencies;
  const budgetMs = asked.waitForReady ? asked.waitTimeoutSeconds * 1000 : CHECK_TIMEOUT_MS;
  const wait = dependencies.wait ?? DEFAULT_WAIT;
  const addresses = dependencies.addressCheck ?? new AddressChecks({ clock, wait, redact }).answer;
  const headersWords = dependencies.service.words.healthCheckHeaders;
  const heartbeatMs = wait.heartbeatMs;
  const probe = { clock, logger, proxy, heartbeatMs, addresses, headersWords, events, signal };
  return { ...goal, health: new HealthProbe(asked.health, probe, budgetMs) };
}

/**
 * Without a wait: a health check not answering as asked is a warning, one not made (not live
 * yet) a notice. One that can never answer (no `url`) fails the step (`stepFailure`).
 */
export function noteHealth(
  asked: { name: string; health?: HealthRequest | undefined; dryRun?: boolean },
  liveness: Liveness,
  logger: Logger,
  words: Pick<RemedyWords, 'noWait'>,
): void {
  const { name } = asked;
  const { health } = liveness;
  const notMade = healthNotMade(asked, liveness);
  if (notMade !== undefined) {
    logger.notice(
      `health check not made: ${notMade} (${words.noWait}; waiting until live would check it)`,
    );
  }
  if (health === undefined || health.ok) return;
  if (!liveness.live && liveness.final === true) return;
  logger.warning(
    `'${name}' does not answer its health check: ${healthLine(health)}. Not waiting (${words.noWait}), so this is a warning.`,
  );
}

/** Says which commit is live when another one superseded the target. */
export function noteSuperseded(goal: LiveGoal, liveness: Liveness, logger: Logger): void {
  if (!liveness.live || liveness.supersededBy === undefined || goal.target === undefined) return;
  const newer =
    goal.orders?.of(liveness.supersededBy) === 'newer' ? 'a newer commit' : 'a newer push';
  logger.info(
    `commit ${shortSha(goal.target.sha)} was superseded by ${newer}: commit ${shortSha(untrusted(liveness.supersededBy))} is live instead`,
  );
}

/** Waits in a log group, from how live it was found (not decided again); why not, when not live. */
export async function waitForLive(
  asked: Pick<DeploySpec, 'name' | 'waitTimeoutSeconds'>,
  found: Deployment,
  liveness: Liveness,
  goal: LiveGoal,
  dependencies: RunDependencies,
): Promise<{ deployment: Deployment; liveness: Liveness; failure?: string }> {
  const { logger } = dependencies;
  const what = goal.target === undefined ? '' : ` with commit ${shortSha(goal.target.sha)}`;
  const { deployment, verdict, failure } = await inGroup(dependencies)(
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
  if (failure !== undefined) return { deployment, liveness: verdict, failure };
  noteSuperseded(goal, verdict, logger);
  logger.info(`'${asked.name}' is live`);
  return { deployment, liveness: verdict };
}
