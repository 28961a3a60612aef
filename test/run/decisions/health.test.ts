/**
 * The health check as a condition of live (src/run/decisions/health.ts, through
 * `decideLive`), over real HTTP to the emulator's addresses with a fake clock: checked
 * only once the deployment is otherwise live, every tick of the wait (none skipped for
 * coming a few milliseconds early) and at most 30 a minute, one check a tick for the
 * agents that share an address (address-pace.ts), a change said at once and a failure
 * again every heartbeat, three refusals final, no `custom_url` final.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideLive, ONLY_LIVE } from '../../../src/run/decisions/goal.ts';
import { AddressChecks } from '../../../src/run/decisions/address-pace.ts';
import { HealthProbe, NO_URL } from '../../../src/run/decisions/health.ts';
import type { HealthRequest } from '../../../src/inputs/deploy-spec.ts';
import type { CheckOptions } from '../../../src/service/address-check.ts';
import type { RunEvent } from '../../../src/run/ports/events.ts';
import { DeploymentSchema, type Deployment } from '../../../src/service/schemas.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { FakeClock, MemoryLogger } from '../../support/clock.ts';

const PATH_CHECK: HealthRequest = { check: { kind: 'path', path: '/ok' }, headers: {} };
const LIVE = { live: true } as const;

let emu: Emulator;
let clock: FakeClock;
/** The fake clock's time at the start of each test. */
const START = new FakeClock().now();
let logger: MemoryLogger;
let events: RunEvent[];

beforeEach(async () => {
  emu = await startEmulator({ addresses: true });
  clock = new FakeClock();
  logger = new MemoryLogger();
  events = [];
});

afterEach(async () => {
  await emu.close();
});

function probe(
  request: HealthRequest = PATH_CHECK,
  budgetMs = 60_000,
  addresses = new AddressChecks({ clock }).answer,
) {
  return new HealthProbe(
    request,
    {
      clock,
      logger,
      events: (event) => events.push(event),
      heartbeatMs: 30_000,
      addresses,
      headersWords: 'health-check-headers',
    },
    budgetMs,
  );
}

function seeded(name = 'agent'): Deployment {
  return DeploymentSchema.parse(emu.seedDeployment({ name }));
}

const healthLines = () => logger.lines.filter((line) => line.includes('health check'));

