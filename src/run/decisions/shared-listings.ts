/**
 * An integration's repository listing read once for every agent of a run
 * (`RunDependencies.repositories`): the first agent that asks starts the
 * request, the others take its answer, and a listing that fails is the same
 * failure for every agent that asked for it. Integration ids are uuids, so
 * one written in capitals is the same integration.
 */
import type { Service } from '../../service/endpoints.js';
import type { Repository } from '../../service/schemas.js';

/** The listing of each integration, read once: each caller gets its own copy of the list. */
export function sharedListings(
  service: Pick<Service, 'listRepositories'>,
): (integrationId: string) => Promise<Repository[]> {
  const listings = new Map<string, Promise<Repository[]>>();
  return async (integrationId) => {
    const key = integrationId.toLowerCase();
    let listing = listings.get(key);
    if (listing === undefined) {
      listing = service.listRepositories(integrationId);
      listings.set(key, listing);
    }
    return [...(await listing)];
  };
}
