/**
 * Waiting until a deployment is live (live.ts says what that means): the
 * polling schedule and what the log says meanwhile. Polls `getById` every
 * second at first, then every 2 s at most, up to a deadline, tolerating a few
 * failed polls; a `429` or a `Retry-After` slows the checks down for as long
 * as the service asks. A deployment that already is live needs no check.
 * The views get a `waiting` event (a line of the log) at each change
 * (status, revision, commit) and, while nothing changes, one at least every
 * `heartbeatMs`: while a check is in flight too, which may take up to a
 * request's timeout.
 */
import { ActionError } from '../../common/errors.js';
import { ServiceError } from '../../service/errors.js';
import { formatDuration, untrusted, type Logger } from '../../common/runtime.js';
import { Service } from '../../service/endpoints.js';
import type { RunDependencies } from '../ports/dependencies.js';
import type { WaitOptions } from '../ports/pace.js';
import { DeploymentError } from '../ports/errors.js';
import { livenessFor, type Goal } from './goal.js';
import { latestCommit, type Liveness } from './live.js';
import { STATUSES, type Deployment } from '../../service/schemas.js';

/** A wait ended without the deployment being live; carries the last deployment seen. */
export class WaitError extends DeploymentError {
  override name = 'WaitError';
}

/**
 * How long the service asked the checks to pause after a failed one: its
 * `Retry-After`, else for a `429` a pause that doubles with each one in a
 * row (`throttled` before this one); 0 when it asked nothing. At most
 * `maxSlowdownMs`.
 */
function slowdownAfter(failure: ActionError, throttled: number, options: WaitOptions): number {
  if (!(failure instanceof ServiceError)) return 0;
  const asked =
    failure.details.retryAfterMs ??
    (failure.status === 429 ? options.maxIntervalMs * 2 ** throttled : 0);
  return Math.min(asked, options.maxSlowdownMs);
}

