/**
 * A clock for flow tests: `sleep` returns at once and moves time forward, so
 * backoff and polling run in no real time while the HTTP is real.
 */
import type { Clock, Logger } from '../../src/common/runtime.ts';
import { CancelledError } from '../../src/common/errors.ts';

export class FakeClock implements Clock {
  time = 1_700_000_000_000;
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];
  /** Called on each sleep, before time moves (e.g. to change the emulator's state). */
  onSleep: ((ms: number) => void) | undefined;

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
    this.time += ms;
    return Promise.resolve();
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
