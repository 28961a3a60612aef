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

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/**
 * The three forms of an HTTP date (RFC 9110, 5.6.7): IMF-fixdate, the
 * obsolete RFC 850 form and asctime. Only these are read as a date: what
 * `Date.parse` alone takes (`-5`, `2025`, `soon 1`) is not one.
 */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/**
 * `Retry-After` in milliseconds, or undefined when it says nothing usable
 * (RFC 9110, 10.2.3): a whole number of seconds (`0` included), or an HTTP
 * date still to come. Anything else (`-5`, `1.5`, `soon`) and a date already
 * past are ignored, so the caller's back-off applies: a hostile or stale
 * header never makes the retries come faster than the back-off would.
 */
export function parseRetryAfter(value: string | undefined, wallTime: number): number | undefined {
  const trimmed = value?.trim() ?? '';
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || date <= wallTime) return undefined;
  return date - wallTime;
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