/** What the log says changed: the status, the revisions, the commit. */
function progressKey(deployment: Deployment): string {
  const { status, latest_revision_id: latest, active_revision_id: active } = deployment;
  return JSON.stringify([status, latest, active, latestCommit(deployment) ?? null]);
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
  const { service, clock, logger, signal, events } = dependencies;
  const started = clock.now();
  const deadline = started + options.timeoutMs;
  const unknownStatuses = new Set<string>();
  let deployment = initial;
  let interval = options.initialIntervalMs;
  let lastCheck = started;
  let failedPolls = 0;
  /** The pause the service asked for before the next check; 0 when none. */
  let slowdown = 0;
  /** `429` answers in a row: each doubles the pause when the service names none. */
  let throttled = 0;
  let shown: { key: string; at: number } | undefined;
  let missing = '';
  /**
   * The line of the wait's state; `note` says why the next check comes later
   * than usual, or that the service has not answered the one in flight.
   */
  const say = (note?: string) => {
    events?.({
      kind: 'waiting',
      waitingFor: missing,
      elapsedMs: clock.now() - started,
      ...(note === undefined ? {} : { note }),
    });
    shown = { key: progressKey(deployment), at: clock.now() };
  };
  /** The deployment's state as it is now, to the events' sink. */
  const changed = (waitingFor: string) =>
    events?.({
      kind: 'status_change',
      status: deployment.status,
      latestRevisionId: deployment.latest_revision_id ?? null,
      activeRevisionId: deployment.active_revision_id ?? null,
      waitingFor,
    });
  /**
   * Awaits `work` with a line whenever the heartbeat is due meanwhile: a
   * timer on the clock, so that a pause and a check the service does not
   * answer (it may block for the request's whole timeout) are alike. `note`
   * says, from the time waited, why nothing changed.
   */
  const beating = async <T>(work: () => Promise<T>, note?: (waited: string) => string) => {
    const since = clock.now();
    // Due as the work starts: said now, as a plain line.
    if ((shown?.at ?? since) + options.heartbeatMs <= since) say();
    let cancel = () => {};
    const arm = () => {
      const beat = Math.max(0, (shown?.at ?? since) + options.heartbeatMs - clock.now());
      cancel = clock.timer(beat, () => {
        say(note?.(formatDuration(clock.now() - since)));
        arm();
      });
    };
    arm();
    try {
      return await work();
    } finally {
      cancel();
    }
  };
  const pause = async (ms: number) => {
    if (ms > 0) await beating(() => clock.sleep(ms, signal));
  };
  const checkNow = (timeoutMs: number) =>
    beating(
      () => check(service, deployment.id, timeoutMs),
      (waited) => `the service has not answered a status check for ${waited}`,
    );
  for (let polls = 0; ;) {
    await goal.orders?.learn(deployment);
    const verdict = livenessFor(deployment, goal);
    if (verdict.live) {
      // The change that made it live is one too, when the wait saw the deployment before.
      if (shown !== undefined && shown.key !== progressKey(deployment)) changed('');
      events?.({ kind: 'wait_over', outcome: 'live' });
      return { deployment, verdict };
    }
    const name = `'${untrusted(deployment.name)}' (${deployment.id})`;
    if (verdict.final) {
      events?.({ kind: 'wait_over', outcome: 'failed' });
      throw new WaitError(`Deployment ${name} will not be live: ${verdict.missing}.`, deployment);
    }
    noteUnknownStatus(deployment.status, unknownStatuses, logger);
    missing = verdict.missing;
    const remaining = deadline - clock.now();
    if (remaining <= 0) {
      const slowed =
        slowdown > 0
          ? `; the service asked to pause ${formatDuration(slowdown)} between checks`
          : '';
      events?.({ kind: 'wait_over', outcome: 'timed_out' });
      throw new WaitError(
        `Deployment ${name} is not live after ${formatDuration(options.timeoutMs)} (${polls} checks${slowed}): ${verdict.missing}. Raise ${service.words.waitTimeout}, or look at the deployment in the service.`,
        deployment,
      );
    }
    if (shown === undefined || shown.key !== progressKey(deployment)) {
      say();
      changed(missing);
    }
    // Intervals run from the start of one check to the start of the next.
    const wanted = Math.max(interval - (clock.now() - lastCheck), slowdown);
    // The next check would come after the deadline (or before the pause the service asked
    // for ends): the wait ends at the deadline without it, which keeps 30 checks a minute.
    if (wanted > remaining) {
      await pause(remaining);
      continue;
    }
    await pause(Math.max(0, wanted));
    lastCheck = clock.now();
    interval = Math.min(options.maxIntervalMs, interval * options.growth);
    polls++;
    // The last check may not outlast the deadline by more than a second.
    const seen = await checkNow(Math.max(1_000, deadline - clock.now()));
    if (!(seen instanceof ActionError)) {
      deployment = seen;
      failedPolls = 0;
      throttled = 0;
      slowdown = 0;
      dependencies.onPoll?.(deployment);
      continue;
    }
    if (seen instanceof ServiceError && seen.status === 429) {
      // Asked to slow down: not a failure, and the deadline still holds.
      slowdown = slowdownAfter(seen, throttled++, options);
      say(`the service asked to slow down (429): next check in ${formatDuration(slowdown)}`);
      continue;
    }
    slowdown = slowdownAfter(seen, 0, options);
    throttled = 0;
    failedPolls++;
    if (failedPolls > options.maxFailedPolls) {
      events?.({ kind: 'wait_over', outcome: 'failed' });
      throw new WaitError(
        `Gave up waiting for ${name} after ${failedPolls} failed checks in a row; the last: ${seen.message}`,
        deployment,
      );
    }
    const later = slowdown > 0 ? `; next check in ${formatDuration(slowdown)}, as it asked` : '';
    logger.warning(
      `check ${polls} failed (${failedPolls} of ${options.maxFailedPolls} tolerated in a row): ${seen.message}${later}`,
    );
  }
}
