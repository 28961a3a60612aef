/**
 * The one writer of text that goes to GitHub: the pull request comment
 * (Markdown), the job summary and the command's `--summary` (HTML inside
 * Markdown), and deployment statuses (plain text on one line). Text from the
 * service is data in all of them: it shows as the text it is, never as HTML,
 * a link, an image, an autolink, a mention (`@name`) or an issue reference
 * (`#12`, `owner/repo#3`, `GH-12`). The only links are the ones built here,
 * to addresses the address rule lets through (`common/address.ts`).
 *
 * GitHub renders Markdown with cmark-gfm, then links mentions, issue
 * references and bare addresses in the text it rendered (outside code and
 * links), whether the text came from Markdown or from HTML: an entity such
 * as `&#64;` decodes back to `@` before that. So a zero-width space goes
 * after every `@`, `#` and `GH-` in service text; an address in it
 * (`https://…`, `www.…`) sits in a code span, where GitHub links nothing and
 * a reader copies it as it is; and code spans hold what reads best as code
 * (ids, names, commits). Nothing is linked inside a code span, a `<pre>` or
 * a link, so the text there is only escaped.
 *
 * A new kind of GitHub text adds its writer here.
 */
import { publishedOrNothing } from './address.js';
import { LINE_BREAK, percentEscape, UNSAFE_RUN_IN_A_LINE } from './characters.js';

/** Zero width: breaks a mention, an issue reference or an autolink, and shows nothing. */
const ZWSP = '\u200b';

/** `text` cut to `max` characters, the last one `…` when cut. */
function cut(text: string, max: number): string {
  const characters = [...text];
  return characters.length > max ? `${characters.slice(0, max - 1).join('')}…` : text;
}

/** `value` on one line (controls and breaks as one space), cut to `max` characters with `…`. */
function oneLine(value: string, max = Infinity): string {
  return cut(value.replace(UNSAFE_RUN_IN_A_LINE, ' '), max);
}

/** A mention or an issue reference GitHub would link in rendered text, made inert by a zero-width space. */
function inert(text: string): string {
  return text
    .replace(/[@#]/g, (c) => `${c}${ZWSP}`)
    .replace(/\bGH-/gi, (w) => `${w.slice(0, 2)}${ZWSP}-`);
}

/**
 * An address GitHub would link in text: a scheme's `://` or `www.`, up to a
 * space or a character no code span or table cell keeps as it is. The scheme
 * is bounded, so that a long word without `://` is not read again from each
 * of its letters.
 */
const ADDRESS = /(?:[a-z][a-z0-9+.-]{0,31}:\/\/|www\.)[^\s|<>"'`\\]*/gi;

/** Punctuation that ends a sentence rather than an address, as GitHub leaves it out of a link. */
const TRAILING = new Set('.,:;!?*_~)]}');

/** `address` without the punctuation after it (a loop: a `[…]+$` reads the rest again from each). */
function withoutTrailing(address: string): string {
  let end = address.length;
  while (end > 0 && TRAILING.has(address.charAt(end - 1))) end--;
  return address.slice(0, end);
}

/** `text` with each address written by `address` and the text between by `prose`. */
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

// ---- plain text: deployment statuses and descriptions --------------------------------------------

/** A description or status text: one line, trimmed, at most `max` characters. GitHub shows it as is. */
export function plainLine(value: string, max: number): string {
  return cut(oneLine(value).trim(), max);
}

// ---- Markdown: the pull request comment ---------------------------------------------------------

/**
 * Inline Markdown punctuation that can start markup anywhere in a line: a
 * backslash escape keeps it literal. (`-`, `+`, `=`, `#` and `>` start markup
 * only at the start of a line, where service text never is; `!` only before
 * a `[`, which is escaped.)
 */
const MARKDOWN_INLINE = /[\\`*_~[\]<&|]/g;

/**
 * Service text as inline Markdown: on one line, cut to `max`, the punctuation
 * that would start markup escaped, nothing GitHub would link.
 */
export function markdownText(value: string, max = 300): string {
  return withAddresses(
    oneLine(value, max),
    (part) => inert(part).replace(MARKDOWN_INLINE, (c) => `\\${c}`),
    (address) => markdownCode(address, Infinity),
  );
}

/**
 * Service text as a code span, which reads best for ids, names and commits:
 * fenced by more backticks than any run inside, on one line, cut to `max`.
 * In a table cell a `|` ends the cell even inside a code span, so it is
 * escaped there (GitHub shows `|`).
 */
export function markdownCode(value: string, max = 300, inTable = true): string {
  const text = oneLine(value, max);
  if (text.trim() === '') return '(none)';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick, or with a space at both ends, needs a space
  // each side: CommonMark takes one away from each.
  const pad =
    text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' '));
  const padded = pad ? ` ${text} ` : text;
  const body = inTable ? padded.replace(/\|/g, '\\|') : padded;
  return `${fence}${body}${fence}`;
}

/** Characters that would end a link's destination early, break a table or start markup. */
const UNSAFE_IN_A_DESTINATION = /[()<>\s"'`|[\]\\]/g;

/** A link the action builds, `[text](address)`: only to an address that may be published. */
export function markdownLink(text: string, address: string | null | undefined): string | undefined {
  const published = publishedOrNothing(address);
  if (published === undefined) return undefined;
  return `[${text}](${published.replace(UNSAFE_IN_A_DESTINATION, percentEscape)})`;
}

// ---- HTML inside Markdown: the job summary and --summary ---------------------------------------

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML's own characters as references. */
function htmlEscaped(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/**
 * Characters Markdown could take for markup should the HTML block end early
 * (it cannot: no blank line gets in), as character references.
 */
const MARKDOWN_IN_HTML = /[|[\]()!`\\]/g;

/** Text escaped for the summary's HTML, as it is: for where GitHub links nothing (code, pre, a link). */
function htmlLiteral(text: string): string {
  return htmlEscaped(text).replace(MARKDOWN_IN_HTML, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Service text for the summary's HTML: on one line (a blank line would end
 * the HTML block), cut to `max`, escaped, nothing GitHub would link.
 */
export function htmlText(value: string, max = 1_000): string {
  // Made inert before it is escaped: the references written then hold a '#' of their own.
  return withAddresses(
    oneLine(value, max),
    (part) => htmlLiteral(inert(part)),
    (address) => `<code>${htmlLiteral(address)}</code>`,
  );
}

/** Service text in `<code>`, which reads best for ids, names, commits and addresses. */
export function htmlCode(value: string, max = 300): string {
  return `<code>${htmlLiteral(oneLine(value, max))}</code>`;
}

/** A link the action builds, `<a href>`: only to an address that may be published. */
export function htmlLink(text: string, address: string | null | undefined): string | undefined {
  const published = publishedOrNothing(address);
  if (published === undefined) return undefined;
  const href = published.replace(UNSAFE_IN_A_DESTINATION, percentEscape).replace(/&/g, '&amp;');
  // GitHub links nothing inside a link: its text is shown as it is, an address a reader can copy.
  return `<a href="${href}">${htmlLiteral(oneLine(text, 1_000))}</a>`;
}

/**
 * Several lines of text for a `<pre>` in the summary: its lines kept, each
 * escaped, no blank one (the HTML block would end before its closing tag).
 */
export function htmlLines(value: string): string {
  return value
    .split(LINE_BREAK)
    .filter((line) => line.trim() !== '')
    .map((line) => htmlLiteral(oneLine(line)))
    .join('\n');
}
