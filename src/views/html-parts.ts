/**
 * The parts every summary is built of: a cell (secret values removed, then
 * written by the one GitHub-text module), a table of labelled cells, and a
 * table of differences cut to what fits.
 */
import type { CutList } from '../common/summary.js';
import type { DriftEntry } from '../run/ports/findings.js';
import { showValue } from '../run/decisions/drift.js';

export type Cell = (value: string | null | undefined) => string;

/**
 * A cell of the summary, written by the one GitHub-text module: secret values
 * removed first (they could not be found once escaped), then text or code.
 */
export const cellOf =
  (redact: (text: string) => string, write: (text: string) => string): Cell =>
  (value) =>
    value === undefined || value === null || value === '' ? '—' : write(redact(value));

/** A table of labelled cells, one row a label. */
export function labelledTable(rows: [string, string][]): string {
  const body = rows
    .map(([label, value]) => `<tr><th align="left">${label}</th><td>${value}</td></tr>`)
    .join('\n');
  return `<table>\n${body}\n</table>`;
}

/**
 * A table of differences (drift): one row a field, its wanted and live values,
 * secrets `***`; as many rows as fit in the summary, and a count of the others.
 */
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
