/** What the run hands to later steps (flat, or keyed by agent) and what a dry run prints; every secret value `***` first. */
import { MASK } from '../../common/redact.js';
import { CREATE_CALL } from '../../service/endpoints.js';
import { fillDashboardUrl } from '../../inputs/dashboard-url.js';
import type { DeployResult } from './deploy.js';
import type { DeployedEntry, DeploymentEntry, DriftEntry, HealthSeen } from '../ports/findings.js';
import type { DeployedResult, DeploymentSummary } from '../ports/summaries.js';
import type { Deployment } from '../../service/schemas.js';

/** As action.yml declares them. */
export const OUTPUT_NAMES = [
  'deployment-id',
  'status',
  'created',
  'latest-revision-id',
  'active-revision-id',
  'repo-url',
  'repo-ref',
  'deployment',
  'live',
  'healthy',
  'health-status',
  'commit-sha',
  'drift',
  'url',
  'dashboard-url',
  'deployments',
] as const;
type OutputName = (typeof OUTPUT_NAMES)[number];
export type Outputs = Partial<Record<OutputName, string>>;

export function redactDeployment<T extends { secrets: { value: string }[] }>(item: T): T {
  return { ...item, secrets: item.secrets.map((secret) => ({ ...secret, value: MASK })) };
}

/** A codehost deployment's repository and ref: as sent when this run created it (or would), else live. */
export function repositoryOf(result: DeployedResult): { url?: string; ref?: string } {
  const { request, deployment } = result;
  const described = result.created || deployment === undefined ? request : deployment;
  if ((request ?? deployment)?.source !== 'codehost' || described === undefined) return {};
  return {
    url: described.source_config.repo_url ?? undefined,
    ref: described.source_revision_config.repo_ref ?? undefined,
  };
}

export function dashboardUrlOf(template: string | undefined, deployment: Deployment) {
  const { id, tenant_id, name } = deployment;
  return template === undefined ? undefined : fillDashboardUrl(template, { id, tenant_id, name });
}

/** The fields the flat outputs and a keyed entry share, in their order. */
function linksOf(deployment: Deployment | undefined, dashboardTemplate: string | undefined) {
  return {
    'commit-sha': deployment?.source_revision_config.repo_commit_sha ?? '',
    url: deployment?.source_config.custom_url ?? '',
    'dashboard-url': (deployment && dashboardUrlOf(dashboardTemplate, deployment)) ?? '',
  };
}

/** `deployment`: the latest state seen. */
export function outputsOf(
  result: DeployedResult,
  deployment: Deployment | undefined,
  assessment: { live: boolean; drift: DriftEntry[]; health?: HealthSeen },
  dashboardTemplate?: string,
): Outputs {
  const repository = repositoryOf(result);
  const outputs: Outputs = {
    created: String(result.created),
    'repo-url': repository.url ?? '',
    'repo-ref': repository.ref ?? '',
    live: String(assessment.live),
    healthy: assessment.health === undefined ? '' : String(assessment.health.ok),
    'health-status': String(assessment.health?.status ?? ''),
    drift: JSON.stringify(assessment.drift),
  };
  if (deployment === undefined) return outputs;
  return {
    ...outputs,
    'deployment-id': deployment.id,
    status: deployment.status,
    'latest-revision-id': deployment.latest_revision_id ?? '',
    'active-revision-id': deployment.active_revision_id ?? '',
    deployment: JSON.stringify(redactDeployment(deployment)),
    ...linksOf(deployment, dashboardTemplate),
  };
}

export function dryRunReport(result: DeployResult): string {
  const body = redactDeployment(result.request);
  const what =
    result.deployment === undefined
      ? `dry run: ${CREATE_CALL} would send`
      : `dry run: '${result.deployment.name}' exists, so nothing would be sent; a create would send`;
  return `${what}:\n${JSON.stringify(body, null, 2)}`;
}

/** An agent's entry as far as its run knows it (nothing yet: an empty entry). */
export function deploymentEntry(
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
    ...linksOf(deployment, known?.spec.dashboardUrl),
    'drift-count': known?.drift?.length ?? 0,
    healthy: health === undefined ? null : health.ok,
    'health-status': String(health?.status ?? ''),
    'github-deployment-id': '',
    ...(failure === undefined ? {} : { error: failure }),
  };
}

/**
 * A manifest's outputs: `deployments`, one line of JSON keyed by agent, small whatever the
 * manifest (a count of differences, not their list, which the summary and `--json` hold).
 */
export function keyedOutputs(entries: ReadonlyMap<string, DeploymentEntry>) {
  const { live, healthy } = manifestLiveness(entries.values());
  return {
    deployments: JSON.stringify(Object.fromEntries(entries)),
    live: live === null ? '' : String(live),
    healthy: healthy === null ? '' : String(healthy),
  };
}

/**
 * Of the agents deployed (one the pull request does not change is neither): live only when every
 * one is (null: none deployed); healthy only when every one checked answered (null: none checked).
 */
export function manifestLiveness(entries: Iterable<DeploymentEntry>) {
  const all = [...entries].filter((entry): entry is DeployedEntry => !('skipped' in entry));
  const checked = all.filter((entry) => entry.healthy !== null);
  return {
    live: all.length === 0 ? null : all.every((entry) => entry.live),
    healthy: checked.length === 0 ? null : checked.every((entry) => entry.healthy === true),
  };
}
