/**
 * The schedule of a wait's checks as values, without a server or a clock:
 * the time is passed in, and each answer, failure or `429` is a function of
 * the schedule (the wait's own behaviour, against the emulator, is wait.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT } from '../../../src/run/ports/pace.ts';
import {
  answered,
  checkStarted,
  checkTimeoutMs,
  givesUp,
  nextMove,
  refused,
  startSchedule,
  type Refusal,
  type Schedule,
} from '../../../src/run/decisions/wait-schedule.ts';

const options = DEFAULT_WAIT;

/** What each check gets: an answer, or a refusal. */
type Outcome = 'answer' | Refusal;

/**
 * A wait from time 0 to `deadline`, each check taking `checkMs` and getting
 * the next outcome (an answer once they run out): the pauses it makes, when
 * each check starts, and the schedule it ends with (at the deadline).
 */
function simulate(deadline: number, outcomes: Outcome[] = [], checkMs = 0) {
  let now = 0;
  let schedule: Schedule = startSchedule(options, now);
  const pauses: number[] = [];
  const checks: number[] = [];
  for (;;) {
    const move = nextMove(schedule, deadline, now);
    if (move.kind === 'stop') return { pauses, checks, schedule };
    if (move.pauseMs > 0) pauses.push(move.pauseMs);
    now += move.pauseMs;
    if (move.kind === 'pause-to-deadline') continue;
    schedule = checkStarted(schedule, options, now);
    checks.push(now);
    now += checkMs;
    const outcome = outcomes.shift() ?? 'answer';
    schedule = outcome === 'answer' ? answered(schedule) : refused(schedule, outcome, options);
  }
}

const throttled: Refusal = { throttled: true };
const failed: Refusal = { throttled: false };

describe('the wait schedule', () => {
  it('checks after 1 s, then every 2 s at any length of wait: at most 30 checks a minute', () => {
    const { checks } = simulate(181_500);
    expect(checks).toEqual(Array.from({ length: 91 }, (_, i) => 1_000 + 2_000 * i));
  });

  it('stops at the deadline, never pausing past it: the last pause ends there', () => {
    const { pauses, checks, schedule } = simulate(10_000);
    expect(pauses).toEqual([1_000, 2_000, 2_000, 2_000, 2_000, 1_000]);
    expect(checks).toHaveLength(5);
    expect(schedule.checks).toBe(5);
  });

  it('counts an interval from the start of one check to the next: a slow check is not added', () => {
    const { pauses, checks } = simulate(8_000, [], 3_000);
    // The first check at 1 s ends at 4 s: the next is due already.
    expect(checks.slice(0, 3)).toEqual([1_000, 4_000, 7_000]);
    expect(pauses).toEqual([1_000]);
  });

  it('pauses as long as a Retry-After asks, then goes back to its schedule', () => {
    const { pauses } = simulate(16_000, [{ throttled: false, retryAfterMs: 7_000 }]);
    expect(pauses.slice(0, 5)).toEqual([1_000, 7_000, 2_000, 2_000, 2_000]);
  });

  it('pauses after a 429 without a Retry-After twice the longest interval, doubling each in a row, up to the most', () => {
    let schedule = startSchedule(options, 0);
    const slowdowns: number[] = [];
    for (let i = 0; i < 7; i++) {
      schedule = refused(schedule, throttled, options);
      slowdowns.push(schedule.slowdownMs);
    }
    expect(slowdowns).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    // No 429 is a failed check: the wait never gives up on them.
    expect(schedule.failedInARow).toBe(0);
    expect(givesUp(schedule, options)).toBe(false);
    // An answer ends the slow-down, and the doubling starts over.
    schedule = refused(answered(schedule), throttled, options);
    expect(schedule.slowdownMs).toBe(2_000);
  });

  it('holds a Retry-After of a 429 as asked, at most the longest slow-down', () => {
    const schedule = startSchedule(options, 0);
    expect(refused(schedule, { throttled: true, retryAfterMs: 5_000 }, options).slowdownMs).toBe(
      5_000,
    );
    expect(refused(schedule, { throttled: true, retryAfterMs: 600_000 }, options).slowdownMs).toBe(
      options.maxSlowdownMs,
    );
  });

  it('waits out the deadline rather than check before the pause the service asked for ends', () => {
    const { pauses, checks } = simulate(10_000, [{ throttled: true, retryAfterMs: 30_000 }]);
    expect(checks).toEqual([1_000]);
    expect(pauses).toEqual([1_000, 9_000]);
  });

  it('gives up after more failed checks in a row than tolerated; an answer starts the count over', () => {
    let schedule = startSchedule(options, 0);
    for (let i = 0; i < options.maxFailedPolls; i++) schedule = refused(schedule, failed, options);
    expect(givesUp(schedule, options)).toBe(false);
    expect(givesUp(refused(schedule, failed, options), options)).toBe(true);
    expect(answered(schedule).failedInARow).toBe(0);
    // A failure without a Retry-After asks no pause, and ends a run of 429s.
    const slowed = refused(refused(schedule, throttled, options), failed, options);
    expect(slowed).toMatchObject({ slowdownMs: 0, throttledInARow: 0 });
  });

  it('lets a check run to the deadline, and the last one a second past it at most', () => {
    expect(checkTimeoutMs(60_000, 10_000)).toBe(50_000);
    expect(checkTimeoutMs(60_000, 59_800)).toBe(1_000);
  });

  it('changes no schedule it is given', () => {
    const schedule = Object.freeze(startSchedule(options, 0));
    expect(() =>
      refused(checkStarted(answered(schedule), options, 5), failed, options),
    ).not.toThrow();
    expect(schedule).toEqual(startSchedule(options, 0));
  });
});
