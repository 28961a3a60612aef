/** What the agents of one run share (each-agent.ts makes it): slots, and one listing an integration. */
import type { Service } from '../../service/endpoints.js';
import type { Repository } from '../../service/schemas.js';
import type { RunDependencies } from '../ports/dependencies.js';

export interface SharedWork {
  /** Resolves once a slot is free, to the function that frees it (a second call does nothing). */
  take(): Promise<() => void>;
  dependencies: Partial<RunDependencies>;
}

/** At most so many pieces of work at once (the agents' find-or-create), in the order asked. */
export class Slots {
  readonly #size: number;
  #busy = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`Slots need a size of 1 or more, not ${size}`);
    this.#size = size;
  }

  get busy(): number {
    return this.#busy;
  }

  async take(): Promise<() => void> {
    if (this.#busy < this.#size) this.#busy += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // A freed slot goes straight to the next in line, or back to the pool.
      if (next === undefined) this.#busy -= 1;
      else next();
    };
  }
}

/** Runs `work` in a slot (without `share`, at once), freed at its end or when `work` frees it. */
export async function inSlot<T>(
  share: SharedWork | undefined,
  work: (release: () => void) => Promise<T>,
): Promise<T> {
  const release = (await share?.take()) ?? (() => undefined);
  try {
    return await work(release);
  } finally {
    release();
  }
}

/**
 * An integration's listing read once for every agent of a run (a failure is every asker's),
 * each caller getting its own copy. Ids are uuids: one in capitals is the same integration.
 */
export function sharedListings(
  service: Pick<Service, 'listRepositories'>,
): (integrationId: string) => Promise<Repository[]> {
  const listings = new Map<string, Promise<Repository[]>>();
  return async (integrationId) => {
    const key = integrationId.toLowerCase();
    const listing = listings.get(key) ?? service.listRepositories(integrationId);
    listings.set(key, listing);
    return [...(await listing)];
  };
}
