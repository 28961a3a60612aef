/**
 * The checks of several waits as one request a check, against the emulator
 * over real HTTP, on a clock that every wait shares (time moves only when
 * every wait is asleep or waiting on the service): what each request holds,
 * how many there are in a minute, and that one agent alone asks as a wait
 * alone does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/service/client.ts';
import { Service } from '../../../src/service/endpoints.ts';
import { DeploymentSchema, type Deployment } from '../../../src/service/schemas.ts';
import { DEFAULT_WAIT } from '../../../src/run/ports/pace.ts';
import { logView } from '../../../src/run/ports/events.ts';
import type { RunDependencies } from '../../../src/run/ports/dependencies.ts';
import { StatusChecks } from '../../../src/run/decisions/status-checks.ts';
import { waitUntilLive } from '../../../src/run/decisions/wait.ts';
import type { Goal } from '../../../src/run/decisions/goal.ts';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { FakeClock, MemoryLogger } from '../../support/clock.ts';
import { SharedClock, drive } from '../../support/shared-clock.ts';

const NO_GOAL: Pick<Goal, 'target' | 'seenRevisions'> = { seenRevisions: new Set() };

let emu: Emulator;
let clock: SharedClock;
let logger: MemoryLogger;
let service: Service;
/** Each request the checks sent: when (on the shared clock) and the ids it held. */
let sent: { at: number; ids: string[] }[];
let underWay: number;
let checks: StatusChecks;
let started: number;

beforeEach(async () => {
  emu = await startEmulator();
  clock = new SharedClock();
  logger = new MemoryLogger();
  const client = new ServiceClient({ baseUrl: emu.url, headers: {}, clock, logger });
  service = new Service(client, logger);
  sent = [];
  underWay = 0;
  const tracked: Pick<Service, 'getByIds'> = {
    getByIds: async (ids, timeoutMs) => {
      sent.push({ at: clock.now(), ids: [...ids].sort() });
      underWay += 1;
      try {
        return await service.getByIds(ids, timeoutMs);
      } finally {
        underWay -= 1;
      }
    },
  };
  checks = new StatusChecks({ service: tracked, clock });
  started = clock.now();
});

afterEach(async () => {
  await emu.close();
});

function pending(count: number): Deployment[] {
  return emu
    .seedDeployments(count, (i) => ({ name: `agent-${i}`, status: 'AWAITING_DATABASE' }))
    .map((seeded) => DeploymentSchema.parse(seeded));
}

function dependencies(): RunDependencies {
  return { service, clock, logger, events: logView(logger), statusCheck: checks.check };
}

/** Each agent's wait, started `startsMs[i]` after the test's start; when each ended, and how. */
function waitAll(deployments: Deployment[], timeoutMs: number, startsMs: number[] = []) {
  const ended: number[] = [];
  const waits = deployments.map((deployment, i) =>
    new Promise<void>((resolve) => clock.timer(startsMs[i] ?? 0, resolve)).then(() =>
      waitUntilLive(deployment, NO_GOAL, { ...DEFAULT_WAIT, timeoutMs }, dependencies())
        .then((end) => {
          // A wait that ended without the deployment live is settled as rejected, with why.
          if (end.failure !== undefined) throw new Error(end.failure);
          return end;
        })
        .finally(() => (ended[i] = clock.now() - started)),
    ),
  );
  return { ended, all: drive(clock, Promise.allSettled(waits), () => underWay > 0) };
}

const ids = (deployments: Deployment[]) => deployments.map((deployment) => deployment.id).sort();

