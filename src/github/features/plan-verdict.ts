/** A deployment's plan in Markdown, as both layouts of the plan comment show it. */
import { markdownCode, markdownText } from '../../common/github-text.js';
import { plural } from '../../common/text.js';
import { showValue } from '../../run/decisions/drift.js';
import type { PlanReport } from '../../run/ports/progress.js';
import { rowsWithin } from './comment-marker.js';

/** More changes than this fold into a `<details>` block. */
const FOLD_AFTER = 10;

function remedy(count: number): string {
  return `The deploy would not apply ${plural(count, 'this', 'these')}: the service cannot update a deployment. Change ${plural(count, 'it', 'them')} in the service, or deploy under a new name.`;
}

type Redact = (text: string) => string;

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

/** The changes the deploy would not apply, as many as fit after `usedChars`. */
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
  const table = [
    ...head,
    ...rowsWithin(
      rows,
      usedChars + 1 + head.join('\n').length + 200,
      (cut) => `… and ${cut} more, left out to keep this comment under GitHub's limit.`,
    ),
  ];
  if (count <= FOLD_AFTER) return table;
  return [`<details><summary>${count} differences</summary>`, '', ...table, '', '</details>'];
}
