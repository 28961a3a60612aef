/**
 * Waiting until live, in-process against the emulator with a fake clock:
 * the intervals, the deadline and the error budget, in no real time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/service/client.ts';
import { CancelledError } from '../../../src/common/errors.ts';
import { ServiceError } from '../../../src/service/errors.ts';
import { Service } from '../../../src/service/endpoints.ts';
import type { Deployment } from '../../../src/service/schemas.ts';
import { DeploymentSchema } from '../../../src/service/schemas.ts';
import { DEFAULT_WAIT, type WaitOptions } from '../../../src/run/ports/pace.ts';
import { waitUntilLive, type WaitEnd } from '../../../src/run/decisions/wait.ts';
import type { RunEvent } from '../../../src/run/ports/events.ts';
import type { RunDependencies } from '../../../src/run/ports/dependencies.ts';
import type { Goal } from '../../../src/run/decisions/goal.ts';
import type { Emulator } from '../../emulator/emulator.ts';
import type { FakeClock, MemoryLogger } from '../../support/clock.ts';
import { startFlow } from '../../support/flow.ts';

let emu: Emulator;

/** The next checks see these statuses, one each, before the emulator's own. */
function seeStatuses(statuses: string[]): void {
  emu.inject({
    times: statuses.length,
    bodyTransform: (body) => {
      const list = body as { resources: { status: string }[] };
      for (const seen of list.resources) seen.status = statuses.shift() ?? seen.status;
      return list;
    },
  });
}
let clock: FakeClock;
let logger: MemoryLogger;
let service: Service;
let dependencies: RunDependencies;

