/**
 * Markdown rendered as GitHub renders it, and read back as a reader sees it: test code only.
 *
 * GitHub renders a pull request comment and a job summary with cmark-gfm (the `cmark-gfm`
 * package binds that C library) with the table, strikethrough, autolink, tagfilter and tasklist
 * extensions, then sanitizes the HTML and post-processes its text: outside `code`, `pre`, `a`
 * (and `script`, `style`) it links `@name` and `@org/team` mentions and the issue references
 * `#12`, `GH-12` and `owner/repo#3`.
 *
 * The options chosen (`renderMarkdown`):
 * - `unsafe: true`. GitHub renders raw HTML through (its own sanitizer keeps a safe subset
 *   afterwards), and a job summary is an HTML block: cmark's default, safe mode, would replace
 *   every raw tag with `<!-- raw HTML omitted -->` and drop `javascript:` links, hiding exactly
 *   what a test wants to see. So the HTML here is cmark's before GitHub's sanitizer: a
 *   `javascript:` href or a raw `<img>` shows here even where GitHub would strip it.
 * - tagfilter on: as on GitHub, `<script>`, `<iframe>`, `<style>`, `<textarea>`, `<title>`,
 *   `<xmp>`, `<noembed>`, `<noframes>` and `<plaintext>` come out escaped (`&lt;script>`), so a
 *   reader sees them as text, and they are no tags of the HTML.
 * - `footnotes` and `githubPreLang` (`<pre lang="ts">`) on, as GitHub has them; `smart`,
 *   `hardbreaks` and `strikethroughDoubleTilde` off. GitHub shows a comment's soft line breaks
 *   as `<br>`: that changes where lines break, not what this helper reports.
 *
 * `whatAReaderSees` parses that HTML with parse5 (the WHATWG parser, as a browser does), in the
 * context of a `<div>` as GitHub places it, and reads its text, links, images and tables. Its
 * mentions and issue references follow GitHub's post-processing of the text nodes; `links` are
 * the `<a href>` of the HTML itself, before GitHub adds links for those.
 */
import cmark from 'cmark-gfm';
import GithubSlugger from 'github-slugger';
import { defaultTreeAdapter, html as parse5Html, parseFragment } from 'parse5';
import type { DefaultTreeAdapterTypes } from 'parse5';

type Node = DefaultTreeAdapterTypes.Node;
type Element = DefaultTreeAdapterTypes.Element;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type DocumentFragment = DefaultTreeAdapterTypes.DocumentFragment;

export interface ReaderView {
  /** cmark-gfm's HTML (`renderMarkdown`). */
  html: string;
  /**
   * The visible text, tags stripped and entities decoded, as a browser's `innerText` lays it
   * out: each block on its own line, table cells separated by a tab, whitespace collapsed
   * outside `<pre>`, every line trimmed and blank lines dropped (in `<pre>` too).
   */
  text: string;
  /** `@name` and `@org/team`, with their `@`, as GitHub would link them, in order. */
  mentions: string[];
  /** `#12`, `GH-12` and `owner/repo#3` as written, as GitHub would link them, in order. */
  issueReferences: string[];
  /** Every `<a href>` with its text (whitespace collapsed), autolinks included. */
  links: { href: string; text: string }[];
  /** The `src` of every `<img>`. */
  images: string[];
  /** Each `<table>` (nested ones apart) as its rows (`<tr>`) of cell (`<th>`, `<td>`) texts. */
  tables: string[][][];
  /**
   * The names of the elements that came from raw HTML in the Markdown, not from Markdown
   * syntax: each name as many times as it came from raw HTML, in the order of first
   * appearance. A heuristic (see `rawHtmlElements`).
   */
  rawHtmlTags: string[];
}

const EXTENSIONS = {
  table: true,
  strikethrough: true,
  autolink: true,
  tagfilter: true,
  tasklist: true,
} as const;

const OPTIONS = { footnotes: true, githubPreLang: true, extensions: EXTENSIONS } as const;

/** cmark-gfm's HTML for `markdown`, with GitHub's extensions, raw HTML kept (see above). */
export function renderMarkdown(markdown: string): string {
  return cmark.renderHtmlSync(markdown, { ...OPTIONS, unsafe: true });
}

