/**
 * An integration's listing read once for every agent of a run (a failure is every asker's),
 * each caller getting its own copy. Ids are uuids: one in capitals is the same integration.
 */
import type { Service } from '../../service/endpoints.js';
import type { Repository } from '../../service/schemas.js';

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