beforeEach(async () => {
  ({ emu, clock, logger, service, dependencies } = await startFlow());
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

/** No commit targeted, nothing seen: live is READY with the latest revision active. */
const NO_GOAL: Pick<Goal, 'target' | 'seenRevisions'> = { seenRevisions: new Set() };

/** A wait that ended without the deployment live, as a test's rejection. */
class NotLive extends Error {
  readonly end: WaitEnd;

  constructor(end: WaitEnd & { failure: string }) {
    super(end.failure);
    this.end = end;
  }
}

/** The wait's end when the deployment is live; rejects with NotLive when it ended without. */
async function liveEnd(ending: Promise<WaitEnd>): Promise<WaitEnd & { failure?: undefined }> {
  const end = await ending;
  if (end.failure !== undefined) throw new NotLive(end);
  return end;
}

async function waitForReady(
  deployment: Deployment,
  waitOptions: WaitOptions,
  dependencies: Parameters<typeof waitUntilLive>[3],
): Promise<Deployment> {
  return (await liveEnd(waitUntilLive(deployment, NO_GOAL, waitOptions, dependencies))).deployment;
}

describe('waitUntilLive, no commit targeted', () => {
  it('returns at once, with no poll, when the deployment is already live', async () => {
    const ready = DeploymentSchema.parse(emu.seedDeployment({ name: 'app', status: 'READY' }));

    expect((await waitForReady(ready, options(60_000), dependencies)).status).toBe('READY');
    expect(emu.requests).toHaveLength(0);
  });

  it('polls deployment_ids after 1 s, then every 2 s at any length of wait: at most 30 checks a minute', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 90 });
    const seen: string[] = [];
    const start = clock.now();
    const checkTimes: number[] = [];

    const ready = await waitForReady(deployment, options(600_000), {
      ...dependencies,
      onPoll: (d) => {
        seen.push(d.status);
        checkTimes.push(clock.now() - start);
      },
    });

    expect(ready.status).toBe('READY');
    // Checks at 1, 3, 5, ... 181 s: never more than 2 s apart, however long the wait.
    expect(checkTimes).toEqual(Array.from({ length: 91 }, (_, i) => 1_000 + 2_000 * i));
    for (const from of checkTimes) {
      const inAMinute = checkTimes.filter((t) => t >= from && t < from + 60_000);
      expect(inAMinute.length).toBeLessThanOrEqual(30);
    }
    expect(polls().every((request) => request.query.deployment_ids === deployment.id)).toBe(true);
    expect(seen.at(-1)).toBe('READY');
  });

  it('says where the wait is at each change, and while nothing changes every 30 s, not at each check', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 50 });

    await waitForReady(deployment, options(600_000), dependencies);

    const waiting = logger.lines.filter((line) => line.startsWith('info: waiting until live'));
    // 50 checks over 99 s: the first state at 0 s, the heartbeat at 30, 60 and 90 s.
    expect(waiting).toEqual([
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 0.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 30.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 60.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 90.0 s so far',
    ]);
    expect(DEFAULT_WAIT.heartbeatMs).toBe(30_000);
  });

  it('writes a line when the status changes, at the check that sees it', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 3 });
    // Each check sees the next status: a new line for each, none repeated.
    seeStatuses(['DEPLOYING', 'DEPLOYING', 'AWAITING_DATABASE']);

    await waitForReady(deployment, options(600_000), dependencies);

    expect(logger.lines.filter((line) => line.startsWith('info: waiting until live'))).toEqual([
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 0.0 s so far',
      'info: waiting until live: status is DEPLOYING, not READY; 1.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 5.0 s so far',
    ]);
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

    await waitForReady(deployment, options(600_000), dependencies);

    // The second check at once, 4 s in; then 2 s apart.
    expect(clock.sleeps).toEqual([1_000, 2_000, 2_000]);
    expect(polls()).toHaveLength(4);
  });

  it('keeps the heartbeat while a check hangs: a line at least every 30 s, saying how long the service has not answered', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 40 });
    // The first check, 1 s in, gets its answer 40 s later (the emulator runs on the fake clock).
    emu.inject({
      bodyTransform: (body) => {
        clock.advance(40_000);
        return body;
      },
    });

    const start = clock.now();
    await waitForReady(deployment, options(600_000), dependencies);
    const end = clock.now() - start;

    const waiting = logger.lines.filter((line) => line.startsWith('info: waiting until live'));
    expect(waiting.slice(0, 3)).toEqual([
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 0.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 30.0 s so far; the service has not answered a status check for 29.0 s',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 60.0 s so far',
    ]);
    const times = waiting.map((line) => Number(/; ([\d.]+) s so far/.exec(line)?.[1]) * 1000);
    const gaps = [...times, end].map((time, i) => time - (i === 0 ? 0 : times[i - 1]!));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
    // The schedule is unchanged: the next check at once after the slow one, then every 2 s.
    expect(clock.sleeps.slice(0, 3)).toEqual([1_000, 2_000, 2_000]);
  });

  it('keeps the heartbeat through several periods of one hung check, and stops it once the check settles', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 1 });
    emu.inject({
      bodyTransform: (body) => {
        clock.advance(75_000);
        return body;
      },
    });

    await waitForReady(deployment, options(600_000, { heartbeatMs: 20_000 }), dependencies);

    expect(logger.lines.filter((line) => line.startsWith('info: waiting until live'))).toEqual([
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 0.0 s so far',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 20.0 s so far; the service has not answered a status check for 19.0 s',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 40.0 s so far; the service has not answered a status check for 39.0 s',
      'info: waiting until live: status is AWAITING_DATABASE, not READY; 60.0 s so far; the service has not answered a status check for 59.0 s',
    ]);
    // 76 s in, the hung check answered; the next one, at once, saw READY: no line after it.
    expect(polls()).toHaveLength(2);
  });

  it('fails at the deadline with the last status, never sleeping past it nor checking closer than its interval', async () => {
    const deployment = pending();

    const error = await waitForReady(deployment, options(10_000), dependencies).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(NotLive);
    expect((error as NotLive).message).toMatch(
      /not live after 10\.0 s \(5 checks\): status is AWAITING_DATABASE, not READY/,
    );
    expect((error as NotLive).end.deployment.id).toBe(deployment.id);
    expect(clock.sleeps).toEqual([1_000, 2_000, 2_000, 2_000, 2_000, 1_000]);
  });

  it('slows down for as long as a Retry-After asks, then goes back to its schedule', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 3 });
    emu.inject({ status: 503, headers: { 'retry-after': '7' } });

    const ready = await waitForReady(deployment, options(600_000), dependencies);

    expect(ready.status).toBe('READY');
    expect(clock.sleeps).toEqual([1_000, 7_000, 2_000, 2_000, 2_000]);
    expect(logger.text).toMatch(/check 1 failed .*503.*; next check in 7\.0 s, as it asked/);
  });

  it('pauses after a 429 as long as the service asks, doubling without a Retry-After, and counts none as failed', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 0 });
    emu.inject({ status: 429, times: 6 });

    const ready = await waitForReady(deployment, options(600_000), dependencies);

    // Six 429s in a row, more than the failed polls tolerated: still waiting, slower each time.
    expect(ready.status).toBe('READY');
    expect(logger.lines.filter((line) => line.startsWith('warning:'))).toEqual([]);
    expect(logger.text).toContain('the service asked to slow down (429): next check in 60.0 s');
  });

  it('fails at its deadline while slowed down, without a check the service asked it not to make', async () => {
    const deployment = pending();
    emu.inject({ status: 429, headers: { 'retry-after': '30' } });

    const error = await waitForReady(deployment, options(10_000), dependencies).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(NotLive);
    expect((error as NotLive).message).toMatch(
      /not live after 10\.0 s \(1 checks; the service asked to pause 30\.0 s between checks\)/,
    );
    expect(polls()).toHaveLength(1);
    expect(clock.sleeps).toEqual([1_000, 9_000]);
  });

  it('fails at once on AWAITING_DELETE', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 1, finalStatus: 'AWAITING_DELETE' });

    await expect(waitForReady(deployment, options(600_000), dependencies)).rejects.toThrow(
      /AWAITING_DELETE/,
    );
    expect(polls()).toHaveLength(2);
  });

  it('tolerates a few failed polls in a row, logging each', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 0 });
    emu.inject({ status: 503, times: 2 }, { drop: 'before' }, { status: 502 });

    const ready = await waitForReady(deployment, options(600_000), dependencies);

    expect(ready.status).toBe('READY');
    expect(logger.lines.filter((line) => line.startsWith('warning: check'))).toHaveLength(4);
  });

  it('gives up after more failed polls in a row than the budget', async () => {
    const deployment = pending();
    emu.inject({ status: 502, times: Infinity });

    const error = await waitForReady(
      deployment,
      options(600_000, { maxFailedPolls: 3 }),
      dependencies,
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotLive);
    expect((error as Error).message).toMatch(/after 4 failed checks in a row.*502/s);
    expect(polls()).toHaveLength(4);
  });

  it('fails at once on a poll error that will not pass (401)', async () => {
    const deployment = pending();
    emu.inject({ status: 401, body: { detail: 'Invalid API key' } });

    await expect(waitForReady(deployment, options(600_000), dependencies)).rejects.toThrow(
      ServiceError,
    );
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
        service: new Service(cancellable, logger),
        clock,
        logger,
        signal: controller.signal,
      }),
    ).rejects.toThrow(CancelledError);
    expect(polls()).toHaveLength(2);
  });
});

