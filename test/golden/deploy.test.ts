/**
 * Golden files of the deploy step (dist/index.js) on one deployment: what a run writes
 * (log, outputs, summary) and asks of the service, recorded under test/golden/deploy/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, codehostStep, seedAgentRepository } from '../support/fixtures.ts';
import { actionParts, expectGolden, serviceChanges } from '../support/golden.ts';
import { QUICK } from '../support/quick.ts';
import { MAIN_HEAD, MAIN_PUSH } from '../support/manifests.ts';
import { runAction } from '../support/run-action.ts';

const API_KEY = 'golden-key-0123456789abcdef';
const OPENAI = 'sk-golden-openai-0123456789';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
});

afterEach(async () => {
  await emu.close();
});

function step(extra: Record<string, string> = {}) {
  return runAction(
    codehostStep(emu, {
      'api-key': API_KEY,
      secrets: `OPENAI_API_KEY=${OPENAI}`,
      'wait-for-ready': 'true',
      'wait-timeout': '60',
      ...extra,
    }),
    { env: QUICK, event: MAIN_PUSH },
  );
}

describe('deploy, one deployment', () => {
  it('creates it and waits until it is live, then reuses it on a second push', async () => {
    const first = await step();
    expectGolden('deploy/create.txt', actionParts(first) + serviceChanges(emu));
    emu.requests.length = 0;
    const second = await step();
    expectGolden('deploy/reuse.txt', actionParts(second) + serviceChanges(emu));
  });
});
