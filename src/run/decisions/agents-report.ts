/**
 * What a deploy of several agents hands to later steps: `deployments`, one
 * line of JSON keyed by agent, small whatever the manifest (a count of the
 * differences, not their list, which the summary and the command's `--json`
 * hold), and `live`, true only when every agent is live.
 */
import type { DeploymentEntry } from '../ports/findings.js';
import type { DeploymentSummary } from '../ports/summaries.js';
import { dashboardUrlOf } from './report.js';

/**
 * An agent's entry from its deployment's result as far as its run knows it (none yet: an
 * empty entry), and its failure once it failed.
 */
export function agentEntry(
  name: string,
  known?: DeploymentSummary,
  failure?: string,
): DeploymentEntry {
  const deployment = known?.deployment;
  const health = known?.liveness?.health;
  return {
    name,
    'deployment-id': deployment?.id ?? '',
    status: deployment?.status ?? '',
    created: known?.result?.created === true,
    live: known?.liveness?.live === true,
    'commit-sha': deployment?.source_revision_config.repo_commit_sha ?? '',
    url: deployment?.source_config.custom_url ?? '',
    'dashboard-url': (deployment && dashboardUrlOf(known?.spec.dashboardUrl, deployment)) ?? '',
    'drift-count': known?.drift?.length ?? 0,
    healthy: health === undefined ? null : health.ok,
    'health-status': String(health?.status ?? ''),
    'github-deployment-id': '',
    ...(failure === undefined ? {} : { error: failure }),
  };
}

/** The manifest's outputs from every agent's entry, in the manifest's order. */
export function agentsOutputs(entries: ReadonlyMap<string, DeploymentEntry>): {
  deployments: string;
  live: string;
  healthy: string;
} {
  const all = [...entries.values()];
  const checked = all.filter((entry) => entry.healthy !== null);
  return {
    deployments: JSON.stringify(Object.fromEntries(entries)),
    live: String(all.length > 0 && all.every((entry) => entry.live)),
    // Empty when no agent was checked; else true only when every agent checked answered.
    healthy: checked.length === 0 ? '' : String(checked.every((entry) => entry.healthy === true)),
  };
}
