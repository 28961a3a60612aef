/**
 * A retired preview's comment: the preview's own comment (its marker, so a
 * reopened pull request's next deploy finds it again) rewritten to say the
 * preview is retired and no longer live, that its deployment still exists in
 * the service (each of them, when the service holds several of the name), and
 * where to delete it. It never says a deployment was deleted or stopped.
 * Written through the one GitHub-text module.
 */
import { markdownCode, markdownLink } from '../../common/github-text.js';
import type { RetiredDeployment, RetireReport } from '../../run/ports/progress.js';
import { marker } from './comment.js';

export interface RetiredComment extends RetireReport {
  /** How the pull request stands: merged, closed without merging, or open (unknown). */
  pullRequestState?: 'merged' | 'closed' | 'open';
  /** The workflow run's page. */
  runUrl?: string;
}

type Redact = (text: string) => string;

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
  const name = markdownCode(redact(comment.name), 200, false);
  const why = WHY[comment.pullRequestState ?? 'open'];
  const lines = [
    marker(comment.name),
    `### ⚫ ${name}: preview retired`,
    '',
    `${why}: this comment no longer says it is live.`,
    '',
  ];
  // In id order: two runs that list them in another order write the same body.
  const deployments = [...comment.deployments].sort((a, b) =>
    a.deployment.id.localeCompare(b.deployment.id),
  );
  const [one] = deployments;
  if (one === undefined) {
    lines.push(`No deployment is named ${name} in the service: nothing is left to delete there.`);
  } else if (deployments.length === 1) {
    lines.push(...oneDeployment(one, redact));
  } else {
    lines.push(...severalDeployments(deployments, redact));
  }
  const run = markdownLink('Workflow run', comment.runUrl);
  if (run !== undefined) lines.push('', run);
  return `${lines.join('\n')}\n`;
}

/** Where to delete a deployment: its dashboard, else its id in the service. */
function deleteIt({ deployment, dashboardUrl }: RetiredDeployment, redact: Redact): string {
  return (
    markdownLink('in the dashboard', dashboardUrl) ??
    `in the service, by its id ${markdownCode(redact(deployment.id), 100)}`
  );
}

/** The one deployment of the name: what it is, and a row each for its id, status and where to delete it. */
function oneDeployment(retired: RetiredDeployment, redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  const { deployment } = retired;
  return [
    deployment.status === 'AWAITING_DELETE'
      ? `In the service, a deletion of its deployment was asked for: its status is ${code(deployment.status)}.`
      : "**Its deployment still exists in the service**, and keeps running (and costing) until someone deletes it there. This action cannot delete it: the service's interface has no delete.",
    '',
    '| | |',
    '| --- | --- |',
    `| Deployment | ${code(deployment.id)} |`,
    `| Status | ${code(deployment.status)} |`,
    `| Delete it | ${deleteIt(retired, redact)} |`,
  ];
}

/** Several deployments of the one name (the service allows it): a row each. */
function severalDeployments(deployments: readonly RetiredDeployment[], redact: Redact): string[] {
  const code = (value: string) => markdownCode(redact(value), 100);
  const count = deployments.length;
  const deleting = deployments.every(({ deployment }) => deployment.status === 'AWAITING_DELETE');
  return [
    deleting
      ? `The service holds ${count} deployments of this name. For each, a deletion was asked for: their statuses are ${code('AWAITING_DELETE')}.`
      : `**The service holds ${count} deployments of this name, and they still exist there**: each keeps running (and costing) until someone deletes it. This action cannot delete them: the service's interface has no delete.`,
    '',
    '| Deployment | Status | Delete it |',
    '| --- | --- | --- |',
    ...deployments.map(
      (retired) =>
        `| ${code(retired.deployment.id)} | ${code(retired.deployment.status)} | ${deleteIt(retired, redact)} |`,
    ),
  ];
}

/** The workflow run's link, the one line two runs' retired bodies differ by. */
const RUN_LINK = /^\[Workflow run\]\(.*\)$/m;

/**
 * Whether a comment already says what a retired body says, its workflow
 * run's link aside (each run has its own): a second retire or sweep of the
 * same preview then writes nothing.
 */
export function sameRetiredBody(current: string, next: string): boolean {
  const withoutRun = (body: string) => body.replace(RUN_LINK, '').trimEnd();
  return withoutRun(current) === withoutRun(next);
}
