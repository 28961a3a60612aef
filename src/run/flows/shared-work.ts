/**
 * What the agents of one run share, made once: a few slots in which they
 * find or create at once (a waiting agent holds none), one status request
 * a check for every agent that waits, one health check an address a tick,
 * and each integration's repository listing read once.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { RunEvents } from '../ports/events.js';
import type { RunnerIO } from '../ports/runner.js';
import { AddressChecks } from '../decisions/address-pace.js';
import { sharedListings } from '../decisions/shared-listings.js';
import { Slots } from '../decisions/slots.js';
import { StatusChecks } from '../decisions/status-checks.js';
import type { SharedWork } from './pipeline.js';
import { dependenciesOf } from './setup.js';

/** How many agents find or create at once. */
export const AGENTS_AT_ONCE = 4;

/** The work the manifest's agents share, over one service reached with `access`. */
export function sharedWork(
  access: Pick<DeploySpec, 'apiUrl' | 'headers'>,
  io: RunnerIO,
  events: RunEvents,
): SharedWork {
  const dependencies = dependenciesOf(access, io, events);
  const slots = new Slots(AGENTS_AT_ONCE);
  const checks = new StatusChecks(dependencies);
  return {
    take: () => slots.take(),
    dependencies: {
      statusCheck: checks.check,
      repositories: sharedListings(dependencies.service),
      addressCheck: new AddressChecks(dependencies).answer,
    },
  };
}
