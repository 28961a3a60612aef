/**
 * A manifest's previews retired on GitHub together, once every agent was
 * looked up: each environment's deployments marked `inactive` (an agent's
 * own when the environment holds `{agent}`, else the manifest's one, each
 * once), one after the other, and the manifest's one comment rewritten once
 * to say every agent's preview is retired, beside them, within the run's
 * budget. Advisory: it warns, it never throws.
 */
import type { GitHubApi } from '../client/api.js';
import type { AgentRetireReport, Retirement } from '../../run/ports/progress.js';
import { retiredManifestBody } from './agents-retire-comment.js';
import { manifestIdentity } from './agents-comment.js';
import { environmentOf, recordGroups, type ManifestOnGitHub } from './agents-records.js';
import { description } from './deployment-record.js';
import type { PullRequestComment } from './pr-comment.js';
import { sameRetiredBody } from './retire-comment.js';
import { markInactive, type RecordsRetired } from './retire-records.js';
import type { RetireParts, RetireTarget } from './retirement.js';

/** Where a manifest's previews are retired on GitHub. */
export interface ManifestTarget {
  manifest: ManifestOnGitHub;
  /** The step's `environment`, which an agent's own overrides; `{agent}` its name. */
  environment: string;
  /** The manifest's comment on the pull request; undefined: none is asked for. */
  comment: PullRequestComment | undefined;
  pullRequestState?: RetireTarget['pullRequestState'];
}

/** Every environment of an agent looked up, marked inactive, one environment after the other. */
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

/** Retires every looked-up agent's preview where `target` says; each agent's retirement by key. */
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
      : comment.rewrite(
          manifestIdentity(manifest),
          () =>
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
          {},
          sameRetiredBody,
        ),
  ]);
  const retirements = new Map<string, Retirement>();
  for (const agent of manifest.agents) {
    if (!looked.has(agent.key)) continue;
    const environment = environmentOf(agent, target.environment);
    const marked = records.get(environment);
    retirements.set(
      agent.key,
      marked === undefined
        ? { found: 0, inactive: 0, more: false, comment: rewritten }
        : {
            environment,
            found: marked.found,
            inactive: marked.inactive,
            alreadyInactive: marked.already,
            more: marked.more,
            comment: rewritten,
          },
    );
  }
  return retirements;
}
