/**
 * End-to-end, live means answering (ACTION-CONTRACT.md behaviour 31): the bundle
 * (dist/index.js) as the runner starts it, against an emulator that serves each
 * deployment's address (`addresses: true`). The step waits until the address answers
 * as asked, and says what it answered; it fails when it never does, and never prints a
 * header value.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { API_KEY, existing, healthStep, startHealthEmulator } from '../support/health-world.ts';
import { printed } from '../support/run-action.ts';
import { expectNoSecret } from '../support/no-secret.ts';

const AGENT_KEY = 'agent-server-key-9876543210';

let emu: Emulator;

beforeEach(async () => {
  emu = await startHealthEmulator();
});

afterEach(async () => {
  await emu.close();
});

/** The deploy step of `my-agent`, waiting, checking `/ok`; `env` over the quick pace. */
const step = (extra: Record<string, string> = {}, env: Record<string, string> = {}) =>
  healthStep(emu, extra, { env });

const answered = () => emu.addressRequests.map((request) => request.status);
const address = () => emu.addressOf('my-agent');

describe('waiting until the address answers', () => {
  it('waits through a slow start: the 503s, then the 200, and healthy', async () => {
    emu.setOptions({ addressBehaviour: { slowStartRequests: 2 } });

    const run = await step();

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ live: 'true', healthy: 'true', 'health-status': '200' });
    expect(answered()).toEqual([503, 503, 200]);
    const lines = printed(run).split('\n');
    const starting = lines.indexOf(
      `health check ${address()}/ok: 503 Service Unavailable; the answer begins: {"detail":"the agent is starting"}`,
    );
    const answers = lines.indexOf(`health check ${address()}/ok: answers 200`);
    expect(starting).toBeGreaterThan(-1);
    expect(answers).toBeGreaterThan(starting);
    expect(lines.indexOf(`'my-agent' is live`)).toBeGreaterThan(answers);
    expectNoSecret([API_KEY, AGENT_KEY], run);
  });

  it('waits through a start that takes time', async () => {
    emu.setOptions({ addressBehaviour: { slowStartMs: 1_000 } });

    const run = await step();

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
    expect(answered()[0]).toBe(503);
    expect(answered().at(-1)).toBe(200);
    expect(printed(run)).toMatch(/health check: 503 Service Unavailable from /);
  });

  it('says the answer at its change, then again each heartbeat while it fails', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { slowStartMs: 600_000 });

    // Long enough for several heartbeats however busy the machine: judged by the lines, not the time.
    const run = await step({ 'wait-timeout': '4' }, { DEPLOY_AGENT_HEARTBEAT_MS: '300' });

    expect(run.exitCode).toBe(1);
    const said = `health check ${address()}/ok: 503 Service Unavailable; the answer begins: {"detail":"the agent is starting"}`;
    const lines = printed(run).split('\n');
    expect(lines.filter((line) => line === said)).toHaveLength(1);
    const again = lines.filter((line) => line.startsWith(`${said} (so for `));
    expect(again.length).toBeGreaterThanOrEqual(2);
    // Fewer than the checks: once a heartbeat, not once a check.
    expect(again.length).toBeLessThan(emu.addressRequests.length - 1);
  });

  it('sends the headers asked for, never the service key, and prints neither', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } });

    const run = await step({ 'health-check-headers': `X-Agent-Key: ${AGENT_KEY}` });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
    expect(emu.addressRequests.length).toBeGreaterThan(0);
    for (const request of emu.addressRequests) {
      expect(request.headers['x-agent-key']).toBe(AGENT_KEY);
      expect(Object.values(request.headers)).not.toContain(API_KEY);
    }
    expectNoSecret([API_KEY, AGENT_KEY], run);
  });

  it('gives up after three refusals in a row, naming health-check-headers', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } });

    const run = await step({ 'wait-timeout': '60' });

    expect(run.exitCode).toBe(1);
    expect(answered()).toEqual([401, 401, 401]);
    expect(run.error).toContain(`${address()}/ok answered 401 3 times in a row`);
    expect(run.error).toContain('health-check-headers');
    expect(run.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '401' });
    // Before the wait's end (60 s, past the bundle's bound): a wrong key does not heal.
    expect(run.signal).toBeNull();
    expect(run.error).not.toContain('is not live after');
    expect(Object.values(emu.addressRequests[0]?.headers ?? {})).not.toContain(API_KEY);
    expectNoSecret([API_KEY, AGENT_KEY], run);
  });

  it('bounds each attempt at an address that never answers, and times out', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { hang: true });

    const run = await step({ 'wait-timeout': '3' });

    expect(run.signal).toBeNull();
    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/^Deployment 'my-agent' \(.*\) is not live after 3\.0 s/);
    expect(run.error).toContain('health check: no answer within ');
    expect(run.error).toContain(` s from ${address()}/ok`);
    expect(run.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '' });
    // Each bound said as a duration a reader takes in at a glance.
    expect(printed(run)).toMatch(/ok: no answer within \d+(\.\d)? s\n/);
    expect(printed(run)).not.toMatch(/within \d+\.\d{2,} s/);
    // Each attempt ended unanswered and another began: an unbounded one would be the only one.
    expect(emu.addressRequests.length).toBeGreaterThanOrEqual(2);
    expect(emu.addressRequests.every((request) => request.subpath === '/ok')).toBe(true);
  });
});

