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
  /** Whose deployments are marked inactive, none when empty; a manifest's agent's own overrides it. */
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
  const { environment, comment, pullRequestState } = target;
  const body = () =>
    retiredCommentBody(withRunUrl({ ...report, pullRequestState }, parts.runUrl), parts.redact);
  const [records, rewritten] = await Promise.all([
    environment === '' ? undefined : markRecords(api, report, environment, parts),
    comment === undefined ? ('skipped' as const) : comment.rewrite(report.name, body),
  ]);
  return retirementOf(environment, records, rewritten);
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
  parts: RetireParts,
): Promise<RecordsRetired> {
  const count = report.deployments.length;
  const still =
    count === 1 ? 'its deployment still exists' : `its ${count} deployments still exist`;
  const what = count === 0 ? '' : `; ${still} in the service`;
  return markAll(api, environment, `${report.name}: preview retired${what}`, parts);
}

/** `environment`'s deployments marked inactive, `text` their status's description. */
function markAll(api: GitHubApi, environment: string, text: string, parts: RetireParts) {
  const { repository, runUrl, logger, redact } = parts;
  const status = {
    description: description(redact(text)),
    ...(runUrl === undefined ? {} : { log_url: runUrl }),
  };
  return markInactive(api, repository, environment, status, logger);
}

interface ManifestTarget extends RetireTarget {
  manifest: ManifestOnGitHub;
}

/** Every environment of an agent looked up, one after the other. */
async function markEnvironments(
  api: GitHubApi,
  target: ManifestTarget,
  looked: ReadonlySet<string>,
  parts: RetireParts,
): Promise<Map<string, RecordsRetired>> {
  const marked = new Map<string, RecordsRetired>();
  for (const [environment, agents] of recordGroups(target.manifest, target.environment)) {
    if (!agents.some((agent) => looked.has(agent.key))) continue;
    const [one] = agents;
    const what =
      agents.length === 1 && one !== undefined
        ? `${one.deploymentName}: preview retired`
        : `${agents.length} agents: previews retired`;
    const text = `${what}; see the pull request's comment`;
    marked.set(environment, await markAll(api, environment, text, parts));
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
