/**
 * A retired preview's GitHub deployments, each given one `inactive` status
 * (each id once, however pages move). Advisory and bounded: the first
 * refused or unanswered call ends it (the next would fail alike), and what
 * is left is counted in one warning. Idempotent: one already `inactive` is
 * counted and skipped without a write.
 */
import type { GitHubApi } from '../client/api.js';
import type { DeploymentStatusRequest, Repo } from '../client/requests.js';
import { MAX_DEPLOYMENT_PAGES, PER_PAGE } from '../client/pages.js';
import type { Logger } from '../../common/runtime.js';

export interface RecordsRetired {
  found: number;
  inactive: number;
  /** Already `inactive`: nothing was written to them. */
  already: number;
  /** The listing stopped at its page cap. */
  more: boolean;
}

export async function markInactive(
  api: GitHubApi,
  repository: Repo,
  environment: string,
  status: Omit<DeploymentStatusRequest, 'state'>,
  logger: Logger,
  maxPages = MAX_DEPLOYMENT_PAGES,
): Promise<RecordsRetired> {
  const ids: number[] = [];
  const walked = await api.walkDeployments(
    repository,
    environment,
    (page) => {
      ids.push(...page.map((deployment) => deployment.id));
      return 'more';
    },
    maxPages,
  );
  // The failed listing was warned about: nothing is known to mark.
  if (!walked.ok) return { found: 0, inactive: 0, already: 0, more: false };
  const body = { state: 'inactive' as const, ...status };
  let inactive = 0;
  let already = 0;
  for (const id of ids) {
    const latest = await api.latestStatus(repository, id);
    if (!latest.ok) break;
    if (latest.value === 'inactive') {
      already += 1;
      continue;
    }
    const marked = await api.createDeploymentStatus(repository, id, body);
    if (!marked.ok) break;
    inactive += 1;
  }
  const left = ids.length - inactive - already;
  if (left > 0) {
    logger.warning(
      `GitHub: ${left} of the ${ids.length} deployments of environment '${environment}' were not marked inactive (the GitHub call above failed, so the step sent no more); they still show as active. Re-run the job to mark them.`,
    );
  }
  const more = !walked.value.ended;
  if (more) {
    logger.warning(
      `GitHub: environment '${environment}' has more than ${maxPages * PER_PAGE} deployments; the step read the newest ${maxPages * PER_PAGE} and no further, so older ones may still show as active.`,
    );
  }
  return { found: ids.length, inactive, already, more };
}
