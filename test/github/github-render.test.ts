/**
 * The test helper that renders Markdown as GitHub does (cmark-gfm) and reads back what a reader
 * sees (test/support/github-render.ts): its answers, checked on cases whose rendering on GitHub
 * is known.
 */
import { describe, expect, it } from 'vitest';
import { renderMarkdown, whatAReaderSees } from '../support/github-render.ts';

const ZWSP = '\u200B';

describe('renderMarkdown', () => {
  it("renders with GitHub's extensions: tables, strikethrough, autolinks, task lists", () => {
    const html = renderMarkdown(
      ['| a | b |', '| - | - |', '| 1 | 2 |', '', '~~gone~~ www.a.example', '', '- [x] done'].join(
        '\n',
      ),
    );
    expect(html).toContain('<td>1</td>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<a href="http://www.a.example">www.a.example</a>');
    expect(html).toContain('<input type="checkbox" checked="" disabled="" /> done');
  });

  it('passes raw HTML through, and escapes the tags that tagfilter filters', () => {
    expect(renderMarkdown('<table><tr><td>x</td></tr></table>\n')).toBe(
      '<table><tr><td>x</td></tr></table>\n',
    );
    expect(renderMarkdown('a <iframe src="https://a.example"></iframe>')).toContain(
      '&lt;iframe src="https://a.example">&lt;/iframe>',
    );
  });
});

describe('whatAReaderSees: mentions', () => {
  it('finds @name and @org/team in text', () => {
    expect(whatAReaderSees('thanks @octocat and @my-org/reviewers.').mentions).toEqual([
      '@octocat',
      '@my-org/reviewers',
    ]);
  });

  it('finds none after a zero-width space, in code, in a link, or inside a word', () => {
    const seen = whatAReaderSees(
      [
        `@${ZWSP}octocat`,
        '`@octocat`',
        '```',
        '@octocat',
        '```',
        '[@octocat](https://a.example)',
        'me@octocat.example',
      ].join('\n\n'),
    );
    expect(seen.mentions).toEqual([]);
    expect(seen.text).toContain(`@${ZWSP}octocat`);
    expect(seen.text).toContain('@octocat');
  });

  it('reads a decoded entity as the character: &#64;octocat in an HTML block is a mention', () => {
    const seen = whatAReaderSees('<p>by &#64;octocat</p>\n');
    expect(seen.text).toBe('by @octocat');
    expect(seen.mentions).toEqual(['@octocat']);
  });

  it('takes a login only when nothing carries it on', () => {
    expect(whatAReaderSees('@octo_cat @octo.cat me@octocat @octocat.').mentions).toEqual([
      '@octocat',
    ]);
  });
});

describe('whatAReaderSees: issue references', () => {
  it('finds #12, GH-12 and owner/repo#3', () => {
    expect(whatAReaderSees('fixes #12, GH-12 and owner/repo#3').issueReferences).toEqual([
      '#12',
      'GH-12',
      'owner/repo#3',
    ]);
  });

  it('finds none after a zero-width space, in code, or inside a word', () => {
    expect(whatAReaderSees(`#${ZWSP}12 \`#12\` a#12 #12a\n\n    #12`).issueReferences).toEqual([]);
  });
});

describe('whatAReaderSees: links and images', () => {
  it('lists a Markdown link and a bare URL (autolink) with their text', () => {
    expect(whatAReaderSees('[x](https://a.example) and https://b.example').links).toEqual([
      { href: 'https://a.example', text: 'x' },
      { href: 'https://b.example', text: 'https://b.example' },
    ]);
  });

  it('links no URL broken by a zero-width space', () => {
    const seen = whatAReaderSees(`https:${ZWSP}//a.example`);
    expect(seen.links).toEqual([]);
    expect(seen.text).toBe(`https:${ZWSP}//a.example`);
  });

  it('lists Markdown and HTML images', () => {
    expect(whatAReaderSees('![a](https://a.example/a.png) <img src="b.png">').images).toEqual([
      'https://a.example/a.png',
      'b.png',
    ]);
  });
});

