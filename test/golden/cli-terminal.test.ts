/**
 * Golden file of `deploy-agent deploy` in a terminal 80 columns wide (a pseudo-terminal,
 * test/support/terminal.ts): the bytes the terminal received on a create, its colours and
 * its live line included, with each escape and carriage return shown as text so that a
 * diff reads.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { expectGolden, section, serviceChanges } from '../support/golden.ts';
import { runInTerminal } from '../support/terminal.ts';
import { deployArgs, serviceEnv, startWorld, WAIT_SECONDS } from './cli-world.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startWorld();
});

afterEach(async () => {
  await emu.close();
});

/** The terminal's bytes, one line a `\r\n`, an escape as `\e`, a lone carriage return as `\r`. */
function visible(screen: string): string {
  return screen.replaceAll('\r\n', '\n').replaceAll('\u001b', '\\e').replaceAll('\r', '\\r');
}

describe('deploy-agent deploy in a terminal', () => {
  it('draws its log, in colour, and one live line while it waits, at 80 columns', async () => {
    const run = await runInTerminal(deployArgs(), { columns: 80, env: serviceEnv(emu) });
    const text =
      section('exit', String(run.exitCode)) +
      section('screen', visible(run.screen)) +
      serviceChanges(emu);
    expectGolden('cli/deploy-terminal-80.txt', text, { replace: WAIT_SECONDS });
  });
});
