/**
 * Golden files of `deploy-agent deploy` (dist/cli.js) when it fails: the service answers 500
 * (to every lookup, retried until it gives up; to a create, which is looked up before it is
 * tried again), and usage errors (exit 2, before
 * any request). Recorded under test/golden/cli/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { expectGolden } from '../support/golden.ts';
import { cli, deployArgs, startWorld, WAIT_SECONDS, written } from './cli-world.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startWorld();
});

afterEach(async () => {
  await emu.close();
});

const DATABASE_DOWN = { status: 500, body: { detail: 'database unavailable' } };

describe('deploy-agent deploy, the service answers 500', () => {
  it('to every lookup: retried, then the error, in the log and --json', async () => {
    emu.inject({ method: 'GET', path: '/v2/deployments', times: 100, ...DATABASE_DOWN });
    const run = await cli(emu, deployArgs('--json'));
    expectGolden('cli/fail-500-lookup.txt', written(run, emu), { replace: WAIT_SECONDS });
  });

  it('to the first create: looked up (not created), tried again, created', async () => {
    emu.inject({ method: 'POST', path: '/v2/deployments', times: 1, ...DATABASE_DOWN });
    const run = await cli(emu, deployArgs());
    expectGolden('cli/fail-500-create.txt', written(run, emu), { replace: WAIT_SECONDS });
  });
});

describe('deploy-agent, a usage error (exit 2)', () => {
  it('--api-key on the command line', async () => {
    const run = await cli(emu, deployArgs('--api-key', 'typed-key-0123456789'));
    expectGolden('cli/usage-api-key.txt', written(run, emu));
  });

  it('a value the option does not take, with --json', async () => {
    const run = await cli(emu, deployArgs('--on-drift', 'sometimes', '--json'));
    expectGolden('cli/usage-on-drift.txt', written(run, emu));
  });

  it('an option the command does not know', async () => {
    const run = await cli(emu, deployArgs('--wait-for-ready'));
    expectGolden('cli/usage-unknown-option.txt', written(run, emu));
  });
});
