/**
 * The one way to find a deployment by its exact name (the service filters by substring, and
 * does not enforce unique names), and which repository a codehost deploy builds from: the
 * integration's listed entry for the step's `repository` (on its host, when known), exact,
 * else case-insensitive; else an error that says what the integration does list.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted, type Logger } from '../../common/runtime.js';
import type { CodehostSpec } from '../../inputs/deploy-spec.js';
import type { Service } from '../../service/endpoints.js';
import type { Deployment, Repository } from '../../service/schemas.js';
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

/** Repositories named in the error when the wanted one is not listed. */
const REPOSITORIES_SHOWN = 5;

export const fullName = (repository: { owner: string; name: string }) =>
  `${repository.owner}/${repository.name}`;

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).hostname.toLowerCase() : '');

/** `repositories`: a listing several agents share; else the service's own. */
export async function resolveRepository(
  service: Service,
  spec: CodehostSpec,
  repositories?: (integrationId: string) => Promise<Repository[]>,
): Promise<Repository> {
  const { host } = spec.repository;
  const listed = await (repositories ?? ((id) => service.listRepositories(id)))(spec.integrationId);
  const onHost = host === undefined ? listed : listed.filter((entry) => hostOf(entry.url) === host);
  const name = fullName(spec.repository);
  const match =
    onHost.find((repository) => fullName(repository) === name) ??
    onHost.find((repository) => fullName(repository).toLowerCase() === name.toLowerCase());
  if (match !== undefined) return match;
  const wanted = host === undefined ? name : `${name} on ${host}`;
  if (onHost.length === 0) {
    const where = host === undefined || listed.length === 0 ? '' : ` on ${host}`;
    throw new ActionError(
      `Repository ${wanted} is not available to integration ${spec.integrationId}: the integration lists no repositories${where}. Grant the integration access to ${wanted}.`,
    );
  }
  const shown = onHost.slice(0, REPOSITORIES_SHOWN).map((r) => untrusted(fullName(r)));
  const more =
    onHost.length > REPOSITORIES_SHOWN ? ` and ${onHost.length - REPOSITORIES_SHOWN} more` : '';
  throw new ActionError(
    `Repository ${wanted} is not available to integration ${spec.integrationId}. It lists: ${shown.join(', ')}${more}. Check ${service.words.repository}, or grant the integration access to ${wanted}.`,
  );
}
