/**
 * The plan comment: one comment per pull request and deployment name,
 * with a marker of its own (a plan comment is never a preview's comment,
 * nor the other way round), written from the core's
 * `PlanReport` through the one GitHub-text module. A long list of changes
 * folds into a `<details>` block and is cut, with a count of what was left
 * out, so that the body stays under GitHub's 65,536 characters.
 */
import { markdownCode, markdownLink, markdownText } from '../../common/github-text.js';
import { plural } from '../../common/text.js';
import { showValue } from '../../run/decisions/drift.js';
import type { PlanNotMade, PlanReport } from '../../run/ports/progress.js';
import { dashboardUrlOf } from '../../run/decisions/report.js';
import { BODY_BUDGET, COMMENT_LIMIT, encodeName, rowsWithin } from './comment.js';
import { withRunUrl, type GitHubRunContext } from './context.js';
import type { PullRequestComment } from './pr-comment.js';

/** More changes than this fold into a `<details>` block. */
const FOLD_AFTER = 10;

/** The longest failure a comment shows (the service's message is already shortened). */
const FAILURE_CHARS = 1_000;

export function planMarker(name: string): string {
  return `<!-- deploy-agent-plan:${encodeName(name)} -->`;
}

/** Whether a comment's body is this name's plan comment (its marker opens it). */
export function carriesPlanMarker(body: string | null | undefined, name: string): boolean {
  return typeof body === 'string' && body.startsWith(planMarker(name));
}

/** What the deploy does with `count` differences: nothing; the remedy. */
function remedy(count: number): string {
  return `The deploy would not apply ${plural(count, 'this', 'these')}: the service cannot update a deployment. Change ${plural(count, 'it', 'them')} in the service, or deploy under a new name.`;
}

type Redact = (text: string) => string;

/** The plan comment's Markdown; `redact` hides secret values in free text first. */
export function planCommentBody(
  report: PlanReport & { runUrl?: string },
  redact: Redact = (text) => text,
): string {
  const { verdict } = report;
  const lines = [planMarker(report.name), `### ${planHeadline(report, redact)}`, ''];
  lines.push(...verdictLines(verdict, redact));
  const footer: string[] = [];
  const { deployment } = verdict;
  const links = [
    deployment === undefined
      ? undefined
      : markdownLink('dashboard', dashboardUrlOf(report.dashboardUrl, deployment)),
    markdownLink('workflow run', report.runUrl),
  ].filter((link) => link !== undefined);
  if (links.length > 0) footer.push('', links.join(' · '));
  if (verdict.changes.length > 0) {
    lines.push(...changesLines(verdict, redact, [...lines, ...footer].join('\n').length));
  }
  const body = [...lines, ...footer].join('\n');
  return body.length < COMMENT_LIMIT ? body : body.slice(0, BODY_BUDGET);
}

/** What the deploy would do, in one line. */
function planHeadline({ name: raw, verdict }: PlanReport, redact: Redact): string {
  const name = markdownCode(redact(raw), 200, false);
  const count = verdict.changes.length;
  return {
    create: `🆕 Plan for ${name}: the deploy would create it`,
    reuse:
      count === 0
        ? `✅ Plan for ${name}: the deploy would reuse it, and nothing differs`
        : `⚠️ Plan for ${name}: the deploy would reuse it, and not apply ${count} ${plural(count, 'difference')}`,
    fail: `❌ Plan for ${name}: the deploy would fail`,
  }[verdict.action];
}

/** The deployment it would reuse and what it tracks, why, and what would fail. */
export function verdictLines(verdict: PlanReport['verdict'], redact: Redact): string[] {
  const code = (value: string, max?: number) => markdownCode(redact(value), max);
  const lines: string[] = [];
  const { deployment } = verdict;
  if (deployment !== undefined) {
    const branch = verdict.tracks?.branch;
    lines.push(
      `Deployment ${code(deployment.id)} (${code(deployment.status)})` +
        (branch === undefined
          ? ''
          : `, tracking ${code(branch)}: a push there ${verdict.tracks?.buildsOnPush === true ? 'builds a new revision' : 'builds nothing (build_on_push is off)'}`) +
        '.',
      '',
    );
  }
  if (verdict.reason !== undefined) lines.push(markdownText(redact(verdict.reason), 1_000), '');
  if (verdict.wouldFail !== undefined) {
    lines.push(`**${markdownText(redact(verdict.wouldFail), 1_000)}**`, '');
  }
  if (verdict.action === 'reuse' && verdict.changes.length === 0) {
    lines.push('Nothing the pull request asks for differs from the deployment.', '');
  }
  return lines;
}

/**
 * The changes the deploy would not apply, as many rows as fit after
 * `usedChars` of the rest, folded into `<details>` past `FOLD_AFTER`.
 */
export function changesLines(
  verdict: PlanReport['verdict'],
  redact: Redact,
  usedChars: number,
): string[] {
  const code = (value: string) => markdownCode(redact(value));
  const count = verdict.changes.length;
  const rows = verdict.changes.map(
    (change) =>
      `| ${code(change.field)} | ${code(showValue(change.wanted))} | ${code(showValue(change.live))} |`,
  );
  const head = [
    remedy(count),
    '',
    '| Field | The pull request asks for | The deployment has |',
    '| --- | --- | --- |',
  ];
  const kept = rowsWithin(rows, usedChars + 1 + head.join('\n').length + 200);
  const cut = rows.length - kept.length;
  const table = [...head, ...kept];
  if (cut > 0) {
    table.push('', `… and ${cut} more, left out to keep this comment under GitHub's limit.`);
  }
  if (count <= FOLD_AFTER) return table;
  return [`<details><summary>${count} differences</summary>`, '', ...table, '', '</details>'];
}

/**
 * The plan comment when the plan could not be made: which head, and why, and no verdict, so that it never keeps speaking for a
 * commit it did not plan.
 */
export function planNotMadeBody(
  report: PlanNotMade & { runUrl?: string },
  redact: Redact = (text) => text,
): string {
  const name = markdownCode(redact(report.name), 200, false);
  const head =
    report.head === undefined ? 'this head' : markdownCode(report.head.slice(0, 7), 40, false);
  const lines = [
    planMarker(report.name),
    `### 🚫 Plan for ${name}: the plan for ${head} could not be made`,
    '',
    'The service failed, so there is no verdict for this commit: what this comment said before was about an earlier commit, and no longer holds. Run the plan again once the cause is fixed.',
    '',
    `**Why:** ${markdownText(redact(report.failure), FAILURE_CHARS)}`,
  ];
  const run = markdownLink('workflow run', report.runUrl);
  if (run !== undefined) lines.push('', run);
  return lines.join('\n');
}

/**
 * Writes the plan comment, found among the token's own comments by its own
 * marker (`comment` is made with `carriesPlanMarker`), then created or
 * updated in place, one write a run; a plan that could not be made rewrites
 * it to say so, without a verdict, naming the head it was for: the core's,
 * else the pull request's head (`context.sha`).
 */
export async function writePlanComment(
  comment: PullRequestComment,
  report: PlanReport | PlanNotMade,
  context: Pick<GitHubRunContext, 'sha' | 'runUrl'>,
  redact: (text: string) => string,
): Promise<void> {
  const { sha, runUrl } = context;
  const body = () =>
    'verdict' in report
      ? planCommentBody(withRunUrl(report, runUrl), redact)
      : planNotMadeBody(
          withRunUrl({ ...(sha === '' ? {} : { head: sha }), ...report }, runUrl),
          redact,
        );
  await comment.writeBody(report.name, body);
}
