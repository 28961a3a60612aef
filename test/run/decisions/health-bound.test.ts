/**
 * The bound of one health check when the wait has less than 30 s left: whole seconds, so
 * that what the log, the `health` event and a timeout's message say of an attempt that got
 * no answer reads `no answer within 1 s`, never `within 1.488 s`. Over real HTTP, against
 * an address of the emulator that never answers.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/emulator.ts';
import { FakeClock } from '../../support/clock.ts';
import { aDeployment } from '../../support/fixtures.ts';
import { HealthProbe } from '../../../src/run/decisions/health.ts';
import type { Logger } from '../../../src/common/runtime.ts';
import type { RunEvent } from '../../../src/run/ports/events.ts';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ addresses: true, addressBehaviour: { hang: true } });
});

afterEach(async () => {
  await emu.close();
});

it('an attempt cut short by the end of the wait is bounded, and said, in whole seconds', async () => {
  const seeded = emu.seedDeployment({ name: 'agent' });
  const deployment = aDeployment({ name: 'agent', source_config: seeded.source_config });
  const clock = new FakeClock();
  const lines: string[] = [];
  const logger: Logger = {
    info: (message) => lines.push(message),
    notice: (message) => lines.push(message),
    warning: (message) => lines.push(message),
    debug: () => undefined,
  };
  const events: RunEvent[] = [];
  const probe = new HealthProbe(
    { check: { kind: 'path', path: '/ok' }, headers: {} },
    {
      clock,
      logger,
      events: (event) => events.push(event),
      heartbeatMs: 30_000,
      spacingMs: 2_000,
      headersWords: 'health-check-headers',
    },
    // What is left of the wait: not a whole number of seconds.
    1_488,
  );

  const liveness = await probe.judge(deployment, { live: true });

  expect(liveness).toMatchObject({ live: false, health: { ok: false } });
  expect(liveness.health?.error).toBe('no answer within 1 s');
  expect(lines.join('\n')).toContain(': no answer within 1 s');
  expect(events).toEqual([
    expect.objectContaining({ kind: 'health', error: 'no answer within 1 s' }),
  ]);
  expect(emu.addressRequests.map((request) => request.subpath)).toEqual(['/ok']);
});
