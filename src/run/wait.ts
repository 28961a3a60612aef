/**
 * Waiting until a deployment is live (live.ts says what that means): the
 * polling schedule only. Polls `getById` with a growing interval, up to a
 * deadline, tolerating a few failed polls; a deployment that already is live
 * needs no check.
 */
import { ActionError } from '../common/errors.js';
import { ServiceError } from '../service/errors.js';
import { formatDuration, untrusted, type Logger } from '../common/runtime.js';
import { Service } from '../service/endpoints.js';
import type { RunDependencies } from './dependencies.js';
import { livenessFor, type Goal } from './goal.js';
import type { Liveness } from './live.js';
import { STATUSES, type Deployment } from '../service/schemas.js';

export interface WaitOptions {
  timeoutMs: number;
  /** The first interval; each next one is `growth` times longer, up to the cap of its phase. */
  initialIntervalMs: number;
  /**
   * The cap while the wait is young (`earlyPhaseMs`): most deployments go
   * live within seconds, and a check every `earlyIntervalMs` sees it soon.
   */
  earlyIntervalMs: number;
  earlyPhaseMs: number;
  /** The cap after the early phase. */
  maxIntervalMs: number;
  growth: number;
  /** Failed polls in a row that are tolerated before the wait fails. */
  maxFailedPolls: number;
}

/** A wait ended without the deployment being live; carries the last deployment seen. */
export class WaitError extends ActionError {
  override name = 'WaitError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}

export const DEFAULT_WAIT: Omit<WaitOptions, 'timeoutMs'> = {
  initialIntervalMs: 1_000,
  earlyIntervalMs: 1_500,
  earlyPhaseMs: 10_000,
  maxIntervalMs: 15_000,
  growth: 2,
  maxFailedPolls: 5,
};

/** The interval after `interval`, `elapsed` into the wait. */
function nextInterval(interval: number, elapsed: number, options: WaitOptions): number {
  const cap = elapsed < options.earlyPhaseMs ? options.earlyIntervalMs : options.maxIntervalMs;
  return Math.min(cap, interval * options.growth);
}

/** One check: the deployment as the service lists it now, or why the check failed. */
async function check(
  service: Service,
  id: string,
  timeoutMs: number,
): Promise<Deployment | ActionError> {
  try {
    const seen = await service.getById(id, timeoutMs);
    return seen ?? new ActionError(`${Service.describeGetById(id)} does not list the deployment`);
  } catch (error) {
    if (error instanceof ServiceError && error.transient) return error;
    throw error;
  }
}

/** A status the action does not know is waited through, and said once. */
function noteUnknownStatus(status: string, known: Set<string>, logger: Logger): void {
  if ((STATUSES as readonly string[]).includes(status) || known.has(status)) return;
  known.add(status);
  logger.info(`status ${untrusted(status)} is not one the action knows: waiting through it`);
}

/** Polls until the deployment is live; the deployment, and how it is live. */
export async function waitUntilLive(
  initial: Deployment,
  goal: Pick<Goal, 'target' | 'seenRevisions'> & Partial<Pick<Goal, 'orders'>>,
  options: WaitOptions,
  dependencies: RunDependencies,
): Promise<{ deployment: Deployment; verdict: Liveness & { live: true } }> {
  const { service, clock, logger, signal } = dependencies;
  const started = clock.now();
  const deadline = started + options.timeoutMs;
  const unknownStatuses = new Set<string>();
  let deployment = initial;
  let interval = options.initialIntervalMs;
  let lastCheck = started;
  let failedPolls = 0;
  for (let polls = 0; ;) {
    await goal.orders?.learn(deployment);
    const verdict = livenessFor(deployment, goal);
    if (verdict.live) return { deployment, verdict };
    const name = `'${untrusted(deployment.name)}' (${deployment.id})`;
    if (verdict.final)
      throw new WaitError(`Deployment ${name} will not be live: ${verdict.missing}.`, deployment);
    noteUnknownStatus(deployment.status, unknownStatuses, logger);
    const remaining = deadline - clock.now();
    if (remaining <= 0) {
      throw new WaitError(
        `Deployment ${name} is not live after ${formatDuration(options.timeoutMs)} (${polls} checks): ${verdict.missing}. Raise ${service.words.waitTimeout}, or look at the deployment in the service.`,
        deployment,
      );
    }
    // Intervals run from the start of one check to the start of the next.
    const delay = Math.max(0, Math.min(interval - (clock.now() - lastCheck), remaining));
    logger.info(
      `waiting until live: ${verdict.missing}; ${formatDuration(clock.now() - started)} so far, next check in ${formatDuration(delay)}`,
    );
    await clock.sleep(delay, signal);
    lastCheck = clock.now();
    interval = nextInterval(interval, lastCheck - started, options);
    polls++;
    // The last check may not outlast the deadline by more than a second.
    const seen = await check(service, deployment.id, Math.max(1_000, deadline - clock.now()));
    if (!(seen instanceof ActionError)) {
      deployment = seen;
      failedPolls = 0;
      dependencies.onPoll?.(deployment);
      continue;
    }
    failedPolls++;
    if (failedPolls > options.maxFailedPolls) {
      throw new WaitError(
        `Gave up waiting for ${name} after ${failedPolls} failed checks in a row; the last: ${seen.message}`,
        deployment,
      );
    }
    logger.warning(
      `check ${polls} failed (${failedPolls} of ${options.maxFailedPolls} tolerated in a row): ${seen.message}`,
    );
  }
}
