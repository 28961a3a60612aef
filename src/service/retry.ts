/**
 * The one retry rule of every request: how many attempts, how long between
 * them (the service's `Retry-After` when it sends one, else exponential
 * backoff with jitter), and how long one attempt may take.
 */
import type { Clock } from '../common/runtime.js';

export interface RetryPolicy {
  /** Attempts per request, the first one included. */
  attempts: number;
  /** Backoff before the second attempt; doubles with each further one. */
  initialDelayMs: number;
  /** The longest backoff between two attempts. */
  maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer one is cut to this. */
  maxRetryAfterMs: number;
  /** How long one attempt may take, answer body included. */
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  requestTimeoutMs: 30_000,
};

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | undefined, wallTime: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - wallTime);
}

/** The delay after failed attempt number `attempt` (1-based): `Retry-After` (capped), else backoff with jitter. */
export function delayBeforeRetry(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
  clock: Pick<Clock, 'random'>,
): number {
  const { initialDelayMs, maxDelayMs, maxRetryAfterMs } = policy;
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, maxRetryAfterMs);
  const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (backoff / 2) * clock.random());
}
