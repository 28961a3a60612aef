/**
 * A fault sequence the action's and the command's tests share: the wait's
 * first status check gets no answer.
 */
import type { Emulator, Fault } from '../emulator/emulator.ts';

/**
 * The wait's first status check gets no answer: the listing after the one
 * that follows the create (which confirms the name is unique).
 */
export function hangFirstCheck(emu: Emulator): void {
  const then = (fault: Fault) => (body: unknown) => {
    emu.inject(fault);
    return body;
  };
  const check = { method: 'GET', path: '/v2/deployments', delayMs: Infinity };
  emu.inject({
    method: 'POST',
    bodyTransform: then({ method: 'GET', path: '/v2/deployments', bodyTransform: then(check) }),
  });
}
