/**
 * What the agents of one run share, made once: a few slots in which they
 * find or create at once (a waiting agent holds none), and the service's
 * answers every agent needs alike.
 */
import type { RunEvents } from '../ports/events.js';
import type { RunnerIO } from '../ports/runner.js';
import type { SharedWork } from './pipeline.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';

/** How many agents find or create at once. */
export const AGENTS_AT_ONCE = 4;

/** At most `size` holders at once; the others wait their turn, in order. */
function slots(size: number): SharedWork['take'] {
  let free = size;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next === undefined) free += 1;
    else next();
  };
  return () =>
    new Promise((resolve) => {
      if (free > 0) {
        free -= 1;
        resolve(release);
      } else queue.push(() => resolve(release));
    });
}

/** The work the manifest's agents share. */
export function sharedWork(
  _access: Pick<DeploySpec, 'apiUrl' | 'headers'>,
  _io: RunnerIO,
  _events: RunEvents,
): SharedWork {
  return { take: slots(AGENTS_AT_ONCE), dependencies: {} };
}
