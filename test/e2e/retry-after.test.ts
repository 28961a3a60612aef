/**
 * End-to-end, hardening V: a `Retry-After` that is neither whole seconds nor
 * an HTTP date to come (`-5`, which `Date.parse` reads as a date in 2001) is
 * ignored, so the back-off applies between attempts, through the action's
 * and the command's bundles against the service emulator.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli } from '../cli/run-cli.ts';
import { runAction } from '../support/run-action.ts';

const INTEGRATION = '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b';
/** The back-off before the second attempt; it doubles for each further one, and jitter keeps at least half. */
const RETRY_DELAY_MS = 200;

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
});

afterEach(async () => {
  await emu.close();
});

/** Four answers of 429 to the look-up, each with `Retry-After: value`; the fifth attempt is served. */
function slowDown(value: string) {
  emu.inject({
    method: 'GET',
    path: '/v2/deployments',
    status: 429,
    headers: { 'retry-after': value },
    times: 4,
  });
}

/** The gaps between the look-up's attempts, in ms. */
function gaps(): number[] {
  const times = emu.requests
    .filter((request) => request.method === 'GET' && request.path === '/v2/deployments')
    .map((request) => request.arrivedAt);
  return times.slice(1).map((time, index) => time - (times[index] ?? time));
}

/** At least the back-off's lower bound before each retry: half of 200, 400, 800, 1,600 ms. */
const backedOff = () =>
  gaps()
    .slice(0, 4)
    .map((gap, index) => gap >= (RETRY_DELAY_MS / 2) * 2 ** index);

describe('Retry-After that says nothing usable (hardening V)', () => {
  it.each(['-5', '1.5', '2001-01-01', 'Sun, 22 Nov 2020 10:00:00 GMT'])(
    'the action backs off as if none were sent: %s',
    async (value) => {
      slowDown(value);

      const run = await runAction(
        { 'api-url': emu.url, name: 'my-agent', 'integration-id': INTEGRATION, 'dry-run': 'true' },
        { env: { DEPLOY_AGENT_RETRY_DELAY_MS: String(RETRY_DELAY_MS) } },
      );

      expect(run.error).toBeUndefined();
      expect(run.exitCode).toBe(0);
      expect(gaps()).toHaveLength(4);
      expect(backedOff()).toEqual([true, true, true, true]);
    },
  );

  it('the command backs off too', async () => {
    slowDown('-5');

    const run = await runCli(
      [
        'deploy',
        '--name',
        'my-agent',
        '--integration-id',
        INTEGRATION,
        '--repository',
        'acme/agent',
        '--dry-run',
      ],
      {
        env: {
          DEPLOY_API_URL: emu.url,
          DEPLOY_AGENT_RETRY_DELAY_MS: String(RETRY_DELAY_MS),
        },
      },
    );

    expect(run.exitCode).toBe(0);
    expect(backedOff()).toEqual([true, true, true, true]);
  });
});
