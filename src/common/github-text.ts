/**
 * The one writer of text that goes to GitHub: the comment (Markdown), the job summary and
 * `--summary` (HTML inside Markdown), deployment statuses (one plain line). Service text is
 * data in all of them: never HTML, a link, an image, a mention (`@name`) or an issue reference
 * (`#12`, `owner/repo#3`, `GH-12`). The only links are built here, to addresses
 * `common/address.ts` lets through.
 *
 * GitHub links mentions, references and bare addresses in the rendered text (outside code and
 * links), from Markdown or HTML alike (`&#64;` decodes back to `@` first). So a zero-width
 * space follows every `@`, `#` and `GH-` in service text, and an address in it sits in a code
 * span (linked by nothing, copied as it is). Inside code, `<pre>` or a link, text is only escaped.
 */
import { publishedOrNothing } from './address.js';
import { LINE_BREAK, percentEscape, UNSAFE_RUN_IN_A_LINE } from './characters.js';

const ZWSP = '\u200b';

function cut(text: string, max: number): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** `value` on one line (controls and breaks as one space), cut to `max` characters with `…`. */
function oneLine(value: string, max = Infinity): string {
  return cut(value.replace(UNSAFE_RUN_IN_A_LINE, ' '), max);
}

function inert(text: string): string {
  return text
    .replace(/[@#]/g, (c) => `${c}${ZWSP}`)
    .replace(/\bGH-/gi, (w) => `${w.slice(0, 2)}${ZWSP}-`);
}

/**
 * An address GitHub would link: a scheme's `://` or `www.`, up to a space or a character no code
 * span or table cell keeps. The scheme is bounded, so a long word is not read again from each letter.
 */
const ADDRESS = /(?:[a-z][a-z0-9+.-]{0,31}:\/\/|www\.)[^\s|<>"'`\\]*/gi;

/** Punctuation that ends a sentence rather than an address, as GitHub leaves it out of a link. */
const TRAILING = new Set('.,:;!?*_~)]}');

/** A loop: a `[…]+$` would read the rest again from each. */
function withoutTrailing(address: string): string {
  let end = address.length;
  while (end > 0 && TRAILING.has(address.charAt(end - 1))) end--;
  return address.slice(0, end);
}

function withAddresses(
  text: string,
  prose: (part: string) => string,
  address: (part: string) => string,
): string {
  let written = '';
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const found = withoutTrailing(match[0]);
    if (found === '') continue;
    written += prose(text.slice(from, match.index)) + address(found);
    from = match.index + found.length;
  }
  return written + prose(text.slice(from));
}

/** A deployment status or description: GitHub shows it as it is. */
export function plainLine(value: string, max: number): string {
  return cut(oneLine(value).trim(), max);
}

/**
 * Punctuation that starts Markdown markup anywhere in a line, escaped. (`-`, `+`, `=`, `#`, `>`
 * do only at a line's start, where service text never is; `!` only before an escaped `[`.)
 */
const MARKDOWN_INLINE = /[\\`*_~[\]<&|]/g;

export function markdownText(value: string, max = 300): string {
  return withAddresses(
    oneLine(value, max),
    (part) => inert(part).replace(MARKDOWN_INLINE, (c) => `\\${c}`),
    (address) => markdownCode(address, Infinity),
  );
}

/**
 * For ids, names and commits: fenced by more backticks than any run inside. In a table a `|`
 * ends the cell even inside a code span, so it is escaped there (GitHub shows `|`).
 */
export function markdownCode(value: string, max = 300, inTable = true): string {
  const text = oneLine(value, max);
  if (text.trim() === '') return '(none)';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark takes a space from each end of a span that starts or ends with one or a backtick.
  const pad =
    text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' '));
  const padded = pad ? ` ${text} ` : text;
  const body = inTable ? padded.replace(/\|/g, '\\|') : padded;
  return `${fence}${body}${fence}`;
}

/** Characters that would end a link's destination early, break a table or start markup. */
const UNSAFE_IN_A_DESTINATION = /[()<>\s"'`|[\]\\]/g;

/** Where a link the action builds goes: only to an address that may be published. */
function destination(address: string | null | undefined): string | undefined {
  return publishedOrNothing(address)?.replace(UNSAFE_IN_A_DESTINATION, percentEscape);
}

export function markdownLink(text: string, address: string | null | undefined): string | undefined {
  const href = destination(address);
  return href === undefined ? undefined : `[${text}](${href})`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** What Markdown could take for markup should the HTML block end early (no blank line gets in). */
const MARKDOWN_IN_HTML = /[|[\]()!`\\]/g;

/** For where GitHub links nothing (code, pre, a link). */
function htmlLiteral(text: string): string {
  return text
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c)
    .replace(MARKDOWN_IN_HTML, (c) => `&#${c.charCodeAt(0)};`);
}

/** On one line: a blank line would end the HTML block. */
export function htmlText(value: string, max = 1_000): string {
  // Made inert before it is escaped: the references written then hold a '#' of their own.
  return withAddresses(
    oneLine(value, max),
    (part) => htmlLiteral(inert(part)),
    (address) => `<code>${htmlLiteral(address)}</code>`,
  );
}

export function htmlCode(value: string, max = 300): string {
  return `<code>${htmlLiteral(oneLine(value, max))}</code>`;
}

export function htmlLink(text: string, address: string | null | undefined): string | undefined {
  const href = destination(address)?.replace(/&/g, '&amp;');
  if (href === undefined) return undefined;
  // GitHub links nothing inside a link: its text is shown as it is, an address a reader can copy.
  return `<a href="${href}">${htmlLiteral(oneLine(text, 1_000))}</a>`;
}

/** For a `<pre>`: no blank line, or the HTML block would end before its closing tag. */
export function htmlLines(value: string): string {
  return value
    .split(LINE_BREAK)
    .filter((line) => line.trim() !== '')
    .map((line) => htmlLiteral(oneLine(line)))
    .join('\n');
}