describe('waitUntilLive, revisions and commits (issue 9)', () => {
  const REPO = 'https://github.com/acme/agent';
  const OLD = 'a'.repeat(40);
  const NEW = 'b'.repeat(40);
  const NEWER = 'c'.repeat(40);

  /** A live codehost deployment that builds on push, on commit OLD, as the step found it. */
  function liveOn(
    commit: string,
    buildOnPush = true,
  ): { deployment: Deployment; goal: Pick<Goal, 'target' | 'seenRevisions'> } {
    const seeded = emu.seedDeployment({
      name: 'app',
      source_config: { repo_url: REPO, build_on_push: buildOnPush },
      source_revision_config: { repo_ref: 'main', repo_commit_sha: commit },
    });
    const deployment = DeploymentSchema.parse(seeded);
    return {
      deployment,
      goal: {
        target: { sha: NEW, branch: 'main' },
        seenRevisions: new Set([deployment.latest_revision_id!]),
      },
    };
  }

  it('waits for the pushed commit to be built and active', async () => {
    const { deployment, goal } = liveOn(OLD);
    emu.setOptions({ buildPolls: 2 });
    emu.push(REPO, 'main', NEW);

    const { deployment: live, verdict } = await liveEnd(
      waitUntilLive(deployment, goal, options(600_000), dependencies),
    );

    expect(live.source_revision_config.repo_commit_sha).toBe(NEW);
    expect(live.active_revision_id).toBe(live.latest_revision_id);
    expect(verdict.supersededBy).toBeUndefined();
    expect(logger.text).toMatch(/the latest revision .* is not active yet \(revision .* still is/);
  });

  it('times out naming the revision whose build failed and the one still active', async () => {
    const { deployment, goal } = liveOn(OLD);
    emu.push(REPO, 'main', NEW, { fail: true });
    const failed = emu.revisions(deployment.id).at(-1)!;

    const error = await liveEnd(
      waitUntilLive(deployment, goal, options(20_000), dependencies),
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotLive);
    expect((error as Error).message).toContain(
      `the latest revision ${failed.id} is not active yet (revision ${deployment.active_revision_id} still is; if it stays so, its build may have failed)`,
    );
  });

  it('succeeds when a newer push superseded the target, and says which commit is live', async () => {
    const { deployment, goal } = liveOn(OLD);
    emu.setOptions({ buildPolls: 1 });
    emu.push(REPO, 'main', NEW);
    emu.push(REPO, 'main', NEWER);

    const { deployment: live, verdict } = await liveEnd(
      waitUntilLive(deployment, goal, options(600_000), dependencies),
    );

    expect(verdict.supersededBy).toBe(NEWER);
    expect(live.source_revision_config.repo_commit_sha).toBe(NEWER);
    expect(emu.revisions(deployment.id).map((revision) => revision.state)).toEqual([
      'live',
      'skipped',
      'live',
    ]);
  });

  it("times out naming the target, the latest revision's commit and the branch when no push came", async () => {
    const { deployment, goal } = liveOn(OLD);

    const error = await liveEnd(
      waitUntilLive(deployment, goal, options(5_000), dependencies),
    ).catch((e: unknown) => e);

    expect((error as Error).message).toContain(
      `the latest revision is for commit ${OLD.slice(0, 12)}, not the target ${NEW.slice(0, 12)} of branch main`,
    );
  });

  it('needs no check when the target is already live', async () => {
    const { deployment, goal } = liveOn(NEW);

    await waitUntilLive(deployment, goal, options(600_000), dependencies);

    expect(emu.requests).toHaveLength(0);
  });

  it('waits through a status it does not know, saying so once', async () => {
    const deployment = DeploymentSchema.parse(
      emu.seedDeployment({ name: 'app', status: 'MIGRATING' }),
    );
    emu.setOptions({ readyAfterPolls: 3 });

    const live = await waitForReady(deployment, options(600_000), dependencies);

    expect(live.status).toBe('READY');
    expect(
      logger.lines.filter((line) =>
        line.includes('status MIGRATING is not one this release knows'),
      ),
    ).toHaveLength(1);
  });
});

describe('waitUntilLive, to an events sink', () => {
  it('emits a status_change at each change only, the last one live, then the wait is over', async () => {
    const deployment = pending();
    emu.setOptions({ readyAfterPolls: 3 });
    seeStatuses(['DEPLOYING', 'DEPLOYING', 'AWAITING_DATABASE']);
    const events: RunEvent[] = [];

    await waitForReady(deployment, options(600_000), {
      service,
      clock,
      logger,
      events: (event) => events.push(event),
    });

    const told = events.filter((event) => event.kind !== 'waiting');
    const changes = told.map((event) => (event.kind === 'status_change' ? event.status : event));
    expect(changes).toEqual([
      'AWAITING_DATABASE',
      'DEPLOYING',
      'AWAITING_DATABASE',
      'READY',
      { kind: 'wait_over', outcome: 'live' },
    ]);
    expect(told[0]).toEqual({
      kind: 'status_change',
      status: 'AWAITING_DATABASE',
      latestRevisionId: deployment.latest_revision_id ?? null,
      activeRevisionId: deployment.active_revision_id ?? null,
      waitingFor: 'status is AWAITING_DATABASE, not READY',
    });
    expect(events.at(-2)).toMatchObject({ status: 'READY', waitingFor: '' });
  });

  it('says a wait past its deadline timed out', async () => {
    const events: RunEvent[] = [];

    await waitForReady(pending(), options(5_000), {
      service,
      clock,
      logger,
      events: (event) => events.push(event),
    }).catch(() => undefined);

    expect(events.at(-1)).toEqual({ kind: 'wait_over', outcome: 'timed_out' });
    expect(events.filter((event) => event.kind === 'status_change')).toHaveLength(1);
  });
});
