/**
 * What the golden files of the deploy step on a push share: the service's emulator with
 * acme/agent at MAIN_HEAD (each created deployment READY after one check), started before each
 * test and closed after, the step that deploys `my-agent` with one secret and waits, and the
 * golden file of a run (what it wrote, and what it asked the service to change).
 */
import { afterEach, beforeEach } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, codehostStep, seedAgentRepository } from '../support/fixtures.ts';
import { actionParts, expectGolden, serviceChanges } from '../support/golden.ts';
import { MAIN_HEAD, MAIN_PUSH } from '../support/manifests.ts';
import { QUICK } from '../support/quick.ts';
import { runAction, type ActionRun } from '../support/run-action.ts';

export const API_KEY = 'golden-key-0123456789abcdef';
export const OPENAI = 'sk-golden-openai-0123456789';

/** The inputs every deploy step of these files sets: the key, the secret, a wait. */
export const WAITING = {
  'api-key': API_KEY,
  secrets: `OPENAI_API_KEY=${OPENAI}`,
  'wait-for-ready': 'true',
  'wait-timeout': '60',
};

/** Starts the emulator of a push before each test (closed after it); the one of the test under way. */
export function pushWorld(): () => Emulator {
  let emu: Emulator | undefined;
  beforeEach(async () => {
    emu = await startEmulator({ apiKey: API_KEY, readyAfterPolls: 1 });
    seedAgentRepository(emu);
    emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
  });
  afterEach(async () => {
    await emu?.close();
  });
  return () => {
    if (emu === undefined) throw new Error('pushWorld: no test is under way');
    return emu;
  };
}

/** The deploy step of `my-agent` on a push of MAIN_HEAD, waiting; `extra` over it. */
export function deployStep(
  emu: Emulator,
  extra: Record<string, string> = {},
  env: Record<string, string> = QUICK,
): Promise<ActionRun> {
  return runAction(codehostStep(emu, { ...WAITING, ...extra }), { env, event: MAIN_PUSH });
}

/** The golden file `name`: what the run wrote and what it asked the service to change. */
export function expectRun(name: string, run: ActionRun, emu: Emulator): void {
  expectGolden(name, actionParts(run) + serviceChanges(emu));
}
