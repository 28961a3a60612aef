/**
 * A job summary within GitHub's 1 MiB (UTF-8) limit. Its lists are as long as the service makes
 * them (each secret a drift row), so it is written as fixed parts and lists cut to what fits,
 * with a count of what was left out.
 */

/** A margin under 1 MiB: the redaction after it may grow it. */
export const SUMMARY_BUDGET = 1_000_000;

export interface CutList {
  head: string;
  lines: readonly string[];
  /** Follows the last line as it is: `\n</table>`, or `</pre>` closing the last line. */
  tail: string;
  /** Said after the tail when `count` lines were left out. */
  leftOut: (count: number) => string;
}

export type SummaryPart = string | CutList;

export const bytesOf = (text: string): number => Buffer.byteLength(text, 'utf8');

const noteBytes = (list: CutList) =>
  bytesOf(list.head) + bytesOf(list.tail) + bytesOf(list.leftOut(Number.MAX_SAFE_INTEGER)) + 3;

/** Fixed parts whole, then each list, in order, keeps its first lines that fit in what is left. */
export function boundedSummary(parts: readonly SummaryPart[], budget = SUMMARY_BUDGET): string {
  const fixed = parts.filter((part): part is string => typeof part === 'string');
  const lists = parts.filter((part): part is CutList => typeof part !== 'string');
  let left =
    budget -
    fixed.reduce((sum, part) => sum + bytesOf(part) + 1, 0) -
    lists.reduce((sum, list) => sum + noteBytes(list) + 1, 0);
  const written = parts.map((part) => {
    if (typeof part === 'string') return part;
    const kept: string[] = [];
    for (const line of part.lines) {
      const size = bytesOf(line) + 1;
      if (size > left) break;
      kept.push(line);
      left -= size;
    }
    const cut = part.lines.length - kept.length;
    const body = [part.head, ...kept].join('\n') + part.tail;
    return cut > 0 ? `${body}\n${part.leftOut(cut)}` : body;
  });
  return within(written.join('\n'), budget);
}

/** The last guard (only a fixed part that lost its own bound is this long): cut at a line break. */
export function within(text: string, budget = SUMMARY_BUDGET): string {
  const size = bytesOf(text);
  if (size <= budget) return text;
  const note = (bytes: number) =>
    `\n<p>… and ${bytes} more bytes, left out to keep this summary under GitHub's limit.</p>\n`;
  const room = budget - bytesOf(note(size));
  const head = Buffer.from(text, 'utf8')
    .subarray(0, room)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const cutAt = head.lastIndexOf('\n');
  const kept = cutAt > 0 ? head.slice(0, cutAt) : head;
  return `${kept}${note(size - bytesOf(kept))}`;
}
