/**
 * The preview's pull request comment: its Markdown body, written from a
 * neutral report of the run, and the hidden marker that finds it again. Text from the service is data, never Markdown (the one writer of
 * GitHub text, `common/github-text.ts`, says how), and the body stays under
 * GitHub's limit.
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { plural, shortSha } from '../../common/text.js';
import { healthWords } from '../../run/decisions/health.js';
import type { HealthSeen } from '../../run/ports/findings.js';
import type { RunReport, Stage } from '../../run/ports/progress.js';

/** What the comment says: the core's report, and the workflow run's page (GitHub's own). */
export type CommentReport = RunReport & {
  /** The workflow run's page. */
  runUrl?: string;
};

/** GitHub refuses a comment over 65,536 characters; the body stays well under it. */
export const COMMENT_LIMIT = 65_536;
export const BODY_BUDGET = 60_000;

/**
 * The first of `rows` (table rows, one line each) that fit in the body's
 * budget after `usedChars` of the rest of it; the caller says how many were
 * left out.
 */
export function rowsWithin(rows: readonly string[], usedChars: number): string[] {
  const kept: string[] = [];
  let used = usedChars;
  for (const row of rows) {
    if (used + row.length + 1 > BODY_BUDGET) break;
    kept.push(row);
    used += row.length + 1;
  }
  return kept;
}
const FAILURE_CHARS = 1_000;

/**
 * The marker's name: every character but `A–Z a–z 0–9 _` percent-encoded
 * (UTF-8), so `-`, `>` and `!` never appear raw (no name ends the comment
 * early) and distinct names give distinct markers (the encoding is one to
 * one, and the marker's ` -->` ends it, so `app` does not match `app-b`).
 */
export function encodeName(name: string): string {
  let encoded = '';
  for (const byte of new TextEncoder().encode(name)) {
    const character = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9_]/.test(character)
      ? character
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

export function marker(name: string): string {
  return `<!-- deploy-agent:${encodeName(name)} -->`;
}

/** Whether a comment's body is this deployment's comment (the marker opens it). */
export function carriesMarker(body: string | null | undefined, name: string): boolean {
  return typeof body === 'string' && body.startsWith(marker(name));
}

/**
 * Whether a comment was written by the token's own identity. GraphQL's
 * `viewer` names a bot without the `[bot]` suffix that REST shows
 * (`github-actions` / `github-actions[bot]`); logins compare without case.
 */
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

// ---- service text, written by the one GitHub-text module -----------------------------------------

/** A commit in a code span, short, when it is one (hex), else text. */
function commit(sha: string | undefined): string {
  if (sha === undefined || sha === '') return '(none)';
  return /^[0-9a-f]{7,64}$/i.test(sha)
    ? markdownCode(shortSha(sha).toLowerCase())
    : markdownText(sha, 64);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  return markdownCode(typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value));
}

// ---- the body -----------------------------------------------------------------------------------

const HEADLINE: Record<Stage, (name: string) => string> = {
  deploying: (name) => `🟡 ${name}: deploying`,
  live: (name) => `🟢 ${name} is live`,
  'not-live': (name) => `🟡 ${name} is not live yet`,
  failed: (name) => `🔴 ${name}: the deploy failed`,
  cancelled: (name) => `⚪ ${name}: the run was cancelled`,
};

/** Writes free text and code spans of the body, secret values hidden first. */
export interface BodyText {
  text: (value: string, max?: number) => string;
  code: (value: string, max?: number) => string;
}

/**
 * The comment's Markdown. `redact` hides secret values in the free text
 * (the failure, the waiting text) before it is escaped.
 */
