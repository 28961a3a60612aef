/**
 * What the run hands to later steps and shows to people: the outputs, and
 * the job summary. Every secret value is replaced by `***` first.
 */
import { htmlCode, htmlLines, htmlLink, htmlText } from '../../common/github-text.js';
import { MASK } from '../../common/redact.js';
import { boundedSummary, type CutList, type SummaryPart } from '../../common/summary.js';
import { plural, shortSha } from '../../common/text.js';
import { CREATE_CALL } from '../../service/endpoints.js';
import { fillDashboardUrl } from '../../inputs/dashboard-url.js';
import type { Plan } from '../../inputs/plan.js';
import type { DeployResult } from './deploy.js';
import type { DriftEntry } from '../ports/findings.js';
import { showValue } from './drift.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';

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
  'commit-sha',
  'drift',
  'url',
  'dashboard-url',
] as const;
export type OutputName = (typeof OUTPUT_NAMES)[number];
export type Outputs = Partial<Record<OutputName, string>>;

/** The deployment with every secret value replaced by `***`. */
export function redactDeployment(deployment: Deployment): Deployment {
  return {
    ...deployment,
    secrets: deployment.secrets.map((secret) => ({ ...secret, value: MASK })),
  };
}

/**
 * The repository and ref of the deployment (codehost): what was sent when
 * this run created it (or would), the live values when it was reused.
 */
export function repositoryOf(result: DeployResult): { url?: string; ref?: string } {
  if (result.request.source !== 'codehost') return {};
  const described =
    result.created || result.deployment === undefined ? result.request : result.deployment;
  return {
    url: described.source_config.repo_url ?? undefined,
    ref: described.source_revision_config.repo_ref ?? undefined,
  };
}

