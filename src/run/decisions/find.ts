/** The one way to find a deployment by its exact name: the service filters by substring, and does not enforce unique names. */
import { untrusted, type Logger } from '../../common/runtime.js';
import type { Deployment } from '../../service/schemas.js';
import { inGroup, type RunDependencies } from '../ports/dependencies.js';

/** Looked for in a log group of its own; `said` writes what was found there. */
export function findDeployment(
  name: string,
  dependencies: Pick<RunDependencies, 'service' | 'logger' | 'events'>,
  said?: (found: Deployment | undefined) => void,
): Promise<Deployment | undefined> {
  const { service, logger } = dependencies;
  return inGroup(dependencies)(`Looking for deployment '${name}'`, 'find', async () => {
    const found = pickOne(await service.findByName(name), name, logger);
    said?.(found);
    return found;
  });
}

/** Among several of the name: one not being deleted, then the oldest; a warning names every id. */

export function pickOne(found: Deployment[], name: string, logger: Logger): Deployment | undefined {
  const [first, ...others] = [...found].sort(
    (a, b) =>
      Number(a.status === 'AWAITING_DELETE') - Number(b.status === 'AWAITING_DELETE') ||
      Date.parse(a.created_at) - Date.parse(b.created_at),
  );
  if (first === undefined || others.length === 0) return first;
  logger.warning(
    `${found.length} deployments are named '${name}': ${found.map((d) => `${d.id} (${untrusted(d.status)}, created ${untrusted(d.created_at)})`).join(', ')}. Using ${first.id}: not being deleted first, then the oldest. The service does not enforce unique names; delete the others in the service.`,
  );
  return first;
}