export function commentBody(
  report: CommentReport,
  redact: (text: string) => string = (text) => text,
): string {
  const write: BodyText = {
    text: (value, max) => markdownText(redact(value), max),
    code: (value, max) => markdownCode(redact(value), max),
  };
  const name = markdownCode(redact(report.name), 200, false);
  const headline =
    report.stage === 'not-live' && report.never === true
      ? `🔴 ${name} will not run what this push asks for`
      : HEADLINE[report.stage](name);
  const lines = [marker(report.name), `### ${headline}`, ''];
  const rows = tableRows(report, write);
  if (rows.length > 0) {
    lines.push(
      '| | |',
      '| --- | --- |',
      ...rows.map(([key, value]) => `| ${key} | ${value} |`),
      '',
    );
  }
  if (report.stage === 'failed' && report.failure !== undefined) {
    lines.push(`**Why:** ${write.text(report.failure, FAILURE_CHARS)}`, '');
  }
  const footer = [
    markdownLink('Dashboard', report.dashboardUrl),
    markdownLink('Workflow run', report.runUrl),
  ].filter((part) => part !== undefined);
  const tail = footer.length > 0 ? ['', footer.join(' · ')] : [];
  if (report.drift.length > 0) {
    lines.push(...driftLines(report, write, lines.join('\n').length + tail.join('\n').length));
  }
  return (
    [...lines, ...tail]
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

/** The table's rows: the deployment, its status, the commit, what is still live, the address. */
function tableRows(report: CommentReport, { text, code }: BodyText): [string, string][] {
  const rows: [string, string][] = [];
  if (report.id !== undefined) {
    const verb =
      report.created === undefined ? '' : report.created ? ' (created by this run)' : ' (reused)';
    rows.push(['Deployment', `${code(report.id, 100)}${verb}`]);
  }
  if (report.status !== undefined) rows.push(['Status', code(report.status, 100)]);
  const commitRow = commitCell(report);
  if (commitRow !== undefined) rows.push(['Commit', commitRow]);
  const still = report.stillLive;
  if (still !== undefined && (report.stage === 'failed' || report.stage === 'not-live')) {
    // What a reader of a failed preview wants first: whether the previous one still serves.
    rows.push([
      'Still live',
      still.commit === undefined
        ? `revision ${code(still.revision, 100)}, of an earlier commit`
        : `commit ${commit(still.commit)} is still live (revision ${code(still.revision, 100)})`,
    ]);
  }
  if (report.waitingFor !== undefined && report.stage !== 'live') {
    rows.push([report.stage === 'deploying' ? 'Waiting for' : 'Not live', text(report.waitingFor)]);
  }
  if (report.health !== undefined)
    rows.push(['Health check', healthCell(report.health, { text, code })]);
  const preview = markdownLink('open', report.url);
  if (preview !== undefined) rows.push(['Address', preview]);
  return rows;
}

/**
 * What the health check answered: its address (without query), the answer,
 * and the start of a failing answer's body, each service text as data.
 */
export function healthCell(health: HealthSeen, { text, code }: BodyText): string {
  const write = { text: (value: string) => text(value, 200), code: (value: string) => code(value) };
  return `${health.ok ? '✅' : '❌'} ${healthWords(health, write)}`;
}

/** The commit row: the newer commit that superseded the target, the live one, or the one wanted. */
function commitCell(report: CommentReport): string | undefined {
  if (report.supersededBy !== undefined) {
    return `${commit(report.supersededBy)} is live: a newer commit, which superseded ${commit(report.targetCommit)}`;
  }
  if (report.stage === 'live' && report.liveCommit !== undefined) {
    return `${commit(report.liveCommit)} is live`;
  }
  if (report.targetCommit === undefined) return undefined;
  const latest =
    report.liveCommit === undefined
      ? ''
      : `; the latest revision is for ${commit(report.liveCommit)}`;
  return `${commit(report.targetCommit)} wanted${latest}`;
}

/** The drift table, as many rows as fit after `usedChars` of the rest, and a count of the others. */
function driftLines(report: CommentReport, { code }: BodyText, usedChars: number): string[] {
  const head = [
    `**Drift:** ${report.drift.length} ${plural(report.drift.length, 'difference')} the service cannot apply to a reused deployment:`,
    '',
    '| Field | Wanted | Live |',
    '| --- | --- | --- |',
  ];
  const rows = rowsWithin(
    report.drift.map(
      (entry) => `| ${code(entry.field, 200)} | ${show(entry.wanted)} | ${show(entry.live)} |`,
    ),
    usedChars + head.join('\n').length + 1 + 200,
  );
  const lines = [...head, ...rows];
  if (rows.length < report.drift.length) {
    lines.push(
      '',
      `…and ${report.drift.length - rows.length} more: see the job summary and the step's \`drift\` output.`,
    );
  }
  return lines;
}
