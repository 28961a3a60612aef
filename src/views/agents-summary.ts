/**
 * The summary of a deploy of several agents: a row an agent (its
 * deployment, status, whether it is live, its commit, how many differences,
 * its links; what its health check answered, when any agent has one), then,
 * below, each agent's drift, failing health check and failure.
 */
import { htmlCode, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary, type SummaryPart } from '../common/summary.js';
import { plural, shortSha } from '../common/text.js';
import type { AgentPart, AgentsSummary } from '../run/ports/summaries.js';
import { dashboardUrlOf } from '../run/decisions/report.js';
import { healthAnswer } from '../run/decisions/health.js';
import { driftTable, failureBlock, healthCell, healthNotMade, liveCell } from './deploy-summary.js';
import { cellOf, type Cell } from './html-parts.js';

const HEADINGS = ['Agent', 'Deployment', 'Status', 'Live', 'Commit', 'Drift', 'Links'];
/** The column of the health checks' answers, after `Live`: only when some agent has a check. */
const HEALTH_AFTER = HEADINGS.indexOf('Live') + 1;

/** Whether some agent's health check was made, or not made (said why): the table then has a `Health` column. */
function anyHealth(summary: AgentsSummary): boolean {
  return summary.agents.some(
    (part) =>
      part.summary.liveness?.health !== undefined || healthNotMade(part.summary) !== undefined,
  );
}

/** What an agent's health check answered, short, for its row: the whole answer is below it. */
function healthOf(part: AgentPart, text: Cell): string {
  const health = part.summary.liveness?.health;
  if (health === undefined) return text(healthNotMade(part.summary));
  return `${health.ok ? '✅' : '❌'} ${text(healthAnswer(health))}`;
}

/** The links of an agent's row: its address and its dashboard, those the address rule lets through. */
function linksOf(part: AgentPart, redact: (text: string) => string): string {
  const { summary } = part;
  const shown = summary.deployment ?? summary.result?.deployment;
  if (shown === undefined) return '—';
  const links = [
    htmlLink('URL', shown.source_config.custom_url),
    htmlLink('Dashboard', redactedOrNot(dashboardUrlOf(summary.spec.dashboardUrl, shown), redact)),
  ].filter((link) => link !== undefined);
  return links.length === 0 ? '—' : links.join(' · ');
}

/** An address with secret values removed (a dashboard template is the step's text). */
function redactedOrNot(
  address: string | undefined,
  redact: (text: string) => string,
): string | undefined {
  return address === undefined ? undefined : redact(address);
}

/** An agent's row of the table. */
function rowOf(
  part: AgentPart,
  write: { text: Cell; code: Cell; health: boolean },
  redact: (text: string) => string,
): string {
  const { text, code } = write;
  const { summary } = part;
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
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

/** Below the table: an agent's drift and failure, under its key, when it has either. */
function detailsOf(
  part: AgentPart,
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

/** The summary of a deploy of several agents, as HTML within GitHub's limit. */
export function agentsSummaryHtml(
  summary: AgentsSummary,
  redact: (text: string) => string,
): string {
  const text = cellOf(redact, (value) => htmlText(value));
  const code = cellOf(redact, (value) => htmlCode(value));
  const failed = summary.agents.filter((part) => part.summary.failure !== undefined).length;
  const count = summary.agents.length;
  const title =
    failed > 0
      ? `❌ ${failed} of ${count} ${plural(count, 'agent')} failed`
      : `🚀 ${count} ${plural(count, 'agent')}`;
  const health = anyHealth(summary);
  const headings = health ? HEADINGS.toSpliced(HEALTH_AFTER, 0, 'Health') : HEADINGS;
  const head = `<tr>${headings.map((heading) => `<th>${heading}</th>`).join('')}</tr>`;
  return (
    boundedSummary([
      `<h2>${title}: ${code(summary.source)}</h2>`,
      {
        head: `<table>\n${head}`,
        lines: summary.agents.map((part) => rowOf(part, { text, code, health }, redact)),
        tail: '\n</table>',
        leftOut: (left) =>
          `<p>… and ${left} more agents, left out to keep this summary under GitHub's limit.</p>`,
      },
      ...summary.agents.flatMap((part) => detailsOf(part, { text, code }, redact)),
    ]) + '\n'
  );
}
