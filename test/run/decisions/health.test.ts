/**
 * The health check as a condition of live (src/run/decisions/health.ts, through
 * `decideLive`), over real HTTP to the emulator's addresses with a fake clock: checked
 * only once the deployment is otherwise live, at most once an interval, a change said at
 * once and a failure again every heartbeat, three refusals final, no `custom_url` final.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideLive, ONLY_LIVE } from '../../../src/run/decisions/goal.ts';
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

function probe(request: HealthRequest = PATH_CHECK, budgetMs = 60_000, extra = {}) {
  return new HealthProbe(
    request,
    {
      clock,
      logger,
      events: (event) => events.push(event),
      heartbeatMs: 30_000,
      spacingMs: 2_000,
      headersWords: 'health-check-headers',
      ...extra,
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
    expect(verdict).toEqual({ live: false, missing: 'status is BUILDING, not READY' });
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
      /\/agent\/ok does not answer as asked \(503 Service Unavailable\)/,
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

  it('checks one address at most once an interval: within it, the last answer stands', async () => {
    const deployment = seeded();
    const goal = { ...ONLY_LIVE, health: probe() };
    emu.scriptAddress('agent', [{ status: 503, times: Infinity }]);
    await decideLive(deployment, goal);
    clock.advance(1_999);
    await decideLive(deployment, goal);
    expect(emu.addressRequests).toHaveLength(1);
    clock.advance(1);
    await decideLive(deployment, goal);
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
    const check = (_address: string, options: CheckOptions = {}) => {
      bounds.push(options.timeoutMs ?? -1);
      return Promise.resolve({ ok: false, status: 503, error: '503 Service Unavailable' });
    };
    const deployment = seeded();
    const judge = probe(PATH_CHECK, 45_000, { check });
    await judge.judge(deployment, LIVE);
    clock.advance(30_000);
    await judge.judge(deployment, LIVE);
    clock.advance(20_000);
    await judge.judge(deployment, LIVE);
    expect(bounds).toEqual([30_000, 15_000, 1_000]);
  });
});
