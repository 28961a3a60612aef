/**
 * A fake clock for several tasks at once (agents that wait side by side):
 * unlike `FakeClock`, whose `sleep` moves time at once, time stands still
 * until `drive` moves it, to the next timer, and only when nothing else can
 * happen first (no request under way, nothing left to run this turn). So
 * every task sleeps on the same time line, in no real time.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../src/common/runtime.ts';
import { CancelledError } from '../../src/common/errors.ts';

export class SharedClock implements Clock {
  time = 1_700_000_000_000;
  readonly #timers: { due: number; callback: () => void }[] = [];

  now(): number {
    return this.time;
  }

  wallTime(): number {
    return this.time;
  }

  random(): number {
    return 0.5;
  }

  timer(ms: number, callback: () => void): () => void {
    const timer = { due: this.time + ms, callback };
    this.#timers.push(timer);
    return () => {
      const at = this.#timers.indexOf(timer);
      if (at >= 0) this.#timers.splice(at, 1);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError('The run was cancelled'));
    return new Promise((resolve, reject) => {
      const cancel = this.timer(ms, resolve);
      signal?.addEventListener(
        'abort',
        () => {
          cancel();
          reject(new CancelledError('The run was cancelled'));
        },
        { once: true },
      );
    });
  }

  /** Moves time to the earliest timer and fires every timer due then; false when there is none. */
  step(): boolean {
    if (this.#timers.length === 0) return false;
    this.time = Math.max(this.time, Math.min(...this.#timers.map((timer) => timer.due)));
    const due = this.#timers.filter((timer) => timer.due <= this.time);
    for (const timer of due) this.#timers.splice(this.#timers.indexOf(timer), 1);
    for (const timer of due) timer.callback();
    return true;
  }
}

/**
 * Runs `work` to its end: lets every task run as far as it can, waits for
 * the requests under way (`busy`), and only then moves time to the next timer.
 */
export async function drive<T>(
  clock: SharedClock,
  work: Promise<T>,
  busy: () => boolean,
): Promise<T> {
  let over = false;
  const ended = work.then(
    () => (over = true),
    () => (over = true),
  );
  for (;;) {
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    if (over) return work;
    if (busy()) {
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 2))]);
      continue;
    }
    if (!clock.step()) throw new Error('nothing left to wait for, and the work is not over');
  }
}