describe('whatAReaderSees: tables', () => {
  const header = ['| name | status |', '| ---- | ------ |'];

  it('reads each row as its cells', () => {
    expect(whatAReaderSees([...header, '| a | ok |'].join('\n')).tables).toEqual([
      [
        ['name', 'status'],
        ['a', 'ok'],
      ],
    ]);
  });

  it('splits a cell at an unescaped |: GitHub keeps the header’s count and drops the rest', () => {
    // The row's source has one cell more than the header; GFM ignores the excess cells, so the
    // reader sees "a" and "b" where "a|b" and "ok" were meant, and "ok" is lost.
    const [table] = whatAReaderSees([...header, '| a|b | ok |'].join('\n')).tables;
    expect(table?.[1]).toEqual(['a', 'b']);
    expect(whatAReaderSees([...header, '| a|b | ok |'].join('\n')).text).not.toContain('ok');
  });

  it('keeps an escaped \\| in one cell, inside a code span too', () => {
    const seen = whatAReaderSees([...header, '| a\\|b | `c\\|d` |'].join('\n'));
    expect(seen.tables[0]?.[1]).toEqual(['a|b', 'c|d']);
    expect(seen.html).toContain('<td><code>c|d</code></td>');
  });

  it('lays out the text of a table as rows of tab-separated cells', () => {
    expect(whatAReaderSees([...header, '| a | ok |'].join('\n')).text).toBe('name\tstatus\na\tok');
  });
});

describe('whatAReaderSees: the job summary (an HTML block)', () => {
  const summary = [
    '<h2>Deployment &lt;live&gt;</h2>',
    '<table><tr><th>Field</th><th>Value</th></tr>',
    '<tr><td>name</td><td><code>@octocat #12</code></td></tr>',
    '<tr><td>by</td><td>&#64;octocat in #12</td></tr>',
    '<tr><td>url</td><td><a href="https://a.example/d/1">open</a></td></tr></table>',
    '<pre>log @octocat</pre>',
    '',
  ].join('\n');

  it('reads its headings, tables, links and text, entities decoded', () => {
    const seen = whatAReaderSees(summary);
    expect(seen.tables).toEqual([
      [
        ['Field', 'Value'],
        ['name', '@octocat #12'],
        ['by', '@octocat in #12'],
        ['url', 'open'],
      ],
    ]);
    expect(seen.links).toEqual([{ href: 'https://a.example/d/1', text: 'open' }]);
    expect(seen.text.split('\n')[0]).toBe('Deployment <live>');
    expect(seen.text).toContain('log @octocat');
  });

  it('post-processes its text as a comment’s: not in code or pre', () => {
    const seen = whatAReaderSees(summary);
    expect(seen.mentions).toEqual(['@octocat']);
    expect(seen.issueReferences).toEqual(['#12']);
  });

  it('lists its tags as raw HTML, and no tag the parser implied', () => {
    expect(whatAReaderSees(summary).rawHtmlTags).toEqual([
      'h2',
      'table',
      'tr',
      'tr',
      'tr',
      'tr',
      'th',
      'th',
      'td',
      'td',
      'td',
      'td',
      'td',
      'td',
      'code',
      'a',
      'pre',
    ]);
  });
});

describe('whatAReaderSees: raw HTML', () => {
  it('lists none for Markdown alone', () => {
    const seen = whatAReaderSees(
      '## h\n\n[x](https://a.example) ![i](i.png) `c`\n\n| a |\n| - |\n| b |',
    );
    expect(seen.rawHtmlTags).toEqual([]);
  });

  it('lists a raw <img> and <a> among Markdown of the same names', () => {
    const seen = whatAReaderSees(
      '![i](i.png) <img src="x.png"> [x](https://a.example) <a href="https://b.example">b</a>',
    );
    expect(seen.rawHtmlTags).toEqual(['img', 'a']);
    expect(seen.images).toEqual(['i.png', 'x.png']);
  });

  it('shows a <script> or <iframe> that tagfilter escaped as text, not as a tag', () => {
    const seen = whatAReaderSees('a <script>alert(1)</script> <iframe src="x"></iframe>');
    expect(seen.rawHtmlTags).toEqual([]);
    expect(seen.text).toBe('a <script>alert(1)</script> <iframe src="x"></iframe>');
  });

  it('keeps a javascript: href that GitHub’s sanitizer would strip, so a test can see it', () => {
    expect(whatAReaderSees('[x](javascript:alert(1))').links).toEqual([
      { href: 'javascript:alert(1)', text: 'x' },
    ]);
  });
});
