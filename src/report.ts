/**
 * What the run hands to later steps and shows to people: the outputs, and
 * the job summary. Every secret value is replaced by `***` first.
 */
import { MASK } from './redact.js';
import type { Plan } from './inputs.js';
import type { DeployResult } from './deploy.js';
import type { Deployment } from './schemas.js';

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

/** The outputs known from a deploy result (and, when waited, its latest state). */
export function outputsOf(result: DeployResult, deployment = result.deployment): Outputs {
  const outputs: Outputs = {
    created: String(result.created),
    'repo-url': result.repository?.url ?? '',
    'repo-ref': result.repoRef ?? '',
  };
  if (deployment === undefined) return outputs;
  return {
    ...outputs,
    'deployment-id': deployment.id,
    status: deployment.status,
    'latest-revision-id': deployment.latest_revision_id ?? '',
    'active-revision-id': deployment.active_revision_id ?? '',
    deployment: JSON.stringify(redactDeployment(deployment)),
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
      ? 'dry run: POST /v2/deployments would send'
      : `dry run: '${result.deployment.name}' exists, so nothing would be sent; a create would send`;
  return `${what}:\n${JSON.stringify(body, null, 2)}`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '|': '&#124;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'|]/g, (character) => HTML_ESCAPES[character] ?? character);
}

export interface SummaryInput {
  plan: Pick<Plan, 'name' | 'source' | 'dryRun'>;
  result?: DeployResult;
  /** The latest state of the deployment (after waiting), if any. */
  deployment?: Deployment;
  /** The failure, already redacted, when the run failed. */
  failure?: string;
  /** The commit the workflow runs for (GITHUB_SHA). */
  commit?: string;
}

/** The job summary as HTML: a heading, a table of the deployment, the failure if any. */
export function summaryHtml({ plan, result, deployment, failure, commit }: SummaryInput): string {
  const shown = deployment ?? result?.deployment;
  const outcome =
    result === undefined
      ? '—'
      : result.created
        ? 'created'
        : shown === undefined
          ? 'would be created (dry run)'
          : 'reused';
  const rows: [string, string | null | undefined][] = [
    ['Name', plan.name],
    ['Id', shown?.id],
    ['Status', shown?.status],
    ['Outcome', outcome],
    ['Source', plan.source],
    ['Repository', result?.repository?.url],
    ['Ref', result?.repoRef],
    ['Latest revision', shown?.latest_revision_id],
    ['Active revision', shown?.active_revision_id],
    ['Workflow commit', commit?.slice(0, 12)],
  ];
  const cell = (value: string | null | undefined) =>
    value === undefined || value === null || value === '' ? '—' : escapeHtml(value);
  const table = rows
    .map(([label, value]) => `<tr><th align="left">${label}</th><td>${cell(value)}</td></tr>`)
    .join('\n');
  const title =
    failure !== undefined
      ? '❌ Deployment failed'
      : plan.dryRun
        ? '🔎 Deployment (dry run)'
        : '🚀 Deployment';
  const failureBlock =
    failure === undefined
      ? ''
      : `\n<p><strong>Error:</strong></p>\n<pre>${escapeHtml(failure)}</pre>`;
  return `<h2>${title}: ${escapeHtml(plan.name)}</h2>\n<table>\n${table}\n</table>${failureBlock}\n`;
}
