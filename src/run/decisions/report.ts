/**
 * What the run hands to later steps: the outputs (of one deployment, and a
 * manifest's keyed by agent, each agent's entry made from its deployment's
 * value), and what a dry run prints. Every secret value is replaced by `***` first. (How the summary
 * reads is src/views/'s.)
 */
import { MASK } from '../../common/redact.js';
import { CREATE_CALL } from '../../service/endpoints.js';
import { fillDashboardUrl } from '../../inputs/dashboard-url.js';
import type { DeployResult } from './deploy.js';
import type { DeploymentEntry, DriftEntry, HealthSeen } from '../ports/findings.js';
import type { DeployedResult, DeploymentSummary } from '../ports/summaries.js';
import type { Deployment } from '../../service/schemas.js';

/** The names of every output, as action.yml declares them. */
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
export type OutputName = (typeof OUTPUT_NAMES)[number];
export type Outputs = Partial<Record<OutputName, string>>;

/** The deployment (or a request) with every secret value replaced by `***`, names kept. */
export function redactDeployment<T extends { secrets: { value: string }[] }>(item: T): T {
  return { ...item, secrets: item.secrets.map((secret) => ({ ...secret, value: MASK })) };
}

/**
 * The repository and ref of the deployment (codehost): what was sent when
 * this run created it (or would), the live values when it was reused.
 */
export function repositoryOf(result: DeployedResult): { url?: string; ref?: string } {
  const { request, deployment } = result;
  const described = result.created || deployment === undefined ? request : deployment;
  if ((request ?? deployment)?.source !== 'codehost' || described === undefined) return {};
  return {
    url: described.source_config.repo_url ?? undefined,
    ref: described.source_revision_config.repo_ref ?? undefined,
  };
}

/** The `dashboard-url` template filled for the deployment; undefined without a template. */
export function dashboardUrlOf(
  template: string | undefined,
  deployment: Deployment,
): string | undefined {
  if (template === undefined) return undefined;
  const { id, tenant_id, name } = deployment;
  return fillDashboardUrl(template, { id, tenant_id, name });
}

/** The outputs known from a deploy result (and, when waited, its latest state). */
export function outputsOf(
  result: DeployedResult,
  deployment: Deployment | undefined,
  /** What the run judged: whether it is live, what drifted, the health check's last answer. */
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
    'commit-sha': deployment.source_revision_config.repo_commit_sha ?? '',
    url: deployment.source_config.custom_url ?? '',
    'dashboard-url': dashboardUrlOf(dashboardTemplate, deployment) ?? '',
  };
}

/** What a dry run prints: the request body, with every secret value replaced by `***`. */
export function dryRunReport(result: DeployResult): string {
  const body = redactDeployment(result.request);
  const what =
    result.deployment === undefined
      ? `dry run: ${CREATE_CALL} would send`
      : `dry run: '${result.deployment.name}' exists, so nothing would be sent; a create would send`;
  return `${what}:\n${JSON.stringify(body, null, 2)}`;
}

/**
 * An agent's entry from its deployment's result as far as its run knows it (none yet: an
 * empty entry), and its failure once it failed.
 */
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

/**
 * What a deploy of several agents hands to later steps: `deployments`, one line of JSON
 * keyed by agent, small whatever the manifest (a count of the differences, not their list,
 * which the summary and the command's `--json` hold), and `live`, true only when every agent
 * is live; from every agent's entry, in the manifest's order.
 */
export function keyedOutputs(entries: ReadonlyMap<string, DeploymentEntry>): {
  deployments: string;
  live: string;
  healthy: string;
} {
  const { live, healthy } = manifestLiveness(entries.values());
  return {
    deployments: JSON.stringify(Object.fromEntries(entries)),
    live: String(live),
    healthy: healthy === null ? '' : String(healthy),
  };
}

/**
 * A manifest's liveness from its agents' entries: live only when every agent is; healthy
 * only when every agent checked answered (null when none was checked).
 */
export function manifestLiveness(entries: Iterable<DeploymentEntry>): {
  live: boolean;
  healthy: boolean | null;
} {
  const all = [...entries];
  const checked = all.filter((entry) => entry.healthy !== null);
  return {
    live: all.length > 0 && all.every((entry) => entry.live),
    healthy: checked.length === 0 ? null : checked.every((entry) => entry.healthy === true),
  };
}
