/**
 * A retired preview's comment (contract v1.3, `retire`; behaviour 20): the
 * preview's own comment (behaviour 14's marker, so a reopened pull request's
 * next deploy finds it again) rewritten to say the preview is retired and no
 * longer live, that its deployment still exists in the service, and where to
 * delete it. It never says the deployment was deleted or stopped. Written
 * through the one GitHub-text module.
 */
import { markdownCode, markdownLink } from '../common/github-text.js';
import type { RetireReport } from '../run/ports/progress.js';
import { marker } from './comment.js';

export interface RetiredComment extends RetireReport {
  /** How the pull request stands: merged, closed without merging, or open (unknown). */
  pullRequestState?: 'merged' | 'closed' | 'open';
  /** The workflow run's page. */
  runUrl?: string;
}

const WHY = {
  merged: 'This pull request was merged, so its preview is retired',
  closed: 'This pull request was closed, so its preview is retired',
  open: 'This preview is retired',
};

/** The retired comment's Markdown; `redact` hides secret values in service text first. */
export function retiredCommentBody(
  comment: RetiredComment,
  redact: (text: string) => string = (text) => text,
): string {
  const code = (value: string, max?: number) => markdownCode(redact(value), max);
  const name = markdownCode(redact(comment.name), 200, false);
  const why = WHY[comment.pullRequestState ?? 'open'];
  const lines = [
    marker(comment.name),
    `### ⚫ ${name}: preview retired`,
    '',
    `${why}: this comment no longer says it is live.`,
    '',
  ];
  const { deployment } = comment;
  if (deployment === undefined) {
    lines.push(`No deployment is named ${name} in the service: nothing is left to delete there.`);
  } else {
    lines.push(
      deployment.status === 'AWAITING_DELETE'
        ? `In the service, a deletion of its deployment was asked for: its status is ${code(deployment.status)}.`
        : "**Its deployment still exists in the service**, and keeps running (and costing) until someone deletes it there. This action cannot delete it: the service's interface has no delete.",
      '',
      '| | |',
      '| --- | --- |',
      `| Deployment | ${code(deployment.id, 100)} |`,
      `| Status | ${code(deployment.status, 100)} |`,
      `| Delete it | ${markdownLink('in the dashboard', comment.dashboardUrl) ?? `in the service, by its id ${code(deployment.id, 100)}`} |`,
    );
  }
  const run = markdownLink('Workflow run', comment.runUrl);
  if (run !== undefined) lines.push('', run);
  return `${lines.join('\n')}\n`;
}

/** The workflow run's link, the one line two runs' retired bodies differ by. */
const RUN_LINK = /^\[Workflow run\]\(.*\)$/m;

/**
 * Whether a comment already says what a retired body says, its workflow
 * run's link aside (each run has its own): a second retire or sweep of the
 * same preview then writes nothing (behaviour 25).
 */
export function sameRetiredBody(current: string, next: string): boolean {
  const withoutRun = (body: string) => body.replace(RUN_LINK, '').trimEnd();
  return withoutRun(current) === withoutRun(next);
}
