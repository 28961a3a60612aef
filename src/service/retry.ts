/** The one retry rule of every request. */
import type { Clock } from '../common/runtime.js';

export interface RetryPolicy {
  /** The first one included. */
  attempts: number;
  /** Before the second attempt; doubles with each further one. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A longer `Retry-After` is cut to this. */
  maxRetryAfterMs: number;
  /** Answer body included. */
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
/** The three forms of an HTTP date (RFC 9110, 5.6.7); what `Date.parse` alone takes (`-5`, `2025`) is not one. */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`,
);

/**
 * `Retry-After` in milliseconds (RFC 9110, 10.2.3): whole seconds or a date to come. Anything
 * else (`-5`, `1.5`, a past date) is ignored, so a hostile or stale header never makes the
 * retries come faster than the back-off would.
 */
export function parseRetryAfter(value: string | undefined, wallTime: number): number | undefined {
  const trimmed = value?.trim() ?? '';
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date) || date <= wallTime) return undefined;
  return date - wallTime;
}

/** After failed attempt `attempt` (1-based): `Retry-After` (capped), else backoff with jitter. */
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