/** What a reader of `markdown` rendered on GitHub sees (see `ReaderView`). */
export function whatAReaderSees(markdown: string): ReaderView {
  const html = renderMarkdown(markdown);
  const root = parse(html);
  const elements = descendants(root);
  const postProcessed = postProcessedText(root);
  return {
    html,
    text: visibleText(root),
    mentions: postProcessed.flatMap(mentionsIn),
    issueReferences: postProcessed.flatMap(issueReferencesIn),
    links: elements
      .filter((element) => element.tagName === 'a' && attribute(element, 'href') !== undefined)
      .map((element) => ({
        href: attribute(element, 'href') ?? '',
        text: collapse(visibleText(element)),
      })),
    images: elements
      .filter((element) => element.tagName === 'img')
      .map((element) => attribute(element, 'src') ?? ''),
    tables: elements.filter((element) => element.tagName === 'table').map(tableRows),
    rawHtmlTags: rawHtmlElements(markdown, elements),
  };
}

/** A file of the repository as GitHub shows it (`readDocument`). */
export interface DocumentView {
  /** Each heading's anchor, as GitHub makes it: github-slugger over the heading's text. */
  anchors: string[];
  /** Every `<a href>`, in order. */
  links: string[];
  /** Every fenced code block: its language, the rest of its info string, and its text. */
  codeBlocks: { language: string; meta: string; text: string }[];
}

/** The text of every text node under `node`, as it is (no layout). */
function textContent(node: ParentNode): string {
  return childrenOf(node)
    .map((child) =>
      'value' in child && child.nodeName === '#text'
        ? child.value
        : 'childNodes' in child
          ? textContent(child)
          : '',
    )
    .join('');
}

/** A Markdown file of the repository, rendered as GitHub renders it, read for its anchors, links and code. */
export function readDocument(markdown: string): DocumentView {
  const root = parse(
    cmark.renderHtmlSync(markdown, { ...OPTIONS, fullInfoString: true, unsafe: true }),
  );
  const elements = descendants(root);
  const slugger = new GithubSlugger();
  return {
    anchors: elements
      .filter((element) => /^h[1-6]$/.test(element.tagName))
      .map((heading) => slugger.slug(textContent(heading))),
    links: elements.flatMap((element) => {
      const href = element.tagName === 'a' ? attribute(element, 'href') : undefined;
      return href === undefined ? [] : [href];
    }),
    codeBlocks: elements
      .filter((element) => element.tagName === 'pre')
      .map((pre) => {
        const code = descendants(pre).find((element) => element.tagName === 'code');
        const meta = attribute(pre, 'data-meta') ?? (code && attribute(code, 'data-meta'));
        return { language: attribute(pre, 'lang') ?? '', meta: meta ?? '', text: textContent(pre) };
      }),
  };
}

