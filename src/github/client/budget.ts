/**
 * The time GitHub may cost a run (all the GitHub work of a run adds at most
 * 15 s, whatever GitHub does). Every attempt reserves the time it may take
 * before it starts and gives back what it did not use, so calls made side by
 * side cannot overspend it together.
 */
import type { Clock } from '../../common/runtime.js';

/** All the GitHub work of one run. */
export const RUN_BUDGET_MS = 15_000;

export class Budget {
  readonly totalMs: number;
  #reservedMs = 0;
  readonly #clock: Pick<Clock, 'now'>;

  constructor(clock: Pick<Clock, 'now'>, totalMs = RUN_BUDGET_MS) {
    this.#clock = clock;
    this.totalMs = totalMs;
  }

  /** What is left, in ms. */
  get remainingMs(): number {
    return Math.max(0, this.totalMs - this.#reservedMs);
  }

  /**
   * Reserves up to `wantedMs`; returns what was granted (0 when spent) and a
   * function that ends the reservation, keeping only the time really used.
   */
  reserve(wantedMs: number): { grantedMs: number; end: () => number } {
    const grantedMs = Math.max(0, Math.min(wantedMs, this.remainingMs));
    this.#reservedMs += grantedMs;
    const started = this.#clock.now();
    let ended = false;
    return {
      grantedMs,
      end: () => {
        const usedMs = Math.min(grantedMs, Math.max(0, this.#clock.now() - started));
        if (!ended) {
          ended = true;
          this.#reservedMs -= grantedMs - usedMs;
        }
        return usedMs;
      },
    };
  }
}
