/**
 * The manifest's one pull request comment: a row per agent, and the hidden
 * marker that finds it again, which holds the step's name template (or,
 * without one, the manifest's path), so adding or removing an agent keeps
 * the comment and two workflows with different templates keep their own. An
 * agent the comment listed that the manifest no longer holds keeps its row,
 * saying this workflow no longer deploys it and that it runs until deleted.
 * When some agent's health check was made, a column says what each answered.
 * Text from the service is data, never Markdown (common/github-text.ts).
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { shortSha } from '../../common/text.js';
import type { RunReport } from '../../run/ports/progress.js';
import type { AgentOnGitHub, ManifestOnGitHub } from './deployment-record.js';
import { encodeName, healthCell, rowsWithin, type BodyText } from './comment.js';

/** What the comment knows of one agent: its last report, its failure, whether it is over. */
export interface AgentState {
  agent: AgentOnGitHub;
  report?: RunReport;
  failure?: string;
  over: boolean;
}

/** What names the manifest's comment: the step's name template, else the manifest's path. */
export function manifestIdentity(manifest: ManifestOnGitHub): string {
  return manifest.nameTemplate ?? manifest.source;
}

export function manifestMarker(identity: string): string {
  return `<!-- deploy-agent-agents:${encodeName(identity)} -->`;
}

/** Whether a comment's body is this manifest's comment (the marker opens it). */
export function carriesManifestMarker(body: string | null | undefined, identity: string): boolean {
  return typeof body === 'string' && body.startsWith(manifestMarker(identity));
}

/** An agent row as this module writes it: its key in a code span opens it. */
const ROW = /^\| `([a-z0-9][a-z0-9-]{0,39})` \|/;
const DASHBOARD = /\[Dashboard\]\(([^()\s]+)\)/;

/**
 * A row's cells. Every `|` in a cell's text or code span is escaped (`\|`),
 * so each one that is not ends a cell.
 */
