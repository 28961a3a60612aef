/**
 * Golden files of `deploy-agent deploy --agents FILE` (dist/cli.js) with a manifest of three
 * agents, one of which fails (the service answers its lookup 500 every time): the log through
 * a pipe, --json, --dotenv and --events, recorded under test/golden/cli/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { expectGolden } from '../support/golden.ts';
import { deployAgentsArgs, THREE_AGENTS } from '../support/manifests.ts';
import { cli, groupedByAgent, startWorld, WAIT_SECONDS, written } from './cli-world.ts';

/** The manifest's agents, in its order. */
const KEYS = ['support', 'research', 'triage'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startWorld();
  // triage's lookup fails on every try: it fails alone, the others go live.
  emu.inject({
    method: 'GET',
    path: '/v2/deployments',
    query: { name_contains: 'triage' },
    status: 500,
    body: { detail: 'database unavailable' },
    times: 100,
  });
});

afterEach(async () => {
  await emu.close();
});

/** Deploys the three agents with `more` and compares the run with its golden file. */
async function deployThree(form: string, more: string[], read: string[] = []) {
  const run = await cli(
    emu,
    deployAgentsArgs('agents.yaml', '--wait', '--wait-timeout', '60', ...more),
    {
      files: { 'agents.yaml': THREE_AGENTS },
      read,
    },
  );
  // The agents run at once: their lines interleave differently each run (cli-world.ts, byAgent).
  expectGolden(`cli/agents-${form}.txt`, written(groupedByAgent(run, KEYS), emu), {
    replace: WAIT_SECONDS,
  });
}

describe('deploy-agent deploy --agents, three agents, one fails', () => {
  it('writes its log through a pipe', async () => {
    await deployThree('text', []);
  });

  it('writes --json', async () => {
    await deployThree('json', ['--json']);
  });

  it('writes --dotenv FILE', async () => {
    await deployThree('dotenv', ['--dotenv', 'deploy.env'], ['deploy.env']);
  });

  it('writes --events', async () => {
    await deployThree('events', ['--events']);
  });
});
