/**
 * End-to-end, how the deploy entry reads the inputs its action.yml declares
 * (the core's and the GitHub ones alike, through one reader): an input
 * without its INPUT_ variable (a run outside a runner) reads as its declared
 * default. Every bad one in one report: test/e2e/github.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { codehostStep, seedAgentRepository } from '../support/fixtures.ts';
import { TENANT_ID } from '../support/ids.ts';
import { runAction } from '../support/run-action.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

describe('the deploy entry reads its declared inputs', () => {
  it('reads an input without its INPUT_ variable as its declared default, whichever it is', async () => {
    // Only the three inputs the step needs: source (codehost), repository (the run's),
    // wait-timeout, github-token and the rest come from their declared defaults.
    const run = await runAction(codehostStep(emu), { onlyGiven: true });

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ created: 'true', 'deployment-id': emu.deployments[0]?.id });
    expect(emu.deployments[0]?.source).toBe('codehost');
  });

  it('still names a required input that is missing', async () => {
    const run = await runAction({ 'api-url': emu.url }, { onlyGiven: true });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain("input 'name':");
    expect(emu.requests).toEqual([]);
  });
});