/** `html` parsed as the content of a `<div>`, with source locations (so implied tags have none). */
function parse(html: string): DocumentFragment {
  const context = defaultTreeAdapter.createElement('div', parse5Html.NS.HTML, []);
  return parseFragment(context, html, { sourceCodeLocationInfo: true });
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function childrenOf(node: ParentNode): Node[] {
  return node.nodeName === 'template'
    ? (node as DefaultTreeAdapterTypes.Template).content.childNodes
    : node.childNodes;
}

/** Every element under `node`, in document order. */
function descendants(node: ParentNode): Element[] {
  const found: Element[] = [];
  for (const child of childrenOf(node)) {
    if (!isElement(child)) continue;
    found.push(child);
    found.push(...descendants(child));
  }
  return found;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** Elements laid out as blocks: their text starts and ends a line. */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);
/** Elements whose content no reader sees. */
const UNSEEN = new Set(['script', 'style', 'template', 'head', 'title', 'noscript']);
/** Where GitHub links no mention or issue reference (html-pipeline's ignored parents). */
const NOT_POST_PROCESSED = new Set(['code', 'pre', 'a', 'script', 'style']);

/**
 * The text of `node` as `innerText` lays it out: blocks on their own lines, cells separated by
 * a tab, `<br>` a line break, runs of whitespace one space outside `<pre>`, every line trimmed
 * and blank ones dropped.
 */
function visibleText(node: ParentNode): string {
  // Pieces of text; '\n' and '\t' pieces are layout, the rest content (already collapsed).
  const pieces: string[] = [];
  const walk = (current: Node, inPre: boolean): void => {
    if (current.nodeName === '#text') {
      const value = (current as DefaultTreeAdapterTypes.TextNode).value;
      pieces.push(inPre ? value : value.replace(/[ \t\n\r\f]+/g, ' '));
      return;
    }
    if (!isElement(current) || UNSEEN.has(current.tagName)) return;
    const { tagName } = current;
    if (tagName === 'br') {
      pieces.push('\n');
      return;
    }
    const block = BLOCKS.has(tagName);
    if (block) pieces.push('\n');
    for (const child of childrenOf(current)) walk(child, inPre || tagName === 'pre');
    if (tagName === 'td' || tagName === 'th') pieces.push('\t');
    if (block) pieces.push('\n');
  };
  for (const child of childrenOf(node)) walk(child, false);
  return pieces
    .join('')
    .split('\n')
    .map((line) => line.replace(/ *\t */g, '\t').replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((line) => line !== '')
    .join('\n');
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text nodes GitHub post-processes (outside `code`, `pre`, `a`, `script`, `style`). */
function postProcessedText(node: ParentNode): string[] {
  const found: string[] = [];
  for (const child of childrenOf(node)) {
    if (child.nodeName === '#text') found.push((child as DefaultTreeAdapterTypes.TextNode).value);
    else if (isElement(child) && !NOT_POST_PROCESSED.has(child.tagName)) {
      found.push(...postProcessedText(child));
    }
  }
  return found;
}

/**
 * GitHub's mention: `@` at the start of a word (not after a letter, digit or `_`), a login (a
 * letter or digit, then up to 38 letters, digits or `-`) that the next character does not carry
 * on (no letter, digit, `_` or `-`, nor dots followed by one), or `@org/team`. A zero-width
 * space after the `@` is no login character, so it stops the mention.
 */
const MENTION =
  /(?<![A-Za-z0-9_])@([A-Za-z0-9][A-Za-z0-9-]{0,38})(\/[A-Za-z0-9][A-Za-z0-9_-]*)?(?![A-Za-z0-9_\-/])(?!\.+[A-Za-z0-9_])/g;

function mentionsIn(text: string): string[] {
  return [...text.matchAll(MENTION)].map((match) => match[0]);
}

/**
 * GitHub's issue references: `owner/repo#12`, `GH-12` and `#12`, each at the start of a word
 * and not carried on by a letter, digit or `_`. A zero-width space after `#` stops it.
 */
const ISSUE_REFERENCE =
  /(?<![A-Za-z0-9_/#-])(?:[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+#\d+|GH-\d+|#\d+)(?![A-Za-z0-9_])/g;

function issueReferencesIn(text: string): string[] {
  return [...text.matchAll(ISSUE_REFERENCE)].map((match) => match[0]);
}

/** Each row of `table` (not of a table nested in it) as its cells' texts. */
function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  const walk = (node: ParentNode): void => {
    for (const child of childrenOf(node)) {
      if (!isElement(child) || child.tagName === 'table') continue;
      if (child.tagName === 'tr') {
        rows.push(
          childrenOf(child)
            .filter(isElement)
            .filter((cell) => cell.tagName === 'td' || cell.tagName === 'th')
            .map((cell) => collapse(visibleText(cell))),
        );
      } else walk(child);
    }
  };
  walk(table);
  return rows;
}

/**
 * Which elements came from raw HTML. cmark-gfm's safe mode renders the same document with each
 * piece of raw HTML (a block or an inline tag) replaced by `<!-- raw HTML omitted -->` and
 * nothing else changed but unsafe URLs emptied, so an element that the unsafe HTML has and the
 * safe HTML lacks came from raw HTML: per tag name, the difference of the two counts. Only
 * elements written in the HTML count (parse5 gives an implied `<tbody>` no source location).
 * What this cannot tell: which of several elements of one name was raw (the order is that of
 * first appearance), and a raw tag that makes the browser rebuild Markdown's own elements (an
 * unclosed `<a>` or `<b>` that the parser reopens) may count one more or one less. A tag that
 * tagfilter escaped is text, not an element, so it is not listed (it shows in `text`).
 */
function rawHtmlElements(markdown: string, elements: Element[]): string[] {
  const safe = descendants(parse(cmark.renderHtmlSync(markdown, OPTIONS)));
  const written = (element: Element) => element.sourceCodeLocation != null;
  const counts = new Map<string, number>();
  for (const element of elements.filter(written)) {
    counts.set(element.tagName, (counts.get(element.tagName) ?? 0) + 1);
  }
  for (const element of safe.filter(written)) {
    counts.set(element.tagName, (counts.get(element.tagName) ?? 0) - 1);
  }
  return [...counts].flatMap(([name, count]) => Array<string>(Math.max(count, 0)).fill(name));
}
