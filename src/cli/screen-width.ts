/**
 * Text measured and cut in screen columns (string-width knows the Unicode
 * tables; a hand-kept one would fall behind). A cut never splits a grapheme,
 * so it never leaves half a surrogate pair.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function screenWidth(text: string): number {
  return stringWidth(text);
}

/** Its last column `…` when cut. Plain text only: a colour sequence would be cut through. */
export function cutToWidth(text: string, columns: number): string {
  if (screenWidth(text) <= columns) return text;
  if (columns <= 0) return '';
  const segments = Array.from(graphemes.segment(text), ({ segment }) => segment);
  return `${leading(segments, columns - 1).join('')}…`;
}

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

/** `checkout-assi…-pr-7`: two names that differ only at their end stay apart. Plain text. */
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

export function padToWidth(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - screenWidth(text)));
}

const GOES_ON = '  ';

/** Broken at spaces, rows after the first indented, so a terminal never breaks a word (an id) in two. */
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
