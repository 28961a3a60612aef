/**
 * The waiting schedule on a fake clock: the action's real wait code
 * (`waitUntilLive`, `DEFAULT_WAIT`) and real HTTP to the emulator, whose own
 * clock (`now`) is the same fake clock, so a wait of minutes takes no real
 * time. Imported dynamically by fake-clock.ts after `allowSourceImports()`.
 */
import { ServiceClient } from '../src/service/client.ts';
import { Service } from '../src/service/endpoints.ts';
import { DEFAULT_WAIT } from '../src/run/ports/pace.ts';
import { waitUntilLive } from '../src/run/decisions/wait.ts';
import { startEmulator } from '../test/emulator/emulator.ts';
import { FakeClock, MemoryLogger } from '../test/support/clock.ts';
import { INTEGRATION } from '../test/support/ids.ts';

const NAME = 'bench-wait';
const REPO = 'https://github.com/acme/agent';
const OLD = '1111111111111111111111111111111111111111';
const NEW = '2222222222222222222222222222222222222222';

export { DEFAULT_WAIT };

export interface FakeWait {
  /** When the pushed revision may go live (undefined: never), from the wait's start. */
  liveAfterMs: number | undefined;
  /** When the wait returned or gave up, from its start. */
  endedAfterMs: number;
  /** Status checks (GET /v2/deployments?deployment_ids=...). */
  polls: number;
  /** The most status checks in any 60 s of the wait. */
  pollsInAMinute: number;
  live: boolean;
}

/**
 * A codehost reuse that waits for the commit of a push, as a step does after `deploy`: the
 * deployment is live on OLD, NEW is pushed as the wait starts, and its revision may go live
 * `liveAfterMs` later (`buildMs`; never when undefined, so the wait runs to `timeoutMs`).
 */
export async function waitOnFakeClock(
  liveAfterMs: number | undefined,
  timeoutMs: number,
): Promise<FakeWait> {
  const clock = new FakeClock();
  const emu = await startEmulator({
    now: () => clock.now(),
    ...(liveAfterMs === undefined ? { buildPolls: Infinity } : { buildMs: liveAfterMs }),
  });
  try {
    emu.seedDeployment({
      name: NAME,
      source: 'codehost',
      source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true },
      source_revision_config: { repo_ref: 'main', repo_commit_sha: OLD },
    });
    const logger = new MemoryLogger();
    const client = new ServiceClient({ baseUrl: emu.url, headers: {}, clock, logger });
    const service = new Service(client, logger);
    // A first read: the emulator counts a build from the later of the push and the moment it
    // first saw the deployment READY, so the revision goes live exactly liveAfterMs after the push.
    await service.findByName(NAME);
    emu.push(REPO, 'main', NEW);
    const [found] = await service.findByName(NAME);
    if (found === undefined) throw new Error('the emulator did not list the seeded deployment');
    const seenRevisions = new Set(
      [found.latest_revision_id, found.active_revision_id].filter((id) => id !== null),
    );
    const started = clock.now();
    const from = emu.requests.length;
    const times: number[] = [];
    const end = await waitUntilLive(
      found,
      { target: { sha: NEW, branch: 'main' }, seenRevisions },
      { ...DEFAULT_WAIT, timeoutMs },
      // Each answered check, on the fake clock (the emulator records real time).
      { service, clock, logger, onPoll: () => times.push(clock.now()) },
    );
    const live = end.failure === undefined;
    return {
      liveAfterMs,
      endedAfterMs: clock.now() - started,
      polls: emu.requests.slice(from).filter((r) => r.query.deployment_ids !== undefined).length,
      pollsInAMinute: Math.max(
        0,
        ...times.map((at) => times.filter((t) => t >= at && t < at + 60_000).length),
      ),
      live,
    };
  } finally {
    await emu.close();
  }
}
