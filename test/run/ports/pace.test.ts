/**
 * The run's pace: the shipped back-off and wait schedule, and the test-only variables that may
 * shorten them (never lengthen them, never change the attempts or the deadlines).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PACE, DEFAULT_WAIT, paceFrom, shortenedMs } from '../../../src/run/ports/pace.ts';
import { DEFAULT_RETRY_POLICY } from '../../../src/service/retry.ts';

describe('the shipped pace', () => {
  it('is what the docs promise: 5 attempts, a first backoff of 1 s doubling up to 20 s, 30 s an attempt; checks 1 s then 2 s apart, a line every 30 s', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      attempts: 5,
      initialDelayMs: 1_000,
      maxDelayMs: 20_000,
      maxRetryAfterMs: 60_000,
      requestTimeoutMs: 30_000,
    });
    expect(DEFAULT_WAIT).toEqual({
      initialIntervalMs: 1_000,
      maxIntervalMs: 2_000,
      growth: 2,
      maxFailedPolls: 5,
      maxSlowdownMs: 60_000,
      heartbeatMs: 30_000,
    });
    expect(DEFAULT_PACE).toEqual({ retry: DEFAULT_RETRY_POLICY, wait: DEFAULT_WAIT });
  });

  it.each([
    ['no variable', {}],
    ['empty ones', { DEPLOY_AGENT_RETRY_DELAY_MS: '', DEPLOY_AGENT_POLL_INTERVAL_MS: ' ' }],
    [
      'longer ones',
      { DEPLOY_AGENT_RETRY_DELAY_MS: '5000', DEPLOY_AGENT_POLL_INTERVAL_MS: '60000' },
    ],
    ['zero', { DEPLOY_AGENT_RETRY_DELAY_MS: '0', DEPLOY_AGENT_POLL_INTERVAL_MS: '0' }],
    ['negative ones', { DEPLOY_AGENT_RETRY_DELAY_MS: '-1', DEPLOY_AGENT_POLL_INTERVAL_MS: '-5' }],
    ['words', { DEPLOY_AGENT_RETRY_DELAY_MS: 'fast', DEPLOY_AGENT_POLL_INTERVAL_MS: 'Infinity' }],
  ])('is the run’s pace with %s', (_what, env) => {
    expect(paceFrom(env)).toEqual(DEFAULT_PACE);
  });
});

describe('a shorter pace for tests', () => {
  it('DEPLOY_AGENT_RETRY_DELAY_MS shortens the backoff in proportion, the attempts and timeouts kept', () => {
    const { retry, wait } = paceFrom({ DEPLOY_AGENT_RETRY_DELAY_MS: '50' });
    expect(retry).toEqual({ ...DEFAULT_RETRY_POLICY, initialDelayMs: 50, maxDelayMs: 1_000 });
    expect(wait).toEqual(DEFAULT_WAIT);
  });

  it('DEPLOY_AGENT_POLL_INTERVAL_MS caps every interval of the wait, its failures and heartbeat kept', () => {
    const { retry, wait } = paceFrom({ DEPLOY_AGENT_POLL_INTERVAL_MS: '100' });
    expect(wait).toEqual({ ...DEFAULT_WAIT, initialIntervalMs: 100, maxIntervalMs: 100 });
    expect(retry).toEqual(DEFAULT_RETRY_POLICY);
  });

  it('a cap between the first and the longest interval shortens only the longest', () => {
    expect(paceFrom({ DEPLOY_AGENT_POLL_INTERVAL_MS: '1500' }).wait).toEqual({
      ...DEFAULT_WAIT,
      maxIntervalMs: 1_500,
    });
  });

  it('DEPLOY_AGENT_HEARTBEAT_MS shortens the line while nothing changes, never past 30 s', () => {
    expect(paceFrom({ DEPLOY_AGENT_HEARTBEAT_MS: '500' }).wait).toEqual({
      ...DEFAULT_WAIT,
      heartbeatMs: 500,
    });
    expect(paceFrom({ DEPLOY_AGENT_HEARTBEAT_MS: '90000' }).wait).toEqual(DEFAULT_WAIT);
  });
});

describe("shortenedMs, shared with the GitHub side's test budget", () => {
  it('takes a positive number under the limit, and the limit for anything else', () => {
    expect(shortenedMs('1500', 15_000)).toBe(1_500);
    expect(shortenedMs('60000', 15_000)).toBe(15_000);
    for (const text of [undefined, '', ' ', '0', '-3', 'NaN', 'Infinity', 'soon']) {
      expect(shortenedMs(text, 15_000)).toBe(15_000);
    }
  });
});