/** What the run judged of the deployment: whether it is live, and what drifted. */
export interface Assessment {
  live: boolean;
  drift: DriftEntry[];
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
  result: DeployResult,
  deployment: Deployment | undefined,
  assessment: Assessment,
  dashboardTemplate?: string,
): Outputs {
  const repository = repositoryOf(result);
  const outputs: Outputs = {
    created: String(result.created),
    'repo-url': repository.url ?? '',
    'repo-ref': repository.ref ?? '',
    live: String(assessment.live),
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
  const body = {
    ...result.request,
    secrets: result.request.secrets.map((secret) => ({ ...secret, value: MASK })),
  };
  const what =
    result.deployment === undefined
      ? `dry run: ${CREATE_CALL} would send`
      : `dry run: '${result.deployment.name}' exists, so nothing would be sent; a create would send`;
  return `${what}:\n${JSON.stringify(body, null, 2)}`;
}

export interface SummaryInput {
  plan: Pick<Plan, 'name' | 'source' | 'dryRun' | 'dashboardUrl'>;
  result?: DeployResult;
  /**
   * What the run asked for when it has no result (a failed create): its
   * resolved repository and ref are still what the run deployed from.
   */
  request?: DeploymentCreateRequest;
  /** The latest state of the deployment (after waiting), if any. */
  deployment?: Deployment;
  /** Whether it is live, and the commit live instead of a superseded target. */
  liveness?: { live: boolean; supersededBy?: string; missing?: string };
  /** The targeted commit, if any. */
  target?: string;
  drift?: DriftEntry[];
  /** The failure, already redacted, when the run failed. */
  failure?: string;
  /** The commit the workflow runs for (GITHUB_SHA). */
  commit?: string;
  /** Removes secret values from a text, before it is escaped. */
  redact?: (text: string) => string;
}

export type Cell = (value: string | null | undefined) => string;

/**
 * A cell of the summary, written by the one GitHub-text module: secret values
 * removed first (they could not be found once escaped), then text or code.
 */
export const cellOf =
  (redact: (text: string) => string, write: (text: string) => string): Cell =>
  (value) =>
    value === undefined || value === null || value === '' ? '—' : write(redact(value));

function outcomeOf(result: DeployResult | undefined, shown: Deployment | undefined): string {
  if (result === undefined) return '—';
  if (result.created) return 'created';
  return shown === undefined ? 'would be created (dry run)' : 'reused';
}

function liveCell(liveness: SummaryInput['liveness']): string | undefined {
  if (liveness === undefined) return undefined;
  if (!liveness.live) return `no: ${liveness.missing ?? 'not live'}`;
  return liveness.supersededBy === undefined
    ? 'yes'
    : `yes: commit ${shortSha(liveness.supersededBy)} of a newer push is live instead of the target`;
}

/**
 * The deployment type's row, when the step set one or the deployment has one:
 * on reuse the deployment's own (a different wish is drift, shown below), else
 * the service's answer, or what was (or would be) sent.
 */
function typeRow(
  result: DeployResult | undefined,
  shown: Deployment | undefined,
  code: Cell,
): [string, string][] {
  if (result === undefined) return [];
  const live = shown?.source_config.deployment_type ?? undefined;
  const asked = result.request.source_config.deployment_type ?? undefined;
  if (live === undefined && asked === undefined) return [];
  const reused = !result.created && result.deployment !== undefined;
  return [['Deployment type', code(reused ? live : (live ?? asked))]];
}

/** A table of labelled cells, one row a label. */
export function labelledTable(rows: [string, string][]): string {
  const body = rows
    .map(([label, value]) => `<tr><th align="left">${label}</th><td>${value}</td></tr>`)
    .join('\n');
  return `<table>\n${body}\n</table>`;
}

/**
 * A table of differences (drift): one row a field, its wanted and live values,
 * secrets `***`; as many rows as fit in the summary, and a count of the others.
 */
export function differencesTable(
  drift: DriftEntry[],
  code: Cell,
  wants: string,
  has: string,
  head = '',
): CutList {
  return {
    head: `${head}<table>\n<tr><th>Field</th><th>${wants}</th><th>${has}</th></tr>`,
    lines: drift.map(
      (entry) =>
        `<tr><td>${code(entry.field)}</td><td>${code(showValue(entry.wanted))}</td><td>${code(showValue(entry.live))}</td></tr>`,
    ),
    tail: '\n</table>',
    leftOut: (count) =>
      `<p>… and ${count} more, left out to keep this summary under GitHub's limit: every one is in the step's log.</p>`,
  };
}

/** The drift section of the summary, when anything drifted. */
function driftTable(drift: DriftEntry[], code: Cell): SummaryPart[] {
  if (drift.length === 0) return [];
  return [
    differencesTable(
      drift,
      code,
      'Step wants',
      'Deployment has',
      `<h3>⚠️ Drift: not applied</h3>\n<p>The service cannot update a deployment: change ${plural(drift.length, 'it', 'them')} in the service, or deploy under a new name.</p>\n`,
    ),
  ];
}

/**
 * The failure in a `<pre>`, its lines kept (the action's messages span
 * lines; text from the service in them is already on one line each) but no
 * blank one, so the block cannot end before its closing tag.
 */
function failureBlock(failure: string | undefined, redact: (text: string) => string): string[] {
  if (failure === undefined) return [];
  return [`<p><strong>Error:</strong></p>\n<pre>${htmlLines(redact(failure))}</pre>`];
}

/** The job summary as HTML: a heading, a table of the deployment, drift, the failure if any. */
export function summaryHtml(input: SummaryInput): string {
  const { plan, result, failure, commit } = input;
  const redact = input.redact ?? ((text: string) => text);
  const text = cellOf(redact, (value) => htmlText(value));
  const code = cellOf(redact, (value) => htmlCode(value));
  const shown = input.deployment ?? result?.deployment;
  const asked = result ?? (input.request && { request: input.request, created: false });
  const repository = asked === undefined ? {} : repositoryOf(asked);
  // Each row: its label, and its cell already written (text, code or a link).
  const rows: [string, string][] = [
    ['Name', code(plan.name)],
    ['Id', code(shown?.id)],
    ['Status', code(shown?.status)],
    ['Outcome', text(outcomeOf(result, shown))],
    ['Live', text(liveCell(input.liveness))],
    ['Source', code(plan.source)],
    ...typeRow(result, shown, code),
    ['Repository', code(repository.url)],
    ['Ref', code(repository.ref)],
    ['Target commit', code(shortSha(input.target))],
    ['Latest revision', code(shown?.latest_revision_id)],
    ['Latest revision commit', code(shortSha(shown?.source_revision_config.repo_commit_sha))],
    ['Active revision', code(shown?.active_revision_id)],
    ['Workflow commit', code(shortSha(commit))],
  ];
  // Links the action builds, to addresses the address rule lets through; else no row.
  const address = (value: string | null | undefined) =>
    value === undefined || value === null ? undefined : htmlLink(redact(value), value);
  const url = address(shown?.source_config.custom_url);
  const dashboard = address(
    shown === undefined ? undefined : dashboardUrlOf(plan.dashboardUrl, shown),
  );
  if (url !== undefined) rows.splice(2, 0, ['URL', url]);
  if (dashboard !== undefined) rows.splice(2, 0, ['Dashboard', dashboard]);
  const title =
    failure !== undefined
      ? '❌ Deployment failed'
      : plan.dryRun
        ? '🔎 Deployment (dry run)'
        : '🚀 Deployment';
  return (
    boundedSummary([
      `<h2>${title}: ${code(plan.name)}</h2>\n${labelledTable(rows)}`,
      ...driftTable(input.drift ?? [], code),
      ...failureBlock(failure, redact),
    ]) + '\n'
  );
}
