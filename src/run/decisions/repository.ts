/**
 * Which repository a codehost deploy builds from: the integration's listed entry for the
 * step's `repository` (on its host, when known), exact, else case-insensitive; else an error
 * that says what the integration does list.
 */
import { ActionError } from '../../common/errors.js';
import { untrusted } from '../../common/runtime.js';
import type { CodehostSpec } from '../../inputs/deploy-spec.js';
import type { Service } from '../../service/endpoints.js';
import type { Repository } from '../../service/schemas.js';

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
