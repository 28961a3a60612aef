/**
 * How wide text is on a terminal, in screen columns, and text cut to a
 * number of columns: the one place the live line and the `list`/`repos`
 * tables measure. East Asian wide characters and emoji take two columns,
 * combining marks none, colour sequences none (string-width knows the
 * Unicode tables; a hand-kept table would fall behind them). A cut never
 * splits a grapheme (a letter and its marks, an emoji sequence, a flag),
 * so it never leaves half a surrogate pair.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text`'s width on a terminal, in columns (colour sequences take none). */
export function screenWidth(text: string): number {
  return stringWidth(text);
}

/**
 * `text` cut to at most `columns` columns, its last column `…` when cut.
 * `text` is plain: no colour sequences (they are counted as no column but
 * would be cut through).
 */
export function cutToWidth(text: string, columns: number): string {
  if (screenWidth(text) <= columns) return text;
  if (columns <= 0) return '';
  const segments = Array.from(graphemes.segment(text), ({ segment }) => segment);
  return `${leading(segments, columns - 1).join('')}…`;
}

/** The first of `segments` (graphemes) that fit in `columns` columns together. */
function leading(segments: readonly string[], columns: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const segment of segments) {
    const width = screenWidth(segment);
    if (used + width > columns) break;
    kept.push(segment);
    used += width;
  }
  return kept;
}

/**
 * `text` cut in the middle to at most `columns` columns: its start and its
 * end kept, `…` between them (`checkout-assi…-pr-7`), so that two names that
 * differ only at their end stay apart. Plain text, as `cutToWidth`.
 */
export function cutMiddle(text: string, columns: number): string {
  if (screenWidth(text) <= columns) return text;
  if (columns <= 0) return '';
  const room = columns - 1;
  const parts = Array.from(graphemes.segment(text), ({ segment }) => segment);
  const start = leading(parts, Math.ceil(room / 2));
  const used = screenWidth(start.join(''));
  const end = leading(parts.slice(start.length).reverse(), room - used).reverse();
  return `${start.join('')}…${end.join('')}`;
}

/** `text` padded with spaces to `columns` columns (as `padEnd`, in columns). */
export function padToWidth(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - screenWidth(text)));
}

/** How a row that goes on the row before starts (`wrapAtSpaces`). */
const GOES_ON = '  ';

/**
 * `line` broken at its spaces into rows of at most `columns` columns, each
 * row after the first indented, so that a terminal never breaks a word (an
 * id, an address) in two; a word wider than the row stays whole on its own.
 * A line that fits is as it was. Colour sequences take no column.
 */
export function wrapAtSpaces(line: string, columns: number): string {
  if (screenWidth(line) <= columns) return line;
  const rows: string[] = [];
  let row = '';
  for (const word of line.split(' ')) {
    const next = row === '' ? word : `${row} ${word}`;
    if (row !== '' && row.trim() !== '' && screenWidth(next) > columns) {
      rows.push(row);
      row = `${GOES_ON}${word}`;
    } else row = next;
  }
  rows.push(row);
  return rows.join('\n');
}
