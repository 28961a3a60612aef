/**
 * The deploy's summary (and `status`'s): of one deployment (flat), its table, drift and
 * failure; of a manifest (keyed), a row an agent, then each agent's drift, failing health
 * check and failure below.
 */
import { htmlLines, htmlLink } from '../common/github-text.js';
import { boundedSummary, type SummaryPart } from '../common/summary.js';
import { plural, shortSha } from '../common/text.js';
import type { DriftEntry, HealthSeen } from '../run/ports/findings.js';
import type {
  DeployedResult,
  DeploymentPart,
  DeploySummary,
  SummaryInput,
} from '../run/ports/summaries.js';
import { healthAnswer, healthWords } from '../run/decisions/health.js';
import { dashboardUrlOf, repositoryOf } from '../run/decisions/report.js';
import { driftAdvice } from '../run/decisions/green.js';
import type { Deployment } from '../service/schemas.js';
import { cellsOf, differencesTable, labelledTable, tableRow, type Cell } from './html-parts.js';

function outcomeOf(result: DeployedResult | undefined, shown: Deployment | undefined): string {
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

function healthCell(health: HealthSeen | undefined, text: Cell, code: Cell): string | undefined {
  if (health === undefined) return undefined;
  return `${health.ok ? '✅' : '❌'} ${healthWords(health, { text, code }, '<br>')}`;
}

/** On reuse the deployment's own type (a different wish is drift), else the answer's, or what was sent. */
function typeRow(
  result: DeployedResult | undefined,
  shown: Deployment | undefined,
  code: Cell,
): [string, string][] {
  if (result === undefined) return [];
  const live = shown?.source_config.deployment_type ?? undefined;
  const asked = result.request?.source_config.deployment_type ?? undefined;
  if (live === undefined && asked === undefined) return [];
  const reused = !result.created && result.deployment !== undefined;
  return [['Deployment type', code(reused ? live : (live ?? asked))]];
}

function driftTable(drift: DriftEntry[], code: Cell): SummaryPart[] {
  const head = `<h3>⚠️ Drift: not applied</h3>\n<p>${driftAdvice(drift.length)}</p>\n`;
  return drift.length === 0
    ? []
    : [differencesTable(drift, code, 'Step wants', 'Deployment has', head)];
}

/** Lines kept but no blank one (`htmlLines`), so the block cannot end before its closing tag. */
function failureBlock(failure: string | undefined, redact: (text: string) => string): string[] {
  if (failure === undefined) return [];
  return [`<p><strong>Error:</strong></p>\n<pre>${htmlLines(redact(failure))}</pre>`];
}

function healthNotMade({ healthNotMade: why }: SummaryInput): string | undefined {
  return why === undefined ? undefined : `not made: ${why} (not waiting)`;
}

function healthRow(input: SummaryInput, text: Cell, code: Cell): [string, string][] {
  const notMade = healthNotMade(input);
  const cell = healthCell(input.liveness?.health, text, code) ?? (notMade && text(notMade));
  return cell === undefined ? [] : [['Health check', cell]];
}

function deploymentRows(input: SummaryInput, redact: (text: string) => string): [string, string][] {
  const { spec, result, commit } = input;
  const { text, code } = cellsOf(redact);
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

export function summaryHtml(input: SummaryInput): string {
  const { spec, failure } = input;
  const redact = input.redact ?? ((text: string) => text);
  const { code } = cellsOf(redact);
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

const UNCHANGED = 'unchanged by this pull request: no preview';

const HEADINGS = ['Agent', 'Deployment', 'Status', 'Live', 'Commit', 'Drift', 'Links'];
/** `Health` comes after `Live`, only when some agent's check was made (or said why not). */
const HEALTH_AFTER = HEADINGS.indexOf('Live') + 1;

function anyHealth(summary: DeploySummary): boolean {
  return summary.deployments.some(
    (part) =>
      part.summary.liveness?.health !== undefined || healthNotMade(part.summary) !== undefined,
  );
}

/** Short: the whole answer is below the table. */
function healthOf(part: DeploymentPart, text: Cell): string {
  const health = part.summary.liveness?.health;
  if (health === undefined) return text(healthNotMade(part.summary));
  return `${health.ok ? '✅' : '❌'} ${text(healthAnswer(health))}`;
}

function linksOf(part: DeploymentPart, redact: (text: string) => string): string {
  const { summary } = part;
  const shown = summary.deployment ?? summary.result?.deployment;
  if (shown === undefined) return '—';
  // A dashboard's template is the step's text: its secret values are removed.
  const dashboard = dashboardUrlOf(summary.spec.dashboardUrl, shown);
  const links = [
    htmlLink('URL', shown.source_config.custom_url),
    htmlLink('Dashboard', dashboard === undefined ? undefined : redact(dashboard)),
  ].filter((link) => link !== undefined);
  return links.length === 0 ? '—' : links.join(' · ');
}

function rowOf(
  part: DeploymentPart,
  write: { text: Cell; code: Cell; health: boolean },
  redact: (text: string) => string,
): string {
  const { text, code } = write;
  const { summary } = part;
  if (summary.skipped !== undefined) {
    const cells = [code(part.key), code(summary.spec.name), '—', text(UNCHANGED), '', '', '—'];
    if (write.health) cells.splice(HEALTH_AFTER, 0, '');
    return tableRow(cells);
  }
  const shown = summary.deployment ?? summary.result?.deployment;
  const failed = summary.failure === undefined ? '' : '❌ ';
  const liveness =
    summary.failure === undefined ? summary.liveness : { live: false, missing: 'failed' };
  const cells = [
    `${failed}${code(part.key)}`,
    code(summary.spec.name),
    code(shown?.status),
    text(liveCell(liveness)),
    code(shortSha(shown?.source_revision_config.repo_commit_sha ?? undefined)),
    text(String(summary.drift?.length ?? 0)),
    linksOf(part, redact),
  ];
  if (write.health) cells.splice(HEALTH_AFTER, 0, healthOf(part, text));
  return tableRow(cells);
}

function detailsOf(
  part: DeploymentPart,
  { text, code }: { text: Cell; code: Cell },
  redact: (text: string) => string,
): SummaryPart[] {
  const { summary } = part;
  const drift = summary.drift ?? [];
  const health = summary.liveness?.health;
  const unhealthy = health !== undefined && !health.ok ? health : undefined;
  if (drift.length === 0 && summary.failure === undefined && unhealthy === undefined) return [];
  const healthLine = healthCell(unhealthy, text, code);
  return [
    `<h3>${code(part.key)}</h3>`,
    ...(healthLine === undefined ? [] : [`<p><strong>Health check:</strong> ${healthLine}</p>`]),
    ...driftTable(drift, code),
    ...failureBlock(summary.failure, redact),
  ];
}

function keyedHtml(summary: DeploySummary, redact: (text: string) => string): string {
  const { text, code } = cellsOf(redact);
  const failed = summary.deployments.filter((part) => part.summary.failure !== undefined).length;
  const skipped = summary.deployments.filter((part) => part.summary.skipped !== undefined).length;
  const count = summary.deployments.length - skipped;
  const unchanged = skipped === 0 ? '' : `, ${skipped} unchanged`;
  const title =
    failed > 0
      ? `❌ ${failed} of ${count} ${plural(count, 'agent')} failed${unchanged}`
      : `🚀 ${count} ${plural(count, 'agent')}${unchanged}`;
  const health = anyHealth(summary);
  const headings = health ? HEADINGS.toSpliced(HEALTH_AFTER, 0, 'Health') : HEADINGS;
  return (
    boundedSummary([
      `<h2>${title}: ${code(summary.source)}</h2>`,
      {
        head: `<table>\n${tableRow(headings, 'th')}`,
        lines: summary.deployments.map((part) => rowOf(part, { text, code, health }, redact)),
        tail: '\n</table>',
        leftOut: (left) =>
          `<p>… and ${left} more agents, left out to keep this summary under GitHub's limit.</p>`,
      },
      ...summary.deployments.flatMap((part) => detailsOf(part, { text, code }, redact)),
    ]) + '\n'
  );
}

export function deployLayoutHtml(summary: DeploySummary, redact: (text: string) => string): string {
  const [one] = summary.deployments;
  if (summary.layout === 'flat' && one !== undefined)
    return summaryHtml({ ...one.summary, redact });
  return keyedHtml(summary, redact);
}
