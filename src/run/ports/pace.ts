/**
 * How long the run waits between attempts and between checks: the shipped
 * defaults (`DEFAULT_RETRY_POLICY`, `DEFAULT_WAIT`), or shorter for tests of
 * retries and waits only. Like the GitHub side's test budget, a variable can
 * only shorten them, never lengthen them, and nothing else changes: the same
 * attempts, the same growth, the same deadlines.
 *
 * - `DEPLOY_AGENT_RETRY_DELAY_MS`: the back-off before a request's second
 *   attempt (default 1 s; it doubles for each further attempt, up to 20 s).
 * - `DEPLOY_AGENT_POLL_INTERVAL_MS`: the longest interval between two checks
 *   of a wait (default: the schedule of `DEFAULT_WAIT`, 1 s then 2 s).
 * - `DEPLOY_AGENT_HEARTBEAT_MS`: while a wait sees no change, how often the
 *   log still says so (default 30 s).
 */
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../service/retry.js';

export interface WaitOptions {
  timeoutMs: number;
  /** The first interval; each next one is `growth` times longer, up to `maxIntervalMs`. */
  initialIntervalMs: number;
  /** The longest interval between two checks, at any length of wait (unless the service asks for more). */
  maxIntervalMs: number;
  growth: number;
  /** Failed polls in a row that are tolerated before the wait fails. */
  maxFailedPolls: number;
  /** The longest pause a `Retry-After` (or a run of `429`s) may ask for between two checks. */
  maxSlowdownMs: number;
  /** While nothing changes, a log line at least this often. */
  heartbeatMs: number;
}

export const DEFAULT_WAIT: Omit<WaitOptions, 'timeoutMs'> = {
  initialIntervalMs: 1_000,
  maxIntervalMs: 2_000,
  growth: 2,
  maxFailedPolls: 5,
  maxSlowdownMs: 60_000,
  heartbeatMs: 30_000,
};

export interface Pace {
  retry: RetryPolicy;
  wait: Omit<WaitOptions, 'timeoutMs'>;
}

export const DEFAULT_PACE: Pace = { retry: DEFAULT_RETRY_POLICY, wait: DEFAULT_WAIT };

/**
 * The milliseconds a test-only variable asks for, never more than `limit`:
 * `limit` itself when the text is not a positive number (unset, empty, a word).
 */
export function shortenedMs(text: string | undefined, limit: number): number {
  const wanted = Number(text);
  return Number.isFinite(wanted) && wanted > 0 ? Math.min(wanted, limit) : limit;
}

/** The pace an environment (the process's, as the adapter hands it over) asks for. */
export function paceFrom(env: Readonly<Record<string, string | undefined>>): Pace {
  const retryDelayMs = shortenedMs(
    env.DEPLOY_AGENT_RETRY_DELAY_MS,
    DEFAULT_RETRY_POLICY.initialDelayMs,
  );
  const scale = retryDelayMs / DEFAULT_RETRY_POLICY.initialDelayMs;
  const pollMs = shortenedMs(env.DEPLOY_AGENT_POLL_INTERVAL_MS, DEFAULT_WAIT.maxIntervalMs);
  return {
    retry: {
      ...DEFAULT_RETRY_POLICY,
      initialDelayMs: retryDelayMs,
      maxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs * scale,
    },
    wait: {
      ...DEFAULT_WAIT,
      initialIntervalMs: Math.min(DEFAULT_WAIT.initialIntervalMs, pollMs),
      maxIntervalMs: pollMs,
      heartbeatMs: shortenedMs(env.DEPLOY_AGENT_HEARTBEAT_MS, DEFAULT_WAIT.heartbeatMs),
    },
  };
}
