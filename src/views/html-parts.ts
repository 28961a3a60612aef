import { htmlCode, htmlText } from '../common/github-text.js';
import type { CutList } from '../common/summary.js';
import type { DriftEntry } from '../run/ports/findings.js';
import { showValue } from '../run/decisions/drift.js';

export type Cell = (value: string | null | undefined) => string;
export type Redact = (text: string) => string;

/** Secret values removed first (they could not be found once escaped), then written. */
const cellOf =
  (redact: Redact, write: (text: string) => string): Cell =>
  (value) =>
    value === undefined || value === null || value === '' ? '—' : write(redact(value));

export const cellsOf = (redact: Redact) => ({
  text: cellOf(redact, (value) => htmlText(value)),
  code: cellOf(redact, (value) => htmlCode(value)),
});

export const tableRow = (cells: readonly string[], tag = 'td') =>
  `<tr>${cells.map((cell) => `<${tag}>${cell}</${tag}>`).join('')}</tr>`;

export function labelledTable(rows: [string, string][]): string {
  const body = rows
    .map(([label, value]) => `<tr><th align="left">${label}</th><td>${value}</td></tr>`)
    .join('\n');
  return `<table>\n${body}\n</table>`;
}

/** One row a field, as many as fit, and a count of the others. */
export function differencesTable(
  drift: DriftEntry[],
  code: Cell,
  wants: string,
  has: string,
  head = '',
): CutList {
  return {
    head: `${head}<table>\n<tr><th>Field</th><th>${wants}</th><th>${has}</th></tr>`,
    lines: drift.map(
      (entry) =>
        `<tr><td>${code(entry.field)}</td><td>${code(showValue(entry.wanted))}</td><td>${code(showValue(entry.live))}</td></tr>`,
    ),
    tail: '\n</table>',
    leftOut: (count) =>
      `<p>… and ${count} more, left out to keep this summary under GitHub's limit: every one is in the step's log.</p>`,
  };
}
