/** The retire's summary: never a word of anything deleted or stopped, the service has no delete. */
import { htmlCode, htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary } from '../common/summary.js';
import type { RetireReport, Retirement } from '../run/ports/progress.js';
import type { RetireSummary } from '../run/ports/summaries.js';
import { cellsOf, labelledTable, type Redact } from './html-parts.js';

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

export function retireSummaryHtml(
  { name, deployments }: RetireReport,
  retirement: Retirement | undefined,
  redact: Redact,
): string {
  const { code } = cellsOf(redact);
  // The retire step's preview has its one deployment, or none.
  const { deployment, dashboardUrl } = deployments[0] ?? {};
  const parts = [`<h2>⚫ Preview retired: ${code(name)}</h2>`];
  const rows: [string, string][] = [];
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
    const link = htmlLink('open it in the dashboard', dashboardUrl);
    rows.push(
      ['Deployment', code(deployment.id)],
      ['Status', code(deployment.status)],
      ['Delete it', link ?? htmlText(`in the service, by its id ${deployment.id}`)],
    );
  }
  parts.push(labelledTable([...rows, ...gitHubRows(retirement)]));
  return boundedSummary(parts);
}

export function retireLayoutHtml({ previews }: RetireSummary, redact: Redact): string {
  return previews.map((part) => retireSummaryHtml(part.report, part.retirement, redact)).join('\n');
}
