/**
 * What a pull request comment carries from one run to the next: its hidden
 * marker, whose comment is the token's own, the agents an earlier body
 * listed (an agent the manifest no longer holds runs until deleted), the
 * keyed table's columns, and the budget every body stays within.
 */
import { percentEscape } from '../../common/characters.js';
import { markdownCode, markdownLink } from '../../common/github-text.js';
import type { ManifestOnGitHub } from './deployment-record.js';

/** GitHub refuses a comment over 65,536 characters; the body stays well under it. */
export const COMMENT_LIMIT = 65_536;
export const BODY_BUDGET = 60_000;

/** A body cut to the budget when GitHub would refuse it. */
export function capped(body: string): string {
  return body.length < COMMENT_LIMIT ? body : body.slice(0, BODY_BUDGET);
}

/**
 * The first of `rows` (one line each) that fit in the budget after
 * `usedChars` of the rest, then `more(count)` of those left out.
 */
export function rowsWithin(
  rows: readonly string[],
  usedChars: number,
  more: (left: number) => string,
): string[] {
  const kept: string[] = [];
  let used = usedChars;
  for (const row of rows) {
    if (used + row.length + 1 > BODY_BUDGET) break;
    kept.push(row);
    used += row.length + 1;
  }
  return kept.length === rows.length ? kept : [...kept, '', more(rows.length - kept.length)];
}

export function goneAgents(
  manifest: ManifestOnGitHub,
  previous: string | undefined,
): [string, string | undefined][] {
  const current = new Set(manifest.agents.map((agent) => agent.key));
  return [...listedAgents(previous)].filter(([key]) => !current.has(key));
}

export function runTail(runUrl: string | undefined): string[] {
  const run = markdownLink('Workflow run', runUrl);
  return run === undefined ? [] : ['', run];
}

export function keptRows(head: string[], all: string[], tail: string[]): string[] {
  const used = head.join('\n').length + tail.join('\n').length + 200;
  return rowsWithin(all, used, (left) => `…and ${left} more: see the job summary.`);
}

/**
 * Every character but `A–Z a–z 0–9 _` percent-encoded (UTF-8): no name ends
 * the comment early, and distinct names give distinct markers (` -->` ends
 * one, so `app` does not match `app-b`).
 */
export function encodeName(name: string): string {
  let encoded = '';
  for (const byte of new TextEncoder().encode(name)) {
    const character = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9_]/.test(character) ? character : percentEscape(character);
  }
  return encoded;
}

export function marker(name: string): string {
  return `<!-- deploy-agent:${encodeName(name)} -->`;
}

/** Whether a comment's body is the one `mark` names (its marker opens it). */
export const carrying =
  (mark: (name: string) => string) =>
  (body: string | null | undefined, name: string): boolean =>
    typeof body === 'string' && body.startsWith(mark(name));

export const carriesMarker = carrying(marker);

/** GraphQL's `viewer` names a bot without REST's `[bot]` suffix; logins compare without case. */
export function isOwnComment(
  author: { login: string; type?: string | undefined } | null | undefined,
  viewer: string,
): boolean {
  if (author === null || author === undefined) return false;
  const login = author.login.toLowerCase();
  const me = viewer.toLowerCase();
  if (login === me) return true;
  return author.type === 'Bot' && (login === `${me}[bot]` || `${login}[bot]` === me);
}

export function manifestIdentity(manifest: ManifestOnGitHub): string {
  return manifest.nameTemplate ?? manifest.source;
}

export function manifestMarker(identity: string): string {
  return `<!-- deploy-agent-agents:${encodeName(identity)} -->`;
}

export const carriesManifestMarker = carrying(manifestMarker);

/** An agent row as this module writes it: its key in a code span opens it. */
const ROW = /^\| `([a-z0-9][a-z0-9-]{0,39})` \|/;
const DASHBOARD = /\[Dashboard\]\(([^()\s]+)\)/;

/** A row's cells: every `|` inside a cell is escaped (`\|`). */
function cellsOf(line: string): string[] {
  return line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/** The Live cell of an agent the pull request does not change, which never had a preview. */
export const NO_PREVIEW = '⚪ unchanged by this pull request: no preview';

/**
 * The agents an earlier body listed with a preview (not a `NO_PREVIEW` row), each with its
 * row's dashboard link, read in the `Links` column only: another cell's service text (a health
 * check's answer) may spell a link in a code span.
 */
export function listedAgents(body: string | undefined): Map<string, string | undefined> {
  const listed = new Map<string, string | undefined>();
  let links = -1;
  for (const line of (body ?? '').split('\n')) {
    if (line.startsWith('| Agent |')) links = cellsOf(line).indexOf('Links');
    const row = ROW.exec(line);
    if (row?.[1] === undefined || cellsOf(line).includes(NO_PREVIEW)) continue;
    const cell = links < 0 ? line : (cellsOf(line)[links] ?? '');
    listed.set(row[1], DASHBOARD.exec(cell)?.[1]);
  }
  return listed;
}

const COLUMNS = ['Agent', 'Deployment', 'Status', 'Live', 'Commit', 'Drift', 'Links', 'Failure'];
/** The health checks' column, after `Live`: only when some agent's check was made. */
const HEALTH_AFTER = COLUMNS.indexOf('Live') + 1;

export function headOf(health: boolean): string[] {
  const columns = health ? COLUMNS.toSpliced(HEALTH_AFTER, 0, 'Health check') : COLUMNS;
  return [`| ${columns.join(' | ')} |`, `|${' --- |'.repeat(columns.length)}`];
}

export function withHealth(cells: string[], health: string | undefined): string[] {
  return health === undefined ? cells : cells.toSpliced(HEALTH_AFTER, 0, health);
}

/** The row of an agent the manifest no longer holds: it runs until deleted, where it was shown. */
export function goneRow(
  key: string,
  dashboard: string | undefined,
  health: boolean,
  live = 'no longer deployed by this workflow',
): string {
  const where = markdownLink('Dashboard', dashboard);
  const runs = `runs until deleted${where === undefined ? '' : `: ${where}`}`;
  const cells = [markdownCode(key), '', '', live, '', '', runs, ''];
  return `| ${withHealth(cells, health ? '' : undefined).join(' | ')} |`;
}
