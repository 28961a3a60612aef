/** The sweep's summary: never a word of anything being deleted or stopped. */
import { htmlLink, htmlText } from '../common/github-text.js';
import { boundedSummary, type SummaryPart } from '../common/summary.js';
import { plural } from '../common/text.js';
import type { Orphan, SweepSummary, Unknown } from '../run/ports/summaries.js';
import { cellsOf, labelledTable, type Cell } from './html-parts.js';

function changedOnGitHub(sweep: SweepSummary): string {
  const count = sweep.orphans.length;
  if (sweep.dryRun) return 'nothing (a dry run)';
  if (count === 0) return 'nothing (no orphan)';
  const { inactive, comments, byThisRun, already, failed, nothing } = sweep.retired;
  const done = [`${inactive} GitHub ${plural(inactive, 'deployment')} marked inactive`];
  if (comments > 0) done.push(`${comments} ${plural(comments, 'comment')} rewritten`);
  const parts = [`${byThisRun || 'none'} retired by this run (${done.join(', ')})`];
  if (already > 0) {
    parts.push(
      `${already} already retired by an earlier run, left as ${plural(already, 'it was', 'they were')}`,
    );
  }
  if (failed > 0) parts.push(`${failed} not fully retired: see the warnings in the step's log`);
  if (nothing > 0)
    parts.push(`${nothing} with nothing on GitHub to retire (no deployment record, no comment)`);
  return `${count} ${plural(count, 'orphan')}: ${parts.join('; ')}`;
}

/** Each once, as the previews' names spell them, smallest first. */
function unknownNumbers(unknown: readonly Unknown[]): string[] {
  const digits = [...new Set(unknown.map((preview) => preview.digits))];
  digits.sort((a, b) => a.length - b.length || a.localeCompare(b));
  return digits.map((number) => `#${number}`);
}

function orphansTable(orphans: readonly Orphan[], code: Cell): SummaryPart {
  return {
    head: '<table>\n<tr><th>Preview</th><th>Pull request</th><th>Closed</th><th>Status</th><th>Delete it</th></tr>',
    lines: orphans.map(
      (orphan) =>
        `<tr><td>${code(orphan.deployment.name)}</td><td>#${orphan.number} (${orphan.state})</td><td>${htmlText(orphan.closedAt ?? '—')}</td><td>${code(orphan.deployment.status)}</td><td>${
          htmlLink('open it in the dashboard', orphan.dashboardUrl) ??
          htmlText(`by its id ${orphan.deployment.id}`)
        }</td></tr>`,
    ),
    tail: '</table>',
    leftOut: (count) =>
      `<p>… and ${count} more ${plural(count, 'orphan')}, left out to keep this summary under GitHub's limit: the orphans output has every one.</p>`,
  };
}

export function sweepSummaryHtml(sweep: SweepSummary, redact: (text: string) => string): string {
  const { code } = cellsOf(redact);
  const { orphans } = sweep;
  const parts: SummaryPart[] = [
    `<h2>${orphans.length === 0 ? '✅ No orphaned preview' : `🧹 ${orphans.length} orphaned ${plural(orphans.length, 'preview')}`}: ${code(sweep.pattern)}</h2>`,
  ];
  if (orphans.length > 0) {
    parts.push(
      `<p>${htmlText('Each still runs (and costs) in the service for a closed pull request, until someone deletes it there: this step cannot delete it.')}</p>`,
      orphansTable(orphans, code),
    );
  }
  parts.push(
    labelledTable([
      ['Open pull requests', htmlText(`${sweep.open} ${plural(sweep.open, 'preview')} left alone`)],
      [
        'Unknown pull requests',
        htmlText(
          sweep.unknown.length === 0
            ? 'none'
            : `${unknownNumbers(sweep.unknown).join(', ')}: left alone`,
        ),
      ],
      ['Changed on GitHub', htmlText(changedOnGitHub(sweep))],
    ]),
  );
  return boundedSummary(parts);
}
