/**
 * Golden files of `deploy-agent deploy` (dist/cli.js) on one deployment: what a run writes in
 * each of its forms (the log through a pipe, --json, --dotenv, --events) when it creates the
 * deployment and when a second run reuses it, recorded under test/golden/cli/.
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

/** Runs `deploy` twice with `more` (create, then reuse) and compares each with its golden file. */
async function createThenReuse(form: string, more: string[], read: string[] = []) {
  const first = await cli(emu, deployArgs(...more), { read });
  expectGolden(`cli/deploy-${form}-create.txt`, written(first, emu), { replace: WAIT_SECONDS });
  emu.requests.length = 0;
  const second = await cli(emu, deployArgs(...more), { read });
  expectGolden(`cli/deploy-${form}-reuse.txt`, written(second, emu), { replace: WAIT_SECONDS });
}

describe('deploy-agent deploy, one deployment', () => {
  it('writes its log through a pipe', async () => {
    await createThenReuse('text', []);
  });

  it('writes --json', async () => {
    await createThenReuse('json', ['--json']);
  });

  it('writes --dotenv FILE', async () => {
    await createThenReuse('dotenv', ['--dotenv', 'deploy.env'], ['deploy.env']);
  });

  it('writes --events', async () => {
    await createThenReuse('events', ['--events']);
  });
});
