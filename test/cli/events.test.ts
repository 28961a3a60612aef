/**
 * The `--events` view alone: the core's events and the log's warnings as
 * NDJSON lines, heartbeats on its own timer while a wait sees no change,
 * redaction where a line is made, and one result, always the last.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventStream, heartbeatMsFrom, HEARTBEAT_MS } from '../../src/cli/events.ts';

let lines: Record<string, unknown>[];
let stream: EventStream;

beforeEach(() => {
  vi.useFakeTimers();
  lines = [];
  stream = new EventStream({
    write: (text) => lines.push(JSON.parse(text) as Record<string, unknown>),
    redact: (text) => text.replaceAll('hunter2', '***'),
    heartbeatMs: 1_000,
    wallTime: () => Date.UTC(2026, 0, 2, 3, 4, 5),
  });
});
afterEach(() => {
  vi.useRealTimers();
});

const WAITING = {
  kind: 'status_change',
  status: 'DEPLOYING',
  latestRevisionId: 'r1',
  activeRevisionId: null,
  waitingFor: 'status is DEPLOYING, not READY',
} as const;

describe('EventStream', () => {
  it('writes the core events with the vendor names, and heartbeats only while a wait sees no change', () => {
    stream.sink({
      kind: 'phase',
      phase: 'find',
      message: "Looking for deployment 'a'",
      grouped: true,
    });
    vi.advanceTimersByTime(5_000);
    stream.sink({
      kind: 'phase',
      phase: 'wait',
      message: "Waiting until 'a' is live",
      grouped: true,
    });
    stream.sink(WAITING);
    vi.advanceTimersByTime(2_500);
    stream.sink({ ...WAITING, status: 'READY', waitingFor: '' });
    stream.sink({ kind: 'wait_over', outcome: 'live' });
    vi.advanceTimersByTime(5_000);

    expect(lines.map((line) => line.event)).toEqual([
      'step',
      'step',
      'status_change',
      'heartbeat',
      'heartbeat',
      'status_change',
    ]);
    expect(lines[0]).toEqual({
      event: 'step',
      time: '2026-01-02T03:04:05.000Z',
      step: 'find',
      message: "Looking for deployment 'a'",
    });
    expect(lines[2]).toEqual({
      event: 'status_change',
      time: '2026-01-02T03:04:05.000Z',
      status: 'DEPLOYING',
      latest_revision_id: 'r1',
      active_revision_id: null,
      waiting_for: 'status is DEPLOYING, not READY',
    });
    expect(lines[3]).toMatchObject({
      elapsed_s: expect.any(Number) as number,
      waiting_for: 'status is DEPLOYING, not READY',
    });
  });

  it('redacts free text, and writes one result, the last line, whatever comes after', () => {
    stream.warn('retrying with hunter2');
    stream.sink({ kind: 'phase', phase: 'wait', message: 'wait', grouped: true });
    stream.sink({ kind: 'wait_over', outcome: 'timed_out' });
    stream.result({
      exitCode: 1,
      outputs: { 'deployment-id': 'd1', url: '', status: 'DEPLOYING', error: 'e' },
      error: 'not live: hunter2',
    });
    stream.warn('later');
    stream.result({ exitCode: 0, outputs: {} });
    vi.advanceTimersByTime(5_000);

    expect(lines.map((line) => line.event)).toEqual(['warn', 'step', 'result']);
    expect(lines[0]?.message).toBe('retrying with ***');
    expect(lines.at(-1)).toEqual({
      event: 'result',
      time: '2026-01-02T03:04:05.000Z',
      status: 'timed_out',
      exit_code: 1,
      deployment_id: 'd1',
      outputs: { 'deployment-id': 'd1', url: '', status: 'DEPLOYING', error: 'e' },
      error: 'not live: ***',
    });
  });

  it('says failed for an interrupt, even after a timeout was seen', () => {
    stream.sink({ kind: 'wait_over', outcome: 'timed_out' });
    stream.result({ exitCode: 130, outputs: {} });
    expect(lines.at(-1)).toMatchObject({ status: 'failed', exit_code: 130 });
  });

  it('beats every 10 s at most; the test variable can only shorten it', () => {
    expect(heartbeatMsFrom({})).toBe(HEARTBEAT_MS);
    expect(HEARTBEAT_MS).toBe(10_000);
    expect(heartbeatMsFrom({ DEPLOY_AGENT_HEARTBEAT_MS: '200' })).toBe(200);
    expect(heartbeatMsFrom({ DEPLOY_AGENT_HEARTBEAT_MS: '60000' })).toBe(10_000);
  });

  it("tags an agent's lines with its key, and beats for each agent that waits, on its own", () => {
    const wait = (agent: string) =>
      stream.sink({ kind: 'phase', phase: 'wait', message: `wait ${agent}`, grouped: true, agent });
    wait('support');
    vi.advanceTimersByTime(600);
    wait('research');
    stream.sink({ ...WAITING, agent: 'research' });
    vi.advanceTimersByTime(500);
    // support's first beat (at 1 s); research's is not due (its change came 0.5 s ago).
    stream.sink({ kind: 'wait_over', outcome: 'live', agent: 'support' });
    stream.sink({ kind: 'log', level: 'warning', message: 'drift', agent: 'support' });
    vi.advanceTimersByTime(600);
    stream.sink({ kind: 'wait_over', outcome: 'timed_out', agent: 'research' });
    vi.advanceTimersByTime(5_000);

    expect(lines.map((line) => [line.event, line.agent])).toEqual([
      ['step', 'support'],
      ['step', 'research'],
      ['status_change', 'research'],
      ['heartbeat', 'support'],
      ['warn', 'support'],
      ['heartbeat', 'research'],
    ]);
    expect(lines[5]?.waiting_for).toBe('status is DEPLOYING, not READY');
  });

  it('says timed_out for several agents only when each failed agent ran out of time', () => {
    stream.sink({ kind: 'wait_over', outcome: 'timed_out', agent: 'research' });
    const deployments = { support: {}, research: { error: 'not live in time' } };
    stream.result({ exitCode: 1, outputs: { deployments, live: false } });
    expect(lines.at(-1)).toMatchObject({ status: 'timed_out', outputs: { deployments } });
    expect(lines.at(-1)).not.toHaveProperty('deployment_id');

    const other = new EventStream({
      write: (text) => lines.push(JSON.parse(text) as Record<string, unknown>),
      redact: String,
      heartbeatMs: 1_000,
    });
    other.sink({ kind: 'wait_over', outcome: 'timed_out', agent: 'research' });
    const both = { support: { error: 'exists with another source' }, research: { error: 'late' } };
    other.result({ exitCode: 1, outputs: { deployments: both, live: false } });
    expect(lines.at(-1)).toMatchObject({ status: 'failed' });
  });
});
