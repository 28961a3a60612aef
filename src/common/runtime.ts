/** What every module needs from the world, passed in rather than imported, and how a log writes values. */
import { LINE_BREAK_KEPT, UNSAFE_IN_A_LINE, unicodeEscape } from './characters.js';
import { CancelledError } from './errors.js';

export interface Clock {
  /** Monotonic milliseconds: a wall clock stepped back or forward cannot stretch or cut a wait. */
  now(): number;
  /** Only to read an HTTP date (`Retry-After`). */
  wallTime(): number;
  /** Rejects with a `CancelledError` when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1), for jitter. */
  random(): number;
  /** `callback` once after `ms`, unless the returned function is called first. */
  timer(ms: number, callback: () => void): () => void;
}

export interface Logger {
  info(message: string): void;
  /** Something the user should see, not a problem. */
  notice(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wallTime: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError());
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  timer: (ms, callback) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

/** How every duration is written in the log: `1.5 s`, `12.0 s`. */
export function formatDuration(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A service value fit for one log line: controls shown escaped (`\r`, `\u001b`), so it cannot
 * start a line of its own (`::` starts a runner command) nor colour or rewrite the log.
 */
export function untrusted(value: string): string {
  return value.replace(UNSAFE_IN_A_LINE, (character) => {
    const escaped = JSON.stringify(character).slice(1, -1);
    return escaped.length > 1 ? escaped : unicodeEscape(character);
  });
}

/**
 * The last defence for logged text: a line (ended by any break, a lone CR included) that would
 * start a runner command (`::name::`, after white space) gets a marker in front.
 */
export function neutraliseCommands(text: string): string {
  return text
    .split(LINE_BREAK_KEPT)
    .map((part, index) => (index % 2 === 0 && /^\s*::/.test(part) ? `[text] ${part}` : part))
    .join('');
}
