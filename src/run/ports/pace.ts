/**
 * How long the run waits between attempts and between checks. For tests, a variable can only
 * shorten them, never lengthen them; nothing else changes (attempts, growth, deadlines):
 * - `DEPLOY_AGENT_RETRY_DELAY_MS`: the back-off before a request's second attempt (1 s,
 *   doubling up to 20 s);
 * - `DEPLOY_AGENT_POLL_INTERVAL_MS`: the longest interval between two checks (2 s);
 * - `DEPLOY_AGENT_HEARTBEAT_MS`: how often the log says a wait sees no change (30 s).
 */
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../service/retry.js';

export interface WaitOptions {
  timeoutMs: number;
  /** Each next interval is `growth` times longer, up to `maxIntervalMs`. */
  initialIntervalMs: number;
  /** At any length of wait, unless the service asks for more. */
  maxIntervalMs: number;
  growth: number;
  /** Failed polls in a row that are tolerated before the wait fails. */
  maxFailedPolls: number;
  /** The longest pause a `Retry-After` (or a run of `429`s) may ask for between two checks. */
  maxSlowdownMs: number;
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

/** A test-only variable's milliseconds, at most `limit`; `limit` when not a positive number. */
export function shortenedMs(text: string | undefined, limit: number): number {
  const wanted = Number(text);
  return Number.isFinite(wanted) && wanted > 0 ? Math.min(wanted, limit) : limit;
}

export function paceFrom(env: Readonly<Record<string, string | undefined>>): Pace {
  const { initialDelayMs, maxDelayMs } = DEFAULT_RETRY_POLICY;
  const retryDelayMs = shortenedMs(env.DEPLOY_AGENT_RETRY_DELAY_MS, initialDelayMs);
  const scale = retryDelayMs / initialDelayMs;
  const pollMs = shortenedMs(env.DEPLOY_AGENT_POLL_INTERVAL_MS, DEFAULT_WAIT.maxIntervalMs);
  return {
    retry: {
      ...DEFAULT_RETRY_POLICY,
      initialDelayMs: retryDelayMs,
      maxDelayMs: maxDelayMs * scale,
    },
    wait: {
      ...DEFAULT_WAIT,
      initialIntervalMs: Math.min(DEFAULT_WAIT.initialIntervalMs, pollMs),
      maxIntervalMs: pollMs,
      heartbeatMs: shortenedMs(env.DEPLOY_AGENT_HEARTBEAT_MS, DEFAULT_WAIT.heartbeatMs),
    },
  };
}
