/** The plan's summary: of one deployment (flat), or a row an agent then each agent's plan within its share of GitHub's limit (keyed). */
import { htmlLines, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary, SUMMARY_BUDGET, within, type SummaryPart } from '../common/summary.js';
import { plural } from '../common/text.js';
import type { Verdict } from '../run/ports/findings.js';
import type { PlanReport } from '../run/ports/progress.js';
import type { AgentPlanPart, PlanSummary } from '../run/ports/summaries.js';
import { dashboardUrlOf } from '../run/decisions/report.js';
import { differences } from '../run/decisions/green.js';
import { cellsOf, differencesTable, labelledTable, tableRow, type Cell } from './html-parts.js';

function remedy(count: number): string {
  const them = plural(count, 'it', 'them');
  return `The deploy would not apply ${them}: the service cannot update a deployment. Change ${them} in the service, or deploy under a new name.`;
}

const upperFirst = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function heading(name: string, verdict: Verdict, code: Cell): string {
  return {
    create: `🆕 Plan: the deploy would create ${code(name)}`,
    reuse:
      verdict.changes.length === 0
        ? `✅ Plan: the deploy would reuse ${code(name)}, with no difference`
        : `⚠️ Plan: the deploy would reuse ${code(name)}, and not apply ${differences(verdict.changes.length)}`,
    fail: `❌ Plan: the deploy would fail for ${code(name)}`,
  }[verdict.action];
}

function deploymentTable(
  verdict: Verdict,
  dashboardUrl: string | undefined,
  code: Cell,
  redact: (text: string) => string,
): SummaryPart[] {
  const { deployment } = verdict;
  if (deployment === undefined) return [];
  const dashboard = dashboardUrlOf(dashboardUrl, deployment);
  const link = dashboard === undefined ? undefined : htmlLink(redact(dashboard), dashboard);
  const rows: [string, string][] = [
    ['Id', code(deployment.id)],
    ['Status', code(deployment.status)],
    ['Source', code(deployment.source)],
    ['Tracks', code(verdict.tracks?.branch)],
    [
      'A push there',
      htmlText(
        verdict.tracks === undefined
          ? '—'
          : verdict.tracks.buildsOnPush
            ? 'builds a new revision'
            : 'builds nothing (build_on_push is off)',
      ),
    ],
    ...(link === undefined ? [] : ([['Dashboard', link]] as [string, string][])),
  ];
  return [labelledTable(rows)];
}

/** A line of the request each (one secret's name, say), as many as fit. */
function requestBlock(verdict: Verdict, redact: (text: string) => string): SummaryPart[] {
  if (verdict.request === undefined) return [];
  const request = htmlLines(redact(JSON.stringify(verdict.request, null, 2))).split('\n');
  return [
    {
      head: `<h3>The request the deploy would send</h3>\n<pre>${request[0] ?? ''}`,
      lines: request.slice(1),
      tail: '</pre>',
      leftOut: (count) =>
        `<p>… and ${count} more ${plural(count, 'line')} of the request, left out to keep this summary under GitHub's limit.</p>`,
    },
  ];
}

export function planSummaryHtml(
  { name, verdict, dashboardUrl }: PlanReport,
  redact: (text: string) => string,
  budget?: number,
): string {
  const { code } = cellsOf(redact);
  const parts: SummaryPart[] = [
    `<h2>${heading(name, verdict, code)}</h2>`,
    ...deploymentTable(verdict, dashboardUrl, code, redact),
  ];
  if (verdict.wouldFail !== undefined) {
    parts.push(`<p><strong>${htmlText(upperFirst(redact(verdict.wouldFail)))}</strong></p>`);
  }
  if (verdict.changes.length > 0) {
    parts.push(
      differencesTable(
        verdict.changes,
        code,
        'The step wants',
        'The deployment has',
        `<h3>Not applied by the deploy</h3>\n<p>${htmlText(remedy(verdict.changes.length))}</p>\n`,
      ),
    );
  }
  parts.push(...requestBlock(verdict, redact));
  if (verdict.reason !== undefined)
    parts.push(`<p><strong>Why:</strong></p>\n<pre>${htmlLines(redact(verdict.reason))}</pre>`);
  return boundedSummary(parts, budget);
}

const HEADINGS = ['Agent', 'Deployment', 'The deploy would', 'Not applied'];

function actionCell(part: AgentPlanPart): string {
  const verdict = part.summary?.verdict;
  if (verdict === undefined) return '❌ no plan made';
  return { create: '🆕 create', reuse: '♻️ reuse', fail: '❌ fail' }[verdict.action];
}

function rowOf(part: AgentPlanPart, code: Cell): string {
  const changes = part.summary?.verdict.changes.length;
  return tableRow([
    code(part.key),
    code(part.name),
    htmlText(actionCell(part)),
    htmlText(changes === undefined ? '—' : String(changes)),
  ]);
}

/** Or why none was made, within `budget` bytes. */
function detailsOf(
  part: AgentPlanPart,
  code: Cell,
  redact: (text: string) => string,
  budget: number,
): string {
  const head = `<h3>${code(part.key)}</h3>`;
  if (part.summary !== undefined)
    return `${head}\n${planSummaryHtml(part.summary, redact, budget)}`;
  return `${head}\n<pre>${htmlLines(redact(part.failure ?? 'no plan was made'))}</pre>`;
}

function keyedHtml(summary: PlanSummary, redact: (text: string) => string): string {
  const { code } = cellsOf(redact);
  const count = summary.agents.length;
  const failed = summary.agents.filter((part) => part.failure !== undefined).length;
  const title =
    failed > 0
      ? `❌ Plan: ${failed} of ${count} ${plural(count, 'agent')} would fail`
      : `📋 Plan of ${count} ${plural(count, 'agent')}`;
  const table = `<table>\n${tableRow(HEADINGS, 'th')}\n${summary.agents.map((part) => rowOf(part, code)).join('\n')}\n</table>`;
  const share = Math.floor((SUMMARY_BUDGET - table.length - 1_000) / Math.max(count, 1));
  const details = summary.agents.map((part) => detailsOf(part, code, redact, share));
  return within(`<h2>${title}: ${code(summary.source)}</h2>\n${table}\n${details.join('\n')}\n`);
}

export function planLayoutHtml(summary: PlanSummary, redact: (text: string) => string): string {
  const [one] = summary.agents;
  if (summary.layout === 'flat' && one?.summary !== undefined)
    return planSummaryHtml(one.summary, redact);
  return keyedHtml(summary, redact);
}
