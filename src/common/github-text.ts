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
 * after every `@`, `#`, `://`, `www.` and `GH-` in service text, and code
 * spans hold what reads best as code (ids, names, commits).
 *
 * A new kind of GitHub text adds its writer here.
 */
import { publishedOrNothing } from './address.js';
import { LINE_BREAK, UNSAFE_RUN_IN_A_LINE } from './characters.js';

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

/** What GitHub would link in rendered text, each made inert by a zero-width space. */
function inert(text: string): string {
  return text
    .replace(/[@#]/g, (c) => `${c}${ZWSP}`)
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}${ZWSP}.`)
    .replace(/\bGH-/gi, (w) => `${w.slice(0, 2)}${ZWSP}-`);
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
  return inert(oneLine(value, max)).replace(MARKDOWN_INLINE, (c) => `\\${c}`);
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

const percentEncoded = (c: string) =>
  `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** A link the action builds, `[text](address)`: only to an address that may be published. */
export function markdownLink(text: string, address: string | null | undefined): string | undefined {
  const published = publishedOrNothing(address);
  if (published === undefined) return undefined;
  return `[${text}](${published.replace(UNSAFE_IN_A_DESTINATION, percentEncoded)})`;
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

/**
 * Service text for the summary's HTML: on one line (a blank line would end
 * the HTML block), cut to `max`, escaped, nothing GitHub would link.
 */
export function htmlText(value: string, max = 1_000): string {
  // Made inert first: the references written next hold a '#' of their own.
  return htmlEscaped(inert(oneLine(value, max))).replace(
    MARKDOWN_IN_HTML,
    (c) => `&#${c.charCodeAt(0)};`,
  );
}

/** Service text in `<code>`, which reads best for ids, names and commits. */
export function htmlCode(value: string, max = 300): string {
  return `<code>${htmlText(value, max)}</code>`;
}

/** A link the action builds, `<a href>`: only to an address that may be published. */
export function htmlLink(text: string, address: string | null | undefined): string | undefined {
  const published = publishedOrNothing(address);
  if (published === undefined) return undefined;
  const href = published.replace(UNSAFE_IN_A_DESTINATION, percentEncoded).replace(/&/g, '&amp;');
  return `<a href="${href}">${htmlText(text)}</a>`;
}

/**
 * Several lines of text for a `<pre>` in the summary: its lines kept, each
 * escaped, no blank one (the HTML block would end before its closing tag).
 */
export function htmlLines(value: string): string {
  return value
    .split(LINE_BREAK)
    .filter((line) => line.trim() !== '')
    .map((line) => htmlText(line, Infinity))
    .join('\n');
}