describe('StatusChecks', () => {
  it('makes the checks of 5 waiting agents one request a check, holding every id', async () => {
    const agents = pending(5);
    const results = await waitAll(agents, 20_000).all;

    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(sent.length).toBeGreaterThan(5);
    for (const request of sent) expect(request.ids).toEqual(ids(agents));
    expect(sent.map((request) => request.at - started)).toEqual(
      sent.map((_, i) => 1_000 + 2_000 * i),
    );
    const polls = emu.requests.filter((request) => request.query.deployment_ids !== undefined);
    expect(polls).toHaveLength(sent.length);
    expect(polls[0]?.query.limit).toBe('100');
    expect(polls[0]?.query.deployment_ids?.split(',').sort()).toEqual(ids(agents));
  });

  it('keeps at most 30 requests in any minute, however the agents start', async () => {
    const agents = pending(5);
    await waitAll(agents, 100_000, [0, 300, 700, 1_100, 1_500]).all;

    for (const request of sent) {
      const inAMinute = sent.filter(
        (other) => other.at >= request.at && other.at < request.at + 60_000,
      );
      expect(inAMinute.length).toBeLessThanOrEqual(30);
    }
    for (let i = 1; i < sent.length; i++) {
      expect(sent[i]!.at - sent[i - 1]!.at).toBeGreaterThanOrEqual(2_000);
    }
    // Once every agent has asked, every request holds them all.
    for (const request of sent.slice(2)) expect(request.ids).toEqual(ids(agents));
  });

  it('sees an agent that goes live in the next request', async () => {
    const agents = pending(3);
    clock.timer(10_500, () => {
      emu.deployments.find((stored) => stored.id === agents[1]!.id)!.status = 'READY';
    });
    const { ended, all } = waitAll(agents, 20_000, [0, 400, 800]);
    const results = await all;

    expect(results[1]?.status).toBe('fulfilled');
    const next = sent.find((request) => request.at - started >= 10_500);
    expect(ended[1]).toBe(next!.at - started);
  });

  it('slows every waiter down on a 429', async () => {
    const agents = pending(4);
    clock.timer(4_000, () =>
      emu.inject({ path: '/v2/deployments', status: 429, headers: { 'retry-after': '10' } }),
    );
    await waitAll(agents, 30_000).all;

    const refusedAt = sent.findIndex((request) => request.at - started > 4_000);
    const gap = sent[refusedAt + 1]!.at - sent[refusedAt]!.at;
    expect(gap).toBeGreaterThanOrEqual(10_000);
    const slowed = logger.lines.filter((line) => line.includes('asked to slow down (429)'));
    expect(slowed).toHaveLength(4);
  });

  it("ends every agent's wait at its own deadline, however long the pause the service asks", async () => {
    const agents = pending(3);
    emu.inject({
      path: '/v2/deployments',
      status: 429,
      headers: { 'retry-after': '120' },
      times: Infinity,
    });
    const { ended, all } = waitAll(agents, 8_000, [0, 1_500, 4_100]);
    const results = await all;

    expect(ended).toEqual([8_000, 9_500, 12_100]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const error = (result as PromiseRejectedResult).reason as Error;
      expect(error.message).toMatch(
        /is not live after 8.0 s .*the service asked to pause 60.0 s between checks/,
      );
    }
    expect(sent).toHaveLength(1);
  });

  it('ends a wait whose check the pace would send past its deadline', async () => {
    const agents = pending(2);
    // The second agent asks 500 ms before its deadline, 100 ms after the first agent's check.
    const { ended, all } = waitAll(agents, 20_000, [0, 100]);
    await all;

    expect(ended[0]).toBe(20_000);
    expect(ended[1]).toBeLessThanOrEqual(20_100);
  });

  it('makes one agent ask what a wait alone asks, at the same pace', async () => {
    emu.setOptions({ readyAfterPolls: 4 });
    const [agent] = pending(1);
    const results = await waitAll([agent!], 60_000).all;
    expect(results[0]?.status).toBe('fulfilled');
    const together = emu.requests.map((request) => request.query.deployment_ids);

    const alone = await startEmulator({ readyAfterPolls: 4 });
    try {
      const fake = new FakeClock();
      const client = new ServiceClient({ baseUrl: alone.url, headers: {}, clock: fake, logger });
      const own = DeploymentSchema.parse(
        alone.seedDeployment({ name: 'agent-0', status: 'AWAITING_DATABASE' }),
      );
      const plain: RunDependencies = { service: new Service(client, logger), clock: fake, logger };
      await waitUntilLive(own, NO_GOAL, { ...DEFAULT_WAIT, timeoutMs: 60_000 }, plain);
      expect(fake.sleeps).toEqual([1_000, 2_000, 2_000, 2_000, 2_000]);
      expect(alone.requests.map((request) => request.query.deployment_ids)).toEqual(
        together.map(() => own.id),
      );
    } finally {
      await alone.close();
    }
    expect(together).toEqual([agent!.id, agent!.id, agent!.id, agent!.id, agent!.id]);
    expect(sent.map((request) => request.at - started)).toEqual([
      1_000, 3_000, 5_000, 7_000, 9_000,
    ]);
  });
});
