/**
 * The deploy's summary (and `status`'s): a heading, a table of the
 * deployment, its drift, the failure if any.
 */
import { htmlCode, htmlLines, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary, type SummaryPart } from '../common/summary.js';
import { plural, shortSha } from '../common/text.js';
import type { DriftEntry, HealthSeen } from '../run/ports/findings.js';
import type { DeployedResult, SummaryInput } from '../run/ports/summaries.js';
import { healthWords } from '../run/decisions/health.js';
import { dashboardUrlOf, repositoryOf } from '../run/decisions/report.js';
import type { Deployment } from '../service/schemas.js';
import { cellOf, differencesTable, labelledTable, type Cell } from './html-parts.js';

function outcomeOf(result: DeployedResult | undefined, shown: Deployment | undefined): string {
  if (result === undefined) return '—';
  if (result.created) return 'created';
  return shown === undefined ? 'would be created (dry run)' : 'reused';
}

export function liveCell(liveness: SummaryInput['liveness']): string | undefined {
  if (liveness === undefined) return undefined;
  if (!liveness.live) return `no: ${liveness.missing ?? 'not live'}`;
  return liveness.supersededBy === undefined
    ? 'yes'
    : `yes: commit ${shortSha(liveness.supersededBy)} of a newer push is live instead of the target`;
}

/**
 * What the health check answered, as a cell: its address (without query),
 * the answer (`answers 200`, `503 Service Unavailable`, the network's error),
 * and the start of a failing answer's body; none when no check was made.
 */
export function healthCell(
  health: HealthSeen | undefined,
  text: Cell,
  code: Cell,
): string | undefined {
  if (health === undefined) return undefined;
  return `${health.ok ? '✅' : '❌'} ${healthWords(health, { text, code }, '<br>')}`;
}

/**
 * The deployment type's row, when the step set one or the deployment has one:
 * on reuse the deployment's own (a different wish is drift, shown below), else
 * the service's answer, or what was (or would be) sent.
 */
function typeRow(
  result: DeployedResult | undefined,
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

/** The drift section of the summary, when anything drifted. */
export function driftTable(drift: DriftEntry[], code: Cell): SummaryPart[] {
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
export function failureBlock(
  failure: string | undefined,
  redact: (text: string) => string,
): string[] {
  if (failure === undefined) return [];
  return [`<p><strong>Error:</strong></p>\n<pre>${htmlLines(redact(failure))}</pre>`];
}

/** The health check's cell when one asked for was not made (the run said why). */
export function healthNotMade({ healthNotMade: why }: SummaryInput): string | undefined {
  return why === undefined ? undefined : `not made: ${why} (not waiting)`;
}

/** The health check's row, when a check was made or one asked for was not. */
function healthRow(input: SummaryInput, text: Cell, code: Cell): [string, string][] {
  const notMade = healthNotMade(input);
  const cell = healthCell(input.liveness?.health, text, code);
  if (cell !== undefined) return [['Health check', cell]];
  return notMade === undefined ? [] : [['Health check', text(notMade)]];
}

/** The rows of the deployment's table, each cell already written (text, code or a link). */
function deploymentRows(input: SummaryInput, redact: (text: string) => string): [string, string][] {
  const { spec, result, commit } = input;
  const text = cellOf(redact, (value) => htmlText(value));
  const code = cellOf(redact, (value) => htmlCode(value));
  const shown = input.deployment ?? result?.deployment;
  const asked = result ?? (input.request && { request: input.request, created: false });
  const repository = asked === undefined ? {} : repositoryOf(asked);
  const rows: [string, string][] = [
    ['Name', code(spec.name)],
    ['Id', code(shown?.id)],
    ['Status', code(shown?.status)],
    ['Outcome', text(outcomeOf(result, shown))],
    ['Live', text(liveCell(input.liveness))],
    ...healthRow(input, text, code),
    ['Source', code(spec.source)],
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
    shown === undefined ? undefined : dashboardUrlOf(spec.dashboardUrl, shown),
  );
  if (url !== undefined) rows.splice(2, 0, ['URL', url]);
  if (dashboard !== undefined) rows.splice(2, 0, ['Dashboard', dashboard]);
  return rows;
}

/** The job summary as HTML: a heading, a table of the deployment, drift, the failure if any. */
export function summaryHtml(input: SummaryInput): string {
  const { spec, failure } = input;
  const redact = input.redact ?? ((text: string) => text);
  const code = cellOf(redact, (value) => htmlCode(value));
  const title =
    failure !== undefined
      ? '❌ Deployment failed'
      : spec.dryRun
        ? '🔎 Deployment (dry run)'
        : '🚀 Deployment';
  return (
    boundedSummary([
      `<h2>${title}: ${code(spec.name)}</h2>\n${labelledTable(deploymentRows(input, redact))}`,
      ...driftTable(input.drift ?? [], code),
      ...failureBlock(failure, redact),
    ]) + '\n'
  );
}
