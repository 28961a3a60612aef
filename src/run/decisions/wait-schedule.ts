/**
 * A wait's schedule as values; no clock, no request (wait.ts passes the time in). Intervals
 * run start to start: `initialIntervalMs`, each next `growth` times longer, up to
 * `maxIntervalMs`. A pause the service asks for (`Retry-After`, or for a `429` without one a
 * pause from twice `maxIntervalMs`, doubling each in a row) holds until the next answer, at
 * most `maxSlowdownMs`.
 */
import type { ActionError } from '../../common/errors.js';
import { ServiceError } from '../../service/errors.js';
import type { WaitOptions } from '../ports/pace.js';

type ScheduleOptions = Pick<
  WaitOptions,
  'initialIntervalMs' | 'maxIntervalMs' | 'growth' | 'maxFailedPolls' | 'maxSlowdownMs'
>;

export interface Schedule {
  readonly intervalMs: number;
  /** The wait's start before the first check. */
  readonly lastCheckAt: number;
  readonly checks: number;
  /** A `429` is no failure. */
  readonly failedInARow: number;
  readonly throttledInARow: number;
  /** 0 when none asked. */
  readonly slowdownMs: number;
}

export interface Refusal {
  throttled: boolean;
  retryAfterMs?: number;
}

type Move =
  | { kind: 'stop' }
  /** The next check would come after the deadline (or the service's pause would). */
  | { kind: 'pause-to-deadline'; pauseMs: number }
  | { kind: 'check'; pauseMs: number };

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

export function refusalOf(failure: ActionError): Refusal {
  if (!(failure instanceof ServiceError)) return { throttled: false };
  return { throttled: failure.status === 429, retryAfterMs: failure.details.retryAfterMs };
}

export function nextMove(schedule: Schedule, deadline: number, now: number): Move {
  const remaining = deadline - now;
  if (remaining <= 0) return { kind: 'stop' };
  const wanted = Math.max(schedule.intervalMs - (now - schedule.lastCheckAt), schedule.slowdownMs);
  // Keeps 30 checks a minute: never a check closer than its interval, nor past the deadline.
  if (wanted > remaining) return { kind: 'pause-to-deadline', pauseMs: remaining };
  return { kind: 'check', pauseMs: Math.max(0, wanted) };
}

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

export function answered(schedule: Schedule): Schedule {
  return { ...schedule, failedInARow: 0, throttledInARow: 0, slowdownMs: 0 };
}

/** `throttled`: the `429`s before it in a row. */
function slowdownOf(refusal: Refusal, throttled: number, options: ScheduleOptions): number {
  const asked =
    refusal.retryAfterMs ?? (refusal.throttled ? options.maxIntervalMs * 2 ** throttled : 0);
  return Math.min(asked, options.maxSlowdownMs);
}

/** A `429` only slows the checks (the deadline still holds); any other failure counts in a row. */
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

export function givesUp(schedule: Schedule, options: ScheduleOptions): boolean {
  return schedule.failedInARow > options.maxFailedPolls;
}
