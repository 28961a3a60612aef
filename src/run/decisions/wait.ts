/**
 * Waiting until a deployment is live: `getById` (or the shared checks, status-checks.ts) on
 * the schedule of wait-schedule.ts up to a deadline, tolerating a few failed checks in a row.
 * A deployment already live needs no check.
 */
import { ActionError } from '../../common/errors.js';
import { ServiceError } from '../../service/errors.js';
import { formatDuration, untrusted, type Logger } from '../../common/runtime.js';
import { Service } from '../../service/endpoints.js';
import type { RunDependencies } from '../ports/dependencies.js';
import type { Liveness } from '../ports/findings.js';
import type { WaitOptions } from '../ports/pace.js';
import { decideLive, type LiveGoal } from './goal.js';
import { CheckNotSentError } from './status-checks.js';
import { Heartbeat, type WaitState } from './wait-heartbeat.js';
import {
  answered,
  checkStarted,
  checkTimeoutMs,
  givesUp,
  nextMove,
  refused,
  refusalOf,
  startSchedule,
  type Schedule,
} from './wait-schedule.js';
import { STATUSES, type Deployment } from '../../service/schemas.js';

export type WaitEnd =
  | { deployment: Deployment; verdict: Liveness & { live: true }; failure?: undefined }
  | { deployment: Deployment; verdict: Liveness & { live: false }; failure: string };

/** A check in flight for less than this is no silence of the service worth a word. */
const SILENCE_MS = 1_000;

/** The deployment as listed now, why the check failed, or nothing when it reached the deadline unsent. */
async function check(
  dependencies: Pick<RunDependencies, 'service' | 'statusCheck' | 'clock'>,
  id: string,
  timeoutMs: number,
  sent: (at: number) => void,
): Promise<Deployment | ActionError | undefined> {
  const { service, statusCheck, clock } = dependencies;
  const alone = (asked: string, ms: number) => {
    sent(clock.now());
    return service.getById(asked, ms);
  };
  try {
    const seen = await (statusCheck ?? alone)(id, timeoutMs, sent);
    return seen ?? new ActionError(`${Service.describeGetById(id)} does not list the deployment`);
  } catch (error) {
    if (error instanceof ServiceError && error.transient) return error;
    if (error instanceof CheckNotSentError) return undefined;
    throw error;
  }
}

/** A status the action does not know is waited through, and said once. */
function noteUnknownStatus(status: string, known: Set<string>, logger: Logger): void {
  if ((STATUSES as readonly string[]).includes(status) || known.has(status)) return;
  known.add(status);
  logger.info(`status ${untrusted(status)} is not one this release knows: waiting through it`);
}

function timedOut(
  name: string,
  schedule: Schedule,
  options: WaitOptions,
  { missing, remedy }: Liveness & { live: false },
  words: Service['words'],
): string {
  const { slowdownMs } = schedule;
  const slowed =
    slowdownMs > 0
      ? `; the service asked to pause ${formatDuration(slowdownMs)} between checks`
      : '';
  const advice = remedy ?? `Raise ${words.waitTimeout}, or look at the deployment in the service.`;
  return `Deployment ${name} is not live after ${formatDuration(options.timeoutMs)} (${schedule.checks} checks${slowed}): ${missing}. ${advice}`;
}

/** A check, its heartbeat counting the service's silence from when the request left, not from its turn in the queue. */
function beatingCheck(
  heartbeat: Heartbeat,
  state: WaitState,
  dependencies: Pick<RunDependencies, 'service' | 'statusCheck' | 'clock'>,
  id: string,
  timeoutMs: number,
): Promise<Deployment | ActionError | undefined> {
  let sentAt = Number.POSITIVE_INFINITY;
  const silence = () => {
    const silentMs = dependencies.clock.now() - sentAt;
    if (silentMs < SILENCE_MS) return undefined;
    return `the service has not answered a status check for ${formatDuration(silentMs)}`;
  };
  return heartbeat.beating(
    state,
    () => check(dependencies, id, timeoutMs, (at) => (sentAt = at)),
    silence,
  );
}

function slowingDown(schedule: Schedule): string {
  return `the service asked to slow down (429): next check in ${formatDuration(schedule.slowdownMs)}`;
}

function failedCheck(schedule: Schedule, options: WaitOptions, failure: string): string {
  const { slowdownMs } = schedule;
  const later = slowdownMs > 0 ? `; next check in ${formatDuration(slowdownMs)}, as it asked` : '';
  return `check ${schedule.checks} failed (${schedule.failedInARow} of ${options.maxFailedPolls} tolerated in a row): ${failure}${later}`;
}

/** Checks until the deployment is live. `decided`: how live `initial` is, when the caller knows. */
export async function waitUntilLive(
  initial: Deployment,
  goal: LiveGoal,
  options: WaitOptions,
  dependencies: RunDependencies,
  decided?: Liveness,
): Promise<WaitEnd> {
  const { service, clock, logger, signal, events } = dependencies;
  const started = clock.now();
  const deadline = started + options.timeoutMs;
  const heartbeat = new Heartbeat({ clock, heartbeatMs: options.heartbeatMs, events, started });
  const unknownStatuses = new Set<string>();
  let schedule = startSchedule(options, started);
  let deployment = initial;
  let verdict = decided ?? (await decideLive(initial, goal));
  for (;;) {
    if (verdict.live) {
      heartbeat.live(deployment);
      return { deployment, verdict };
    }
    const name = `'${untrusted(deployment.name)}' (${deployment.id})`;
    if (verdict.final) {
      const message = `Deployment ${name} will not be live: ${verdict.missing}.`;
      return heartbeat.over('failed', { deployment, verdict, failure: message });
    }
    noteUnknownStatus(deployment.status, unknownStatuses, logger);
    const state = { deployment, missing: verdict.missing, briefly: verdict.briefly };
    const move = nextMove(schedule, deadline, clock.now());
    if (move.kind === 'stop') {
      const message = timedOut(name, schedule, options, verdict, service.words);
      return heartbeat.over('timed_out', { deployment, verdict, failure: message });
    }
    heartbeat.show(state);
    if (move.pauseMs > 0) await heartbeat.beating(state, () => clock.sleep(move.pauseMs, signal));
    if (move.kind === 'pause-to-deadline') continue;
    schedule = checkStarted(schedule, options, clock.now());
    const timeoutMs = checkTimeoutMs(deadline, clock.now());
    const seen = await beatingCheck(heartbeat, state, dependencies, deployment.id, timeoutMs);
    if (seen === undefined) continue;
    if (!(seen instanceof ActionError)) {
      deployment = seen;
      schedule = answered(schedule);
      verdict = await decideLive(deployment, goal);
      dependencies.onPoll?.(deployment, verdict);
      continue;
    }
    const refusal = refusalOf(seen);
    schedule = refused(schedule, refusal, options);
    if (givesUp(schedule, options)) {
      const message = `Gave up waiting for ${name} after ${schedule.failedInARow} failed checks in a row; the last: ${seen.message}`;
      return heartbeat.over('failed', { deployment, verdict, failure: message });
    }
    if (refusal.throttled) heartbeat.say(state, slowingDown(schedule));
    else logger.warning(failedCheck(schedule, options, seen.message));
  }
}
