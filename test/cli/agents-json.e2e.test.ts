/**
 * The same manifest through the action (dist/index.js) and the command
 * (dist/cli.js), against the emulator: every field of an entry of the
 * action's `deployments` output is in the command's `--json` entry for the
 * same agent, with the same value where both are about the same thing, so
 * that one `jq` reads both.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, seedAgentRepository } from '../support/fixtures.ts';
import { printed, runAction } from '../support/run-action.ts';
import { runCli } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';
import {
  deployAgentsArgs,
  MAIN_HEAD,
  MAIN_PUSH,
  MANIFEST_PATH,
  manifestStep,
  TWO_AGENTS,
} from '../support/manifests.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ readyAfterPolls: 1 });
  seedAgentRepository(emu);
  emu.setHead(AGENT_REPO_URL, 'main', MAIN_HEAD);
});

afterEach(async () => {
  await emu.close();
});

type Entries = Record<string, Record<string, unknown>>;

describe('deploy --agents FILE --json', () => {
  it('holds every field of the action’s deployments entries', async () => {
    const action = await runAction(
      manifestStep(emu, { 'wait-for-ready': 'true', 'wait-timeout': '60' }),
      { env: QUICK, files: { [MANIFEST_PATH]: TWO_AGENTS }, event: MAIN_PUSH },
    );
    expect(action.exitCode, printed(action)).toBe(0);
    const actionEntries = JSON.parse(action.outputs.deployments ?? '{}') as Entries;

    const command = await runCli(
      deployAgentsArgs('agents.yaml', '--wait', '--wait-timeout', '60', '--json'),
      { env: { DEPLOY_API_URL: emu.url, ...QUICK }, files: { 'agents.yaml': TWO_AGENTS } },
    );
    expect(command.exitCode, command.stderr).toBe(0);
    const commandEntries = (command.json?.deployments ?? {}) as Entries;

    expect(Object.keys(commandEntries)).toEqual(['support', 'research']);
    for (const [key, entry] of Object.entries(actionEntries)) {
      const own = commandEntries[key] ?? {};
      for (const field of Object.keys(entry))
        expect(own, `${key}.${field}`).toHaveProperty([field]);
      for (const field of ['name', 'drift-count', 'deployment-id', 'live', 'commit-sha', 'url']) {
        expect(own[field], `${key}.${field}`).toEqual(entry[field]);
      }
    }
    expect(commandEntries.research?.name).toBe('research-assistant');
  });
});
