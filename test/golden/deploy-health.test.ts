/**
 * Golden files of the deploy step's health check (dist/index.js) on one deployment: one that
 * answers 200 (healthy) and one that refuses the check three times in a row (unhealthy),
 * recorded under test/golden/deploy/.
 */
import { afterEach, beforeEach, describe, it } from 'vitest';
import type { Emulator } from '../emulator/emulator.ts';
import { actionParts, expectGolden, serviceChanges } from '../support/golden.ts';
import { HEAD, existing, healthStep, startHealthEmulator } from '../support/health-world.ts';

const AGENT_KEY = 'agent-server-key-9876543210';

let emu: Emulator;

beforeEach(async () => {
  emu = await startHealthEmulator();
  existing(emu);
});

afterEach(async () => {
  await emu.close();
});

/** What the run wrote, asked the service to change, and what the address answered in turn. */
function golden(name: string, run: Awaited<ReturnType<typeof healthStep>>): void {
  const answers = emu.addressRequests.map((request) => `${request.subpath} ${request.status}`);
  expectGolden(
    `deploy/${name}.txt`,
    `${actionParts(run)}${serviceChanges(emu)}=== address answers ===\n${answers.join('\n')}\n`,
    { keep: [HEAD] },
  );
}

describe('deploy, one deployment, health check', () => {
  it('is healthy when the address answers 200 with the headers asked for', async () => {
    emu.serveAddress('my-agent', { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } });
    const run = await healthStep(emu, { 'health-check-headers': `X-Agent-Key: ${AGENT_KEY}` });
    golden('health-healthy', run);
  });

  it('is unhealthy, and fails, when the address refuses the check three times in a row', async () => {
    emu.serveAddress('my-agent', { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } });
    const run = await healthStep(emu, { 'wait-timeout': '60' });
    golden('health-unhealthy', run);
  });
});