function cellsOf(line: string): string[] {
  return line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/**
 * The agents an earlier body of the comment listed, each with its dashboard
 * link when its row had one (as written there, an address this module built),
 * read in the `Links` column (the whole row without a heading): another
 * cell's service text (a health check's answer) may spell a link in a code span.
 */
export function listedAgents(body: string | undefined): Map<string, string | undefined> {
  const listed = new Map<string, string | undefined>();
  let links = -1;
  for (const line of (body ?? '').split('\n')) {
    if (line.startsWith('| Agent |')) links = cellsOf(line).indexOf('Links');
    const row = ROW.exec(line);
    if (row?.[1] === undefined) continue;
    const cell = links < 0 ? line : (cellsOf(line)[links] ?? '');
    listed.set(row[1], DASHBOARD.exec(cell)?.[1]);
  }
  return listed;
}

const FAILURE_CHARS = 300;
const COLUMNS = ['Agent', 'Deployment', 'Status', 'Live', 'Commit', 'Drift', 'Links', 'Failure'];
/** The health checks' column, after `Live`: only when some agent's check was made. */
const HEALTH_AFTER = COLUMNS.indexOf('Live') + 1;

function headOf(health: boolean): string[] {
  const columns = health ? COLUMNS.toSpliced(HEALTH_AFTER, 0, 'Health check') : COLUMNS;
  return [`| ${columns.join(' | ')} |`, `|${' --- |'.repeat(columns.length)}`];
}

/** The row's cells, with the health check's cell when the table has its column. */
function withHealth(cells: string[], health: string | undefined): string[] {
  return health === undefined ? cells : cells.toSpliced(HEALTH_AFTER, 0, health);
}

function commitOf(report: RunReport): string {
  const live = report.supersededBy ?? (report.stage === 'live' ? report.liveCommit : undefined);
  const sha = live ?? report.targetCommit;
  if (sha === undefined) return '';
  const code = /^[0-9a-f]{7,64}$/i.test(sha)
    ? markdownCode(shortSha(sha).toLowerCase())
    : markdownText(sha, 64);
  return live === undefined ? `${code} wanted` : `${code} is live`;
}

function liveOf({ report, failure, over }: AgentState): string {
  if (report === undefined) return failure !== undefined ? '🔴 failed' : over ? '⚪ over' : '🟡 …';
  if (failure !== undefined && report.stage !== 'cancelled') return '🔴 failed';
  switch (report.stage) {
    case 'live':
      return '🟢 live';
    case 'failed':
      return '🔴 failed';
    case 'cancelled':
      return '⚪ cancelled';
    case 'not-live':
      return report.never === true ? '🔴 will not run this commit' : '🟡 not live yet';
    case 'deploying':
      return '🟡 deploying';
  }
}

/** One agent's row; `redact` hides secret values in the service's text first. */
function agentRow(state: AgentState, redact: (text: string) => string, health: boolean): string {
  const { agent, report } = state;
  const code = (value: string | undefined) =>
    value === undefined ? '' : markdownCode(redact(value), 100);
  const verb = report?.created === undefined ? '' : report.created ? ' (created)' : ' (reused)';
  const links = [
    markdownLink('Dashboard', report?.dashboardUrl),
    markdownLink('Open', report?.url),
  ].filter((link) => link !== undefined);
  const failure = state.failure ?? report?.failure;
  const cells = [
    markdownCode(agent.key),
    `${markdownCode(redact(agent.deploymentName), 100)}${verb}`,
    code(report?.status),
    liveOf(state),
    report === undefined ? '' : commitOf(report),
    report === undefined ? '' : String(report.drift.length),
    links.join(' · '),
    failure === undefined ? '' : markdownText(redact(failure), FAILURE_CHARS),
  ];
  const write: BodyText = {
    text: (value, max) => markdownText(redact(value), max),
    code: (value, max) => markdownCode(redact(value), max),
  };
  const seen = report?.health;
  const shown = health ? (seen === undefined ? '' : healthCell(seen, write)) : undefined;
  return `| ${withHealth(cells, shown).join(' | ')} |`;
}

/** The row of an agent the manifest no longer holds: it runs until deleted, where it was shown. */
function goneRow(key: string, dashboard: string | undefined, health: boolean): string {
  const where = markdownLink('Dashboard', dashboard);
  const runs = `runs until deleted${where === undefined ? '' : `: ${where}`}`;
  const cells = [
    markdownCode(key),
    '',
    '',
    'no longer deployed by this workflow',
    '',
    '',
    runs,
    '',
  ];
  return `| ${withHealth(cells, health ? '' : undefined).join(' | ')} |`;
}

/** The comment's Markdown: every agent's row, then the rows of agents no longer in the manifest. */
export function agentsCommentBody(
  manifest: ManifestOnGitHub,
  states: readonly AgentState[],
  previous: string | undefined,
  parts: { runUrl?: string; redact: (text: string) => string },
): string {
  const identity = manifestIdentity(manifest);
  const current = new Set(manifest.agents.map((agent) => agent.key));
  const gone = [...listedAgents(previous)].filter(([key]) => !current.has(key));
  const live = states.filter((state) => state.report?.stage === 'live').length;
  const title = markdownCode(parts.redact(identity), 200, false);
  const health = states.some((state) => state.report?.health !== undefined);
  const head = [
    manifestMarker(identity),
    `### Agents of ${title}: ${live} of ${states.length} live`,
    '',
    ...headOf(health),
  ];
  const footer = markdownLink('Workflow run', parts.runUrl);
  const tail = footer === undefined ? [] : ['', footer];
  const all = [
    ...states.map((state) => agentRow(state, parts.redact, health)),
    ...gone.map(([key, dashboard]) => goneRow(key, dashboard, health)),
  ];
  const rows = rowsWithin(all, head.join('\n').length + tail.join('\n').length + 200);
  const more =
    rows.length < all.length
      ? ['', `…and ${all.length - rows.length} more: see the job summary.`]
      : [];
  return [...head, ...rows, ...more, ...tail].join('\n') + '\n';
}