describe('what counts as an answer', () => {
  it('follows a redirect within the address origin', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { redirect: '/ready' });

    const run = await step();

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
    expect(emu.addressRequests.map((request) => [request.subpath, request.status])).toEqual([
      ['/ok', 302],
      ['/ready', 200],
    ]);
  });

  it('does not follow a redirect to another origin, and says so', async () => {
    existing(emu);
    const other = emu.addressOf('my-agent', { otherOrigin: true });
    emu.scriptAddress('my-agent', [{ redirect: `${other}/ok`, times: Infinity }]);

    const run = await step({ 'wait-timeout': '5' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(`302 redirect to another origin (${other}/ok): not followed`);
    expect(run.outputs).toMatchObject({ healthy: 'false', 'health-status': '302' });
    expect(emu.addressRequests.filter((request) => request.origin === 'other')).toEqual([]);
  });

  it('passes when the answer holds the expected text', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { okBody: '{"ok":true,"version":"1.2.0"}' });

    const run = await step({ 'health-check-expect': '"version":"1.2.0"' });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
  });

  it('keeps waiting while the answer does not hold it, then fails saying so', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { okBody: '{"ok":true,"version":"1.1.9"}' });

    const run = await step({ 'health-check-expect': '"version":"1.2.0"', 'wait-timeout': '5' });

    expect(run.exitCode).toBe(1);
    expect(emu.addressRequests.length).toBeGreaterThan(1);
    expect(run.error).toContain('200 answer does not hold the expected text');
    expect(run.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '200' });
    expect(printed(run)).toContain('the answer begins: {"ok":true,"version":"1.1.9"}');
  });

  it('looks for the expected text in the first 64 KiB only, and shows 200 characters of it', async () => {
    existing(emu);
    const padding = 'x'.repeat(70 * 1024);
    emu.serveAddress('my-agent', { okBody: `{"pad":"${padding}","version":"1.2.0"}` });

    const run = await step({ 'health-check-expect': '"version":"1.2.0"', 'wait-timeout': '4' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain('200 answer does not hold the expected text (in its first 64 KiB)');
    const begins = printed(run)
      .split('\n')
      .find((line) => line.includes('; the answer begins: '));
    expect(begins?.split('; the answer begins: ')[1]).toBe(`{"pad":"${padding}`.slice(0, 200));
  });
});

describe('refusals', () => {
  it('gives up after three 403 answers in a row too', async () => {
    existing(emu);
    emu.scriptAddress('my-agent', [{ status: 403, times: Infinity }]);

    const run = await step({ 'wait-timeout': '60' });

    expect(run.exitCode).toBe(1);
    expect(answered()).toEqual([403, 403, 403]);
    expect(run.error).toContain(`${address()}/ok answered 403 3 times in a row`);
  });

  it('counts refusals in a row only: another answer between them starts again', async () => {
    existing(emu);
    emu.scriptAddress('my-agent', [
      { status: 401, times: 2 },
      { status: 503 },
      { status: 401, times: 2 },
    ]);

    const run = await step({ 'wait-timeout': '60' });

    expect(run.exitCode).toBe(0);
    expect(answered()).toEqual([401, 401, 503, 401, 401, 200]);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
  });
});
