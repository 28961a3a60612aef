/**
 * The summary of a plan of several agents: a row an agent (its deployment,
 * what its deploy would do, how many differences it would not apply), then
 * each agent's plan below, each within its share of GitHub's limit.
 */
import { htmlCode, htmlLines, htmlText } from '../common/github-text.js';
import { SUMMARY_BUDGET, within } from '../common/summary.js';
import { plural } from '../common/text.js';
import type { AgentPlanPart, AgentsPlanSummary } from '../run/ports/summaries.js';
import { cellOf, type Cell } from './html-parts.js';
import { planSummaryHtml } from './plan-summary.js';

const HEADINGS = ['Agent', 'Deployment', 'The deploy would', 'Not applied'];

/** What the agent's deploy would do, in the row's words. */
function actionCell(part: AgentPlanPart): string {
  const verdict = part.summary?.verdict;
  if (verdict === undefined) return '❌ no plan made';
  return { create: '🆕 create', reuse: '♻️ reuse', fail: '❌ fail' }[verdict.action];
}

function rowOf(part: AgentPlanPart, code: Cell): string {
  const changes = part.summary?.verdict.changes.length;
  const cells = [
    code(part.key),
    code(part.name),
    htmlText(actionCell(part)),
    htmlText(changes === undefined ? '—' : String(changes)),
  ];
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

/** An agent's plan below the table (or why none was made), within `budget` bytes. */
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

/** The summary of a plan of several agents, as HTML within GitHub's limit. */
export function agentsPlanSummaryHtml(
  summary: AgentsPlanSummary,
  redact: (text: string) => string,
): string {
  const code = cellOf(redact, (value) => htmlCode(value));
  const count = summary.agents.length;
  const failed = summary.agents.filter((part) => part.failure !== undefined).length;
  const title =
    failed > 0
      ? `❌ Plan: ${failed} of ${count} ${plural(count, 'agent')} would fail`
      : `📋 Plan of ${count} ${plural(count, 'agent')}`;
  const head = `<tr>${HEADINGS.map((heading) => `<th>${heading}</th>`).join('')}</tr>`;
  const table = `<table>\n${head}\n${summary.agents.map((part) => rowOf(part, code)).join('\n')}\n</table>`;
  const share = Math.floor((SUMMARY_BUDGET - table.length - 1_000) / Math.max(count, 1));
  const details = summary.agents.map((part) => detailsOf(part, code, redact, share));
  return within(`<h2>${title}: ${code(summary.source)}</h2>\n${table}\n${details.join('\n')}\n`);
}
