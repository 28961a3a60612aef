/**
 * Waiting for READY, in-process against the emulator with a fake clock:
 * the intervals, the deadline and the error budget, in no real time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient, ServiceError } from '../src/client.ts';
import { CancelledError } from '../src/errors.ts';
import type { Deployment } from '../src/schemas.ts';
import { DeploymentSchema } from '../src/schemas.ts';
import {
  DEFAULT_WAIT,
  WaitError,
  classifyStatus,
  waitForReady,
  type WaitOptions,
} from '../src/wait.ts';
import type { Emulator } from './emulator.ts';
import type { FakeClock, MemoryLogger } from './support/clock.ts';
import { startFlow } from './support/flow.ts';

let emu: Emulator;
let clock: FakeClock;
let logger: MemoryLogger;
let client: ServiceClient;

beforeEach(async () => {
  ({ emu, clock, logger, client } = await startFlow());
});

afterEach(async () => {
  await emu.close();
});

function pending(): Deployment {
  return DeploymentSchema.parse(emu.seedDeployment({ name: 'app', status: 'AWAITING_DATABASE' }));
}

const options = (timeoutMs: number, extra: Partial<WaitOptions> = {}): WaitOptions => ({
  ...DEFAULT_WAIT,
  timeoutMs,
  ...extra,
});

const polls = () => emu.requests.filter((request) => request.query.deployment_ids !== undefined);

describe('classifyStatus', () => {
  it('knows which statuses end the wait', () => {
    expect(classifyStatus('READY')).toBe('ready');
    expect(classifyStatus('AWAITING_DELETE')).toBe('failed');
    for (const status of ['AWAITING_DATABASE', 'UNUSED', 'UNKNOWN'] as const) {
      expect(classifyStatus(status)).toBe('pending');
    }
  });
});

describe('waitForReady', () => {
  it('returns at once, with no poll, when the deployment is already READY', async () => {
    const ready = DeploymentSchema.parse(emu.seedDeployment({ name: 'app', status: 'READY' }));

    expect((await waitForReady(ready, options(60_000), { client, clock, logger })).status).toBe(
      'READY',
    );
    expect(emu.requests).toHaveLength(0);
  });

  it('polls deployment_ids with an interval doubling from 1 s to a 15 s cap', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 7 });
    const seen: string[] = [];

    const ready = await waitForReady(deployment, options(600_000), {
      client,
      clock,
      logger,
      onPoll: (d) => seen.push(d.status),
    });

    expect(ready.status).toBe('READY');
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000, 15_000]);
    expect(polls().every((request) => request.query.deployment_ids === deployment.id)).toBe(true);
    expect(seen.at(-1)).toBe('READY');
    expect(logger.text).toMatch(
      /waiting for READY: AWAITING_DATABASE after 0 s; next check in 1 s/,
    );
  });

  it('counts intervals from the start of one check to the next, so a slow check is not added', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 3 });
    // The first check takes 3 s (the emulator runs in this process, on the fake clock).
    emu.inject({
      bodyTransform: (body) => {
        clock.time += 3_000;
        return body;
      },
    });

    await waitForReady(deployment, options(600_000), { client, clock, logger });

    expect(clock.sleeps).toEqual([1_000, 0, 4_000, 8_000]);
  });

  it('fails at the deadline with the last status, never sleeping past it', async () => {
    const deployment = pending();

    const error = await waitForReady(deployment, options(10_000), { client, clock, logger }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(WaitError);
    expect((error as WaitError).message).toMatch(
      /not READY after 10 s \(4 checks; last status AWAITING_DATABASE\)/,
    );
    expect((error as WaitError).deployment.id).toBe(deployment.id);
    expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 3_000]);
  });

  it('fails at once on AWAITING_DELETE', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 1, finalStatus: 'AWAITING_DELETE' });

    await expect(
      waitForReady(deployment, options(600_000), { client, clock, logger }),
    ).rejects.toThrow(/AWAITING_DELETE/);
    expect(polls()).toHaveLength(2);
  });

  it('tolerates a few failed polls in a row, logging each', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 0 });
    emu.inject({ status: 503, times: 2 }, { drop: 'before' }, { status: 429 });

    const ready = await waitForReady(deployment, options(600_000), { client, clock, logger });

    expect(ready.status).toBe('READY');
    expect(logger.lines.filter((line) => line.startsWith('warning: check'))).toHaveLength(4);
  });

  it('gives up after more failed polls in a row than the budget', async () => {
    const deployment = pending();
    emu.inject({ status: 502, times: Infinity });

    const error = await waitForReady(deployment, options(600_000, { maxFailedPolls: 3 }), {
      client,
      clock,
      logger,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WaitError);
    expect((error as Error).message).toMatch(/after 4 failed checks in a row.*502/s);
    expect(polls()).toHaveLength(4);
  });

  it('fails at once on a poll error that will not pass (401)', async () => {
    const deployment = pending();
    emu.inject({ status: 401, body: { detail: 'Invalid API key' } });

    await expect(
      waitForReady(deployment, options(600_000), { client, clock, logger }),
    ).rejects.toThrow(ServiceError);
    expect(polls()).toHaveLength(1);
  });

  it('stops at once when the run is cancelled', async () => {
    const deployment = pending();
    const controller = new AbortController();
    clock.onSleep = () => {
      if (clock.sleeps.length === 3) controller.abort();
    };
    const cancellable = new ServiceClient({
      baseUrl: emu.url,
      headers: {},
      clock,
      logger,
      signal: controller.signal,
    });

    await expect(
      waitForReady(deployment, options(600_000), {
        client: cancellable,
        clock,
        logger,
        signal: controller.signal,
      }),
    ).rejects.toThrow(CancelledError);
    expect(polls()).toHaveLength(2);
  });
});
