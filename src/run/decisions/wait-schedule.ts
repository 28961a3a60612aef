/**
 * The schedule of a wait's checks, as values: when the next check is due,
 * what a check's answer (or its failure, or a `429`) changes, and when the
 * wait stops. Nothing here reads a clock or sends a request: the wait
 * (wait.ts) passes the time in and does what the schedule says.
 *
 * Intervals run from the start of one check to the start of the next: the
 * first `initialIntervalMs`, each next `growth` times longer, up to
 * `maxIntervalMs`. A pause the service asks for (its `Retry-After`, or for a
 * `429` without one a pause that doubles with each in a row, from twice
 * `maxIntervalMs`) holds until the next answer, at most `maxSlowdownMs`.
 */
import type { ActionError } from '../../common/errors.js';
import { ServiceError } from '../../service/errors.js';
import type { WaitOptions } from '../ports/pace.js';

/** What the schedule reads of the wait's options. */
export type ScheduleOptions = Pick<
  WaitOptions,
  'initialIntervalMs' | 'maxIntervalMs' | 'growth' | 'maxFailedPolls' | 'maxSlowdownMs'
>;

/** Where the schedule is; each function below returns a new one. */
export interface Schedule {
  /** The interval from the last check's start to the next one's. */
  readonly intervalMs: number;
  /** When the last check started (the wait's start before the first). */
  readonly lastCheckAt: number;
  /** Checks started so far. */
  readonly checks: number;
  /** Failed checks in a row (a `429` is none). */
  readonly failedInARow: number;
  /** `429` answers in a row: each doubles the pause when the service names none. */
  readonly throttledInARow: number;
  /** The pause the service asked for before the next check; 0 when none. */
  readonly slowdownMs: number;
}

/** What a failed check says of the service's wish: a `429`, and the pause its `Retry-After` names. */
export interface Refusal {
  throttled: boolean;
  retryAfterMs?: number;
}

/** What the wait does next. */
export type Move =
  /** The deadline has passed: the wait ends, not live. */
  | { kind: 'stop' }
  /**
   * The next check would come after the deadline (or before the pause the
   * service asked for ends): the wait pauses until the deadline, without it.
   */
  | { kind: 'pause-to-deadline'; pauseMs: number }
  /** Pause `pauseMs` (maybe 0), then check. */
  | { kind: 'check'; pauseMs: number };

/** The schedule as a wait starts at `now`: no check yet. */
export function startSchedule(options: ScheduleOptions, now: number): Schedule {
  return {
    intervalMs: options.initialIntervalMs,
    lastCheckAt: now,
    checks: 0,
    failedInARow: 0,
    throttledInARow: 0,
    slowdownMs: 0,
  };
}

/** What a failed check says of the service's wish: a `429`, its `Retry-After`. */
export function refusalOf(failure: ActionError): Refusal {
  if (!(failure instanceof ServiceError)) return { throttled: false };
  const { retryAfterMs } = failure.details;
  return {
    throttled: failure.status === 429,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** What to do at `now`, for a wait that ends at `deadline`. */
export function nextMove(schedule: Schedule, deadline: number, now: number): Move {
  const remaining = deadline - now;
  if (remaining <= 0) return { kind: 'stop' };
  const wanted = Math.max(schedule.intervalMs - (now - schedule.lastCheckAt), schedule.slowdownMs);
  // Keeps 30 checks a minute: never a check closer than its interval, nor past the deadline.
  if (wanted > remaining) return { kind: 'pause-to-deadline', pauseMs: remaining };
  return { kind: 'check', pauseMs: Math.max(0, wanted) };
}

/** A check starts at `now`: the next interval grows. */
export function checkStarted(schedule: Schedule, options: ScheduleOptions, now: number): Schedule {
  return {
    ...schedule,
    lastCheckAt: now,
    intervalMs: Math.min(options.maxIntervalMs, schedule.intervalMs * options.growth),
    checks: schedule.checks + 1,
  };
}

/** How long a check started at `now` may take: the last may not outlast the deadline by more than a second. */
export function checkTimeoutMs(deadline: number, now: number): number {
  return Math.max(1_000, deadline - now);
}

/** The service answered a check: no failure in a row, no pause asked. */
export function answered(schedule: Schedule): Schedule {
  return { ...schedule, failedInARow: 0, throttledInARow: 0, slowdownMs: 0 };
}

/** The pause asked by a refusal, `throttled` being the `429`s before it in a row; at most `maxSlowdownMs`. */
function slowdownOf(refusal: Refusal, throttled: number, options: ScheduleOptions): number {
  const asked =
    refusal.retryAfterMs ?? (refusal.throttled ? options.maxIntervalMs * 2 ** throttled : 0);
  return Math.min(asked, options.maxSlowdownMs);
}

/**
 * A check failed. A `429` is no failure (the deadline still holds): the
 * checks slow down. Any other counts as failed in a row, and pauses the
 * checks when the service names a pause.
 */
export function refused(schedule: Schedule, refusal: Refusal, options: ScheduleOptions): Schedule {
  if (refusal.throttled) {
    return {
      ...schedule,
      slowdownMs: slowdownOf(refusal, schedule.throttledInARow, options),
      throttledInARow: schedule.throttledInARow + 1,
    };
  }
  return {
    ...schedule,
    slowdownMs: slowdownOf(refusal, 0, options),
    throttledInARow: 0,
    failedInARow: schedule.failedInARow + 1,
  };
}

/** More failed checks in a row than the wait tolerates: it gives up. */
export function givesUp(schedule: Schedule, options: ScheduleOptions): boolean {
  return schedule.failedInARow > options.maxFailedPolls;
}
