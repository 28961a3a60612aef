/**
 * Previews retired on GitHub (retire step, sweep): each environment's
 * deployments marked `inactive` (an environment once, one after the other)
 * and the comment rewritten unless it already says so. Advisory: it warns,
 * it never throws.
 */
import type { GitHubApi } from '../client/api.js';
import type { Repo } from '../client/requests.js';
import type { Logger } from '../../common/runtime.js';
import type { AgentRetireReport, RetireReport, Retirement } from '../../run/ports/progress.js';
import { manifestIdentity } from './comment-marker.js';
import {
  description,
  environmentOf,
  recordGroups,
  type ManifestOnGitHub,
} from './deployment-record.js';
import type { PullRequestComment } from './pr-comment.js';
import { withRunUrl } from './context.js';
import { retiredCommentBody, retiredManifestBody } from './retire-comment.js';
import { markInactive, type RecordsRetired } from './retire-records.js';

interface RetireTarget {
  /** Whose deployments are marked inactive; none when empty. */
  environment: string;
  /** Undefined: none is asked for. */
  comment: PullRequestComment | undefined;
  pullRequestState?: 'merged' | 'closed' | 'open' | undefined;
}

interface RetireParts {
  repository: Repo;
  runUrl?: string | undefined;
  logger: Logger;
  redact: (text: string) => string;
}

export async function retirePreview(
  api: GitHubApi,
  report: RetireReport,
  target: RetireTarget,
  parts: RetireParts,
): Promise<Retirement> {
  const [records, comment] = await Promise.all([
    target.environment === '' ? undefined : markRecords(api, report, target.environment, parts),
    target.comment === undefined
      ? ('skipped' as const)
      : rewriteComment(target.comment, report, target.pullRequestState, parts),
  ]);
  return retirementOf(target.environment, records, comment);
}

function retirementOf(
  environment: string,
  records: RecordsRetired | undefined,
  comment: Retirement['comment'],
): Retirement {
  if (records === undefined) return { found: 0, inactive: 0, more: false, comment };
  const { found, inactive, already, more } = records;
  return { environment, found, inactive, more, alreadyInactive: already, comment };
}

/** Each preview retired on its own, one after the other. */
export async function eachRetired(
  reports: readonly AgentRetireReport[],
  retire: (report: RetireReport) => Promise<Retirement>,
): Promise<Map<string, Retirement>> {
  const retirements = new Map<string, Retirement>();
  for (const { key, report } of reports) retirements.set(key, await retire(report));
  return retirements;
}

function markRecords(
  api: GitHubApi,
  report: RetireReport,
  environment: string,
  { repository, runUrl, logger, redact }: RetireParts,
): Promise<RecordsRetired> {
  const count = report.deployments.length;
  const still =
    count === 1 ? 'its deployment still exists' : `its ${count} deployments still exist`;
  const what = count === 0 ? '' : `; ${still} in the service`;
  return markInactive(
    api,
    repository,
    environment,
    {
      description: description(redact(`${report.name}: preview retired${what}`)),
      ...(runUrl === undefined ? {} : { log_url: runUrl }),
    },
    logger,
  );
}

function rewriteComment(
  comment: PullRequestComment,
  report: RetireReport,
  pullRequestState: RetireTarget['pullRequestState'],
  { runUrl, redact }: RetireParts,
): Promise<Retirement['comment']> {
  const body = () =>
    retiredCommentBody(
      withRunUrl(
        { ...report, ...(pullRequestState === undefined ? {} : { pullRequestState }) },
        runUrl,
      ),
      redact,
    );
  return comment.rewrite(report.name, body);
}

interface ManifestTarget {
  manifest: ManifestOnGitHub;
  /** The step's `environment`, which an agent's own overrides. */
  environment: string;
  comment: PullRequestComment | undefined;
  pullRequestState?: RetireTarget['pullRequestState'];
}

/** Every environment of an agent looked up, one after the other. */
async function markEnvironments(
  api: GitHubApi,
  target: ManifestTarget,
  looked: ReadonlySet<string>,
  { repository, runUrl, logger, redact }: RetireParts,
): Promise<Map<string, RecordsRetired>> {
  const marked = new Map<string, RecordsRetired>();
  for (const [environment, agents] of recordGroups(target.manifest, target.environment)) {
    if (!agents.some((agent) => looked.has(agent.key))) continue;
    const [one] = agents;
    const what =
      agents.length === 1 && one !== undefined
        ? `${one.deploymentName}: preview retired`
        : `${agents.length} agents: previews retired`;
    const status = {
      description: description(redact(`${what}; see the pull request's comment`)),
      ...(runUrl === undefined ? {} : { log_url: runUrl }),
    };
    marked.set(environment, await markInactive(api, repository, environment, status, logger));
  }
  return marked;
}

export async function retireManifest(
  api: GitHubApi,
  reports: readonly AgentRetireReport[],
  target: ManifestTarget,
  parts: RetireParts,
): Promise<Map<string, Retirement>> {
  const { manifest, comment } = target;
  const looked = new Set(reports.map(({ key }) => key));
  const [records, rewritten] = await Promise.all([
    markEnvironments(api, target, looked, parts),
    comment === undefined
      ? ('skipped' as const)
      : comment.rewrite(manifestIdentity(manifest), () =>
          retiredManifestBody(
            {
              manifest,
              reports,
              pullRequestState: target.pullRequestState,
              runUrl: parts.runUrl,
            },
            comment.body,
            parts.redact,
          ),
        ),
  ]);
  const retirements = new Map<string, Retirement>();
  for (const agent of manifest.agents) {
    if (!looked.has(agent.key)) continue;
    const environment = environmentOf(agent, target.environment);
    retirements.set(agent.key, retirementOf(environment, records.get(environment), rewritten));
  }
  return retirements;
}
