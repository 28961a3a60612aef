/**
 * Golden files of `deploy-agent deploy --health-check` (dist/cli.js) against an emulator that
 * serves each deployment's address (as test/cli/health.e2e.test.ts sets it up): an address
 * that answers once its header is sent, and one that refuses three times. Recorded under
 * test/golden/cli/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { expectGolden } from '../support/golden.ts';
import { cli, deployArgs, startWorld, WAIT_SECONDS, written } from './cli-world.ts';

const AGENT_KEY = 'golden-cli-agent-key-6543210';
const KEY_HEADER = { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } };
const CHECK = ['--health-check', '/ok', '--health-check-header', 'X-Agent-Key'];

let emu: Emulator;

beforeEach(async () => {
  emu = await startWorld({ addresses: true, addressBehaviour: KEY_HEADER });
});

afterEach(async () => {
  await emu.close();
});

describe('deploy-agent deploy --health-check', () => {
  it('is live once the address answers 200: the log, --dotenv and --events', async () => {
    const run = await cli(emu, deployArgs(...CHECK, '--events', '--dotenv', 'deploy.env'), {
      env: { X_AGENT_KEY: AGENT_KEY },
      read: ['deploy.env'],
    });
    expectGolden('cli/health-ok.txt', written(run, emu), { replace: WAIT_SECONDS });
  });

  it('fails after three refusals, naming --health-check-header, in the log and --json', async () => {
    const run = await cli(emu, deployArgs(...CHECK, '--json'), {
      env: { X_AGENT_KEY: 'a-wrong-agent-key-0000' },
    });
    expectGolden('cli/health-refused.txt', written(run, emu), { replace: WAIT_SECONDS });
  });
});
