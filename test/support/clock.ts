/**
 * A clock for flow tests: `sleep` returns at once and moves time forward, so
 * backoff and polling run in no real time while the HTTP is real. A timer
 * fires when time moves past it, at its own time: in a sleep, or in
 * `advance` (e.g. from the emulator, for a request that takes that long).
 */
import type { Clock, Logger } from '../../src/common/runtime.ts';
import { CancelledError } from '../../src/common/errors.ts';

export class FakeClock implements Clock {
  time = 1_700_000_000_000;
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];
  /** Called on each sleep, before time moves (e.g. to change the emulator's state). */
  onSleep: ((ms: number) => void) | undefined;
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

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError('The run was cancelled'));
    this.sleeps.push(ms);
    this.onSleep?.(ms);
    this.advance(ms);
    return Promise.resolve();
  }

  timer(ms: number, callback: () => void): () => void {
    const timer = { due: this.time + ms, callback };
    this.#timers.push(timer);
    return () => {
      const at = this.#timers.indexOf(timer);
      if (at >= 0) this.#timers.splice(at, 1);
    };
  }

  /** Moves time forward by `ms`, firing each timer due meanwhile at its time, earliest first. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = this.#timers
        .filter((timer) => timer.due <= until)
        .sort((a, b) => a.due - b.due)[0];
      if (next === undefined) break;
      this.#timers.splice(this.#timers.indexOf(next), 1);
      this.time = Math.max(this.time, next.due);
      next.callback();
    }
    this.time = until;
  }
}

/** A logger that keeps every line, for assertions. */
export class MemoryLogger implements Logger {
  readonly lines: string[] = [];

  info(message: string): void {
    this.lines.push(`info: ${message}`);
  }

  notice(message: string): void {
    this.lines.push(`notice: ${message}`);
  }

  warning(message: string): void {
    this.lines.push(`warning: ${message}`);
  }

  debug(message: string): void {
    this.lines.push(`debug: ${message}`);
  }

  get text(): string {
    return this.lines.join('\n');
  }
}