describe('decideLive with a health check', () => {
  it('checks nothing while the deployment is not otherwise live', async () => {
    const deployment: Deployment = { ...seeded(), status: 'BUILDING' };
    const verdict = await decideLive(deployment, { ...ONLY_LIVE, health: probe() });
    expect(verdict).toEqual({
      live: false,
      missing: 'status is BUILDING, not READY',
      briefly: 'BUILDING',
    });
    expect(emu.addressRequests).toHaveLength(0);
  });

  it('is live once the address answers 2xx, and says the answer with what it checked', async () => {
    const deployment = seeded();
    emu.scriptAddress('agent', [{ status: 503, body: 'warming up' }]);
    const goal = { ...ONLY_LIVE, health: probe() };
    const first = await decideLive(deployment, goal);
    expect(first).toMatchObject({
      live: false,
      health: { ok: false, status: 503, excerpt: 'warming up' },
    });
    expect(!first.live && first.missing).toMatch(
      /health check: 503 Service Unavailable from \S*\/agent\/ok/,
    );
    clock.advance(2_000);
    const second = await decideLive(deployment, goal);
    expect(second).toEqual({
      live: true,
      health: {
        address: `${String(deployment.source_config.custom_url)}/ok`,
        ok: true,
        status: 200,
      },
    });
    expect(healthLines()).toEqual([
      expect.stringMatching(
        /^info: health check http:\/\/127\.0\.0\.1:\d+\/agent\/ok: 503 Service Unavailable; the answer begins: warming up$/,
      ),
      expect.stringMatching(
        /^info: health check http:\/\/127\.0\.0\.1:\d+\/agent\/ok: answers 200$/,
      ),
    ]);
    expect(events.map((event) => event.kind === 'health' && [event.httpStatus, event.ok])).toEqual([
      [503, false],
      [200, true],
    ]);
  });

  it('checks every tick of the wait, a tick a few milliseconds early included', async () => {
    const deployment = seeded();
    const goal = { ...ONLY_LIVE, health: probe(PATH_CHECK, 120_000) };
    emu.scriptAddress('agent', [{ status: 503, times: Infinity }]);
    // The wait's ticks (1 s, then every 2 s), each health check starting after the
    // status check's answer: a few milliseconds late or early.
    const ticks = [0, 1_000, 3_004, 4_997, 6_999, 9_003, 10_998];
    while (ticks.length < 30) ticks.push(ticks.at(-1)! + 2_000 - (ticks.length % 4));
    for (const at of ticks) {
      clock.advance(at - (clock.now() - START));
      await decideLive(deployment, goal);
    }
    expect(emu.addressRequests).toHaveLength(30);
  });

  it('takes the last answer within the same tick', async () => {
    const deployment = seeded();
    const goal = { ...ONLY_LIVE, health: probe() };
    emu.scriptAddress('agent', [{ status: 503, times: Infinity }]);
    await decideLive(deployment, goal);
    clock.advance(300);
    await decideLive(deployment, goal);
    expect(emu.addressRequests).toHaveLength(1);
  });

  it('checks one address at most 30 times a minute, however often it is asked', async () => {
    const deployment = seeded();
    const shared = new AddressChecks({ clock }).answer;
    // Two agents on ticks a second apart: a check asked every second.
    const goals = [probe(PATH_CHECK, 300_000, shared), probe(PATH_CHECK, 300_000, shared)];
    emu.scriptAddress('agent', [{ status: 503, times: Infinity }]);
    const startedAt: number[] = [];
    for (let second = 0; second < 150; second++) {
      const before = emu.addressRequests.length;
      await goals[second % 2]!.judge(deployment, LIVE);
      if (emu.addressRequests.length > before) startedAt.push(second * 1_000);
      clock.advance(1_000);
    }
    const mostInAMinute = Math.max(
      ...startedAt.map(
        (at) => startedAt.filter((other) => other >= at && other < at + 60_000).length,
      ),
    );
    expect(mostInAMinute).toBe(30);
    // Not stopped: the address is checked on, at 30 a minute.
    expect(startedAt.filter((at) => at >= 90_000)).toHaveLength(30);
  });

  it('gives the agents of one address one check a tick, each judging it by its own text', async () => {
    const deployment = seeded();
    const shared = new AddressChecks({ clock }).answer;
    emu.scriptAddress('agent', [{ status: 200, body: 'ready: yes', times: Infinity }]);
    const agents = [
      probe({ ...PATH_CHECK, expect: 'ready' }, 60_000, shared),
      probe({ ...PATH_CHECK, expect: 'nope' }, 60_000, shared),
      probe(PATH_CHECK, 60_000, shared),
    ];
    const verdicts = await Promise.all(agents.map((agent) => agent.judge(deployment, LIVE)));
    expect(emu.addressRequests).toHaveLength(1);
    expect(verdicts.map((verdict) => verdict.live)).toEqual([true, false, true]);
    expect(verdicts[1]?.health?.error).toMatch(/does not hold the expected text/);
    clock.advance(1_000);
    await Promise.all(agents.map((agent) => agent.judge(deployment, LIVE)));
    expect(emu.addressRequests).toHaveLength(2);
  });

  it('says a failure that does not change again only every heartbeat', async () => {
    const deployment = seeded();
    const judge = probe();
    emu.scriptAddress('agent', [{ status: 503, times: Infinity }]);
    for (let second = 0; second <= 40; second += 2) {
      await judge.judge(deployment, LIVE);
      clock.advance(2_000);
    }
    expect(healthLines()).toEqual([
      expect.stringMatching(/: 503 Service Unavailable; the answer begins/),
      expect.stringMatching(/: 503 Service Unavailable; the answer begins.* \(so for 30\.0 s\)$/),
    ]);
    expect(events).toHaveLength(1);
  });

  it('ends at the third 401 or 403 in a row, naming how the headers are given', async () => {
    const deployment = seeded();
    const judge = probe();
    emu.scriptAddress('agent', [
      { status: 401 },
      { status: 200 },
      { status: 401 },
      { status: 403 },
      { status: 401 },
    ]);
    const verdicts = [];
    for (let check = 0; check < 5; check++) {
      verdicts.push(await judge.judge(deployment, LIVE));
      clock.advance(2_000);
    }
    expect(verdicts.map((verdict) => !verdict.live && verdict.final === true)).toEqual([
      false,
      false,
      false,
      false,
      true,
    ]);
    const last = verdicts[4];
    expect(last?.live === false && last.missing).toMatch(
      /answered 401 3 times in a row: it refuses the check's credentials.*health-check-headers/,
    );
  });

  it('can never pass a check that needs a url on a deployment with none', async () => {
    const served = seeded('bare');
    const deployment = { ...served, source_config: { ...served.source_config, custom_url: null } };
    const verdict = await probe().judge(deployment, LIVE);
    expect(verdict).toEqual({
      live: false,
      final: true,
      missing: NO_URL,
      health: { ok: false, error: NO_URL },
    });
    expect(emu.addressRequests).toHaveLength(0);
  });

  it('ends at once on an address the check never asks, which waiting does not change', async () => {
    const served = seeded('metadata');
    const deployment = {
      ...served,
      source_config: { ...served.source_config, custom_url: 'https://169.254.169.254/latest' },
    };
    const verdict = await probe().judge(deployment, LIVE);
    expect(verdict).toMatchObject({
      live: false,
      final: true,
      health: { ok: false, refused: true },
    });
    expect(!verdict.live && verdict.missing).toMatch(
      /^https:\/\/169\.254\.169\.254\/latest\/ok is a link-local or metadata address .*: not checked$/,
    );
    expect(emu.addressRequests).toHaveLength(0);
  });

  it('says an attempt cut short by the end of the wait in whole seconds', async () => {
    const deployment = seeded();
    emu.scriptAddress('agent', [{ hang: true }]);
    // What is left of the wait: not a whole number of seconds.
    const verdict = await probe(PATH_CHECK, 1_488).judge(deployment, LIVE);
    expect(verdict.health?.error).toBe('no answer within 1 s');
    expect(healthLines()).toEqual([expect.stringMatching(/: no answer within 1 s$/)]);
    expect(events).toEqual([
      expect.objectContaining({ kind: 'health', error: 'no answer within 1 s' }),
    ]);
  });

  it('bounds each attempt by 30 s, and by what is left of its budget', async () => {
    const bounds: number[] = [];
    const ask = (_address: string, options: CheckOptions = {}) => {
      bounds.push(options.timeoutMs ?? -1);
      return Promise.resolve(() => ({ ok: false, status: 503, error: '503 Service Unavailable' }));
    };
    const deployment = seeded();
    const judge = probe(PATH_CHECK, 45_000, new AddressChecks({ clock, ask }).answer);
    await judge.judge(deployment, LIVE);
    clock.advance(30_000);
    await judge.judge(deployment, LIVE);
    clock.advance(20_000);
    await judge.judge(deployment, LIVE);
    expect(bounds).toEqual([30_000, 15_000, 1_000]);
  });
});
