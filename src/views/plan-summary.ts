/**
 * The plan's summary: the verdict, the deployment it is about, what the
 * deploy would not apply, the request it would send, and why it would fail.
 */
import { htmlCode, htmlLines, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary, type SummaryPart } from '../common/summary.js';
import { plural } from '../common/text.js';
import type { Verdict } from '../run/ports/findings.js';
import type { PlanReport } from '../run/ports/progress.js';
import { dashboardUrlOf } from '../run/decisions/report.js';
import { cellOf, differencesTable, labelledTable, type Cell } from './html-parts.js';

/** What the deploy does with `count` differences: nothing; the remedy. */
function remedy(count: number): string {
  const them = plural(count, 'it', 'them');
  return `The deploy would not apply ${them}: the service cannot update a deployment. Change ${them} in the service, or deploy under a new name.`;
}

/** `count` differences, the noun agreeing: `1 difference`, `2 differences`. */
const differences = (count: number) => `${count} ${plural(count, 'difference')}`;

const upperFirst = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The verdict's heading. */
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

/** The table of the deployment the verdict is about, when there is one. */
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

/** The request the deploy would send, a line of it each (one secret's name, say), as many as fit. */
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

/** The job summary of a plan, as HTML (service text escaped by the one GitHub-text module). */
export function planSummaryHtml(
  { name, verdict, dashboardUrl }: PlanReport,
  redact: (text: string) => string,
  budget?: number,
): string {
  const code = cellOf(redact, (value) => htmlCode(value));
  const parts: SummaryPart[] = [`<h2>${heading(name, verdict, code)}</h2>`];
  parts.push(...deploymentTable(verdict, dashboardUrl, code, redact));
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
