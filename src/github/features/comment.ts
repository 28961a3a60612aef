/**
 * The pull request comment's Markdown: a preview's (flat) and a manifest's
 * (keyed, a row an agent). Service text is data, never Markdown
 * (`common/github-text.ts`), and the body stays under GitHub's limit.
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { plural, shortSha } from '../../common/text.js';
import { healthWords } from '../../run/decisions/health.js';
import type { HealthSeen } from '../../run/ports/findings.js';
import type { RunReport, Stage } from '../../run/ports/progress.js';
import {
  goneAgents,
  goneRow,
  headOf,
  keptRows,
  listedAgents,
  manifestIdentity,
  manifestMarker,
  marker,
  NO_PREVIEW,
  rowsWithin,
  runTail,
  withHealth,
} from './comment-marker.js';
import type { AgentOnGitHub, ManifestOnGitHub } from './deployment-record.js';

export type CommentReport = RunReport & { runUrl?: string };

const FAILURE_CHARS = 1_000;

/** A commit in a code span, short, when it is one (hex), else text. */
function commit(sha: string | undefined): string {
  return sha === undefined || sha === '' ? '(none)' : commitCode(sha);
}

function commitCode(sha: string): string {
  return /^[0-9a-f]{7,64}$/i.test(sha)
    ? markdownCode(shortSha(sha).toLowerCase())
    : markdownText(sha, 64);
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  return markdownCode(typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value));
}

const HEADLINE: Record<Stage, (name: string) => string> = {
  deploying: (name) => `🟡 ${name}: deploying`,
  live: (name) => `🟢 ${name} is live`,
  'not-live': (name) => `🟡 ${name} is not live yet`,
  failed: (name) => `🔴 ${name}: the deploy failed`,
  cancelled: (name) => `⚪ ${name}: the run was cancelled`,
};

/** Free text and code spans, secret values hidden first. */
const bodyText = (redact: (text: string) => string) => ({
  text: (value: string, max?: number) => markdownText(redact(value), max),
  code: (value: string, max?: number) => markdownCode(redact(value), max),
});
type BodyText = ReturnType<typeof bodyText>;

/** `redact` hides secret values in the free text before it is escaped. */
export function commentBody(
  report: CommentReport,
  redact: (text: string) => string = (text) => text,
): string {
  const write = bodyText(redact);
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

function healthCell(health: HealthSeen, { text, code }: BodyText): string {
  const write = { text: (value: string) => text(value, 200), code: (value: string) => code(value) };
  return `${health.ok ? '✅' : '❌'} ${healthWords(health, write)}`;
}

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

function driftLines(report: CommentReport, { code }: BodyText, usedChars: number): string[] {
  const head = [
    `**Drift:** ${report.drift.length} ${plural(report.drift.length, 'difference')} the service cannot apply to a reused deployment:`,
    '',
    '| Field | Wanted | Live |',
    '| --- | --- | --- |',
  ];
  const rows = report.drift.map(
    (entry) => `| ${code(entry.field, 200)} | ${show(entry.wanted)} | ${show(entry.live)} |`,
  );
  const more = (left: number) =>
    `…and ${left} more: see the job summary and the step's \`drift\` output.`;
  return [...head, ...rowsWithin(rows, usedChars + head.join('\n').length + 1 + 200, more)];
}

export interface AgentState {
  agent: AgentOnGitHub;
  report?: RunReport;
  failure?: string;
  over: boolean;
  /** The pull request does not change it (its `paths`): this run did not deploy it. */
  skipped?: boolean;
}

/**
 * An agent this run did not deploy: a preview an earlier run of the pull request made (listed,
 * with its dashboard) runs on until deleted; else it never had one.
 */
function skippedRow(key: string, earlier: Map<string, string | undefined>, health: boolean) {
  if (earlier.has(key)) {
    const live = '⚪ unchanged: not deployed by this run';
    return goneRow(key, earlier.get(key), health, live);
  }
  const cells = [markdownCode(key), '', '', NO_PREVIEW, '', '', '', ''];
  return `| ${withHealth(cells, health ? '' : undefined).join(' | ')} |`;
}

const ROW_FAILURE_CHARS = 300;
function commitOf(report: RunReport): string {
  const live = report.supersededBy ?? (report.stage === 'live' ? report.liveCommit : undefined);
  const sha = live ?? report.targetCommit;
  if (sha === undefined) return '';
  const code = commitCode(sha);
  return live === undefined ? `${code} wanted` : `${code} is live`;
}

function liveOf({ report, failure, over }: AgentState): string {
  if (report === undefined) return failure !== undefined ? '🔴 failed' : over ? '⚪ over' : '🟡 …';
  if (failure !== undefined && report.stage !== 'cancelled') return '🔴 failed';
  if (report.stage === 'not-live' && report.never === true) return '🔴 will not run this commit';
  return LIVE[report.stage];
}

const LIVE: Record<Stage, string> = {
  live: '🟢 live',
  failed: '🔴 failed',
  cancelled: '⚪ cancelled',
  'not-live': '🟡 not live yet',
  deploying: '🟡 deploying',
};

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
    failure === undefined ? '' : markdownText(redact(failure), ROW_FAILURE_CHARS),
  ];
  const seen = report?.health;
  const shown = health ? (seen === undefined ? '' : healthCell(seen, bodyText(redact))) : undefined;
  return `| ${withHealth(cells, shown).join(' | ')} |`;
}

export function agentsCommentBody(
  manifest: ManifestOnGitHub,
  states: readonly AgentState[],
  previous: string | undefined,
  parts: { runUrl?: string; redact: (text: string) => string },
): string {
  const identity = manifestIdentity(manifest);
  const live = states.filter((state) => state.report?.stage === 'live').length;
  const title = markdownCode(parts.redact(identity), 200, false);
  const health = states.some((state) => state.report?.health !== undefined);
  const skipped = states.filter((state) => state.skipped === true).length;
  const unchanged = skipped === 0 ? '' : `, ${skipped} unchanged`;
  const earlier = listedAgents(previous);
  const head = [
    manifestMarker(identity),
    `### Agents of ${title}: ${live} of ${states.length - skipped} live${unchanged}`,
    '',
    ...headOf(health),
  ];
  const tail = runTail(parts.runUrl);
  const all = [
    ...states.map((state) =>
      state.skipped === true
        ? skippedRow(state.agent.key, earlier, health)
        : agentRow(state, parts.redact, health),
    ),
    ...goneAgents(manifest, previous).map(([key, dashboard]) => goneRow(key, dashboard, health)),
  ];
  return [...head, ...keptRows(head, all, tail), ...tail].join('\n') + '\n';
}
