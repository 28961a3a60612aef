/**
 * The retire's summary: where the preview's deployment still is and where
 * to delete it, and what was done on GitHub; a manifest's, each agent's
 * preview in turn. Never a word of anything being deleted or stopped: the
 * service's interface has no delete.
 */
import { htmlCode, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary } from '../common/summary.js';
import type { RetireReport, Retirement } from '../run/ports/progress.js';
import type { RetireSummary } from '../run/ports/summaries.js';
import { cellsOf, labelledTable } from './html-parts.js';

/** What the retire did on GitHub, one row each. */
function gitHubRows(retirement: Retirement | undefined): [string, string][] {
  if (retirement === undefined)
    return [['GitHub', htmlText('nothing was changed (no github-token or no repository)')]];
  const rows: [string, string][] = [];
  if (retirement.environment !== undefined) {
    const listed = `${retirement.found}${retirement.more ? '+' : ''}`;
    const already = retirement.alreadyInactive ?? 0;
    rows.push([
      `GitHub deployments of ${htmlCode(retirement.environment)}`,
      htmlText(
        `${retirement.inactive} of ${listed} marked inactive${already > 0 ? ` (${already} already were)` : ''}`,
      ),
    ]);
  }
  const comment = {
    rewritten: 'rewritten to say the preview is retired',
    unchanged: 'already says the preview is retired',
    none: 'none to rewrite',
    failed: 'not rewritten (see the warning in the log)',
    skipped: 'not asked for',
  }[retirement.comment];
  rows.push(['Pull request comment', htmlText(comment)]);
  return rows;
}

/** The job summary of a retire, as HTML (service text escaped by the one GitHub-text module). */
export function retireSummaryHtml(
  { name, deployments }: RetireReport,
  retirement: Retirement | undefined,
  redact: (text: string) => string,
): string {
  const { code } = cellsOf(redact);
  // The retire step's preview has its one deployment, or none.
  const { deployment, dashboardUrl } = deployments[0] ?? {};
  const parts = [`<h2>⚫ Preview retired: ${code(name)}</h2>`];
  if (deployment === undefined) {
    parts.push(
      `<p>${htmlText(`No deployment is named '${redact(name)}' in the service: nothing is left to delete there.`)}</p>`,
    );
  } else {
    parts.push(
      `<p>${htmlText(
        deployment.status === 'AWAITING_DELETE'
          ? 'The preview is retired on GitHub. In the service, a deletion of its deployment was asked for (its status says so).'
          : 'The preview is retired on GitHub. Its deployment still exists in the service, and keeps running (and costing) until someone deletes it there: this step cannot delete it.',
      )}</p>`,
    );
  }
  const link =
    dashboardUrl === undefined ? undefined : htmlLink('open it in the dashboard', dashboardUrl);
  const rows: [string, string][] = [
    ...(deployment === undefined
      ? []
      : ([
          ['Deployment', code(deployment.id)],
          ['Status', code(deployment.status)],
          ['Delete it', link ?? htmlText(`in the service, by its id ${deployment.id}`)],
        ] as [string, string][])),
    ...gitHubRows(retirement),
  ];
  parts.push(labelledTable(rows));
  return boundedSummary(parts);
}

/** The summary of a retire, of one preview (flat) or of a manifest's (each in turn). */
export function retireLayoutHtml(
  { previews }: RetireSummary,
  redact: (text: string) => string,
): string {
  return previews.map((part) => retireSummaryHtml(part.report, part.retirement, redact)).join('\n');
}
