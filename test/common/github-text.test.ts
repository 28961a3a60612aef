/**
 * The one writer of GitHub text (src/common/github-text.ts), read back as GitHub renders it
 * (cmark-gfm, test/support/github-render.ts): the comment, the job summary (and --summary) and
 * a status show service text as text. No mention, no issue reference, no link or image the
 * action did not build, no raw HTML, and every table keeps its cells.
 */
import { describe, expect, it } from 'vitest';
import {
  htmlCode,
  htmlLines,
  htmlLink,
  htmlText,
  markdownCode,
  markdownLink,
  markdownText,
  plainLine,
} from '../../src/common/github-text.ts';
import { commentBody, type CommentReport } from '../../src/github/features/comment.ts';
import { summaryHtml } from '../../src/views/deploy-summary.ts';
import { aDeployment } from '../support/fixtures.ts';
import { whatAReaderSees } from '../support/github-render.ts';

const HOSTILE =
  '<img src=x onerror=alert(1)> <script>x</script> [click](https://evil.example) ' +
  '![i](https://evil.example/i.png) http://evil.example www.evil.example @octocat ' +
  '@acme/team #123 acme/agent#3 GH-45 *bold* _it_ ~strike~ `code` ``two`` | cell | \\ ' +
  '<!-- --> &amp; &#64;octocat';

/** No mention, reference, foreign link, image or raw tag, in what GitHub renders. */
function expectInert(markdown: string, ownLinks: string[] = []): void {
  const seen = whatAReaderSees(markdown);
  expect(seen.mentions).toEqual([]);
  expect(seen.issueReferences).toEqual([]);
  expect(seen.images).toEqual([]);
  expect(seen.links.map((link) => link.href)).toEqual(ownLinks);
}

describe('Markdown (the comment)', () => {
  it('service text as text: every character shown, nothing linked or marked up', () => {
    const line = `before ${markdownText(HOSTILE, 1_000)} after`;
    const seen = whatAReaderSees(line);
    expectInert(line);
    expect(seen.rawHtmlTags).toEqual([]);
    // What the reader sees is the text itself, but for the zero-width spaces.
    expect(seen.text.replaceAll('\u200b', '')).toBe(`before ${HOSTILE} after`);
  });

  it('an address in service text reads as it is, in code, and is no link', () => {
    const said = 'see https://evil.example/a?b=c#d, or www.evil.example. (http://x.example/p)';
    const line = `why: ${markdownText(said)}`;
    const seen = whatAReaderSees(line);

    expectInert(line);
    expect(seen.text).toBe(`why: ${said}`);
    expect(seen.html).toContain('<code>https://evil.example/a?b=c#d</code>');
    expect(seen.html).toContain('<code>www.evil.example</code>');
    expect(seen.html).toContain('<code>http://x.example/p</code>)');
  });

  it('a code span reads as the id or name it is, whatever it holds', () => {
    for (const value of ['my-agent-pr-7', '579bbe23-2782-4c1e-9a0b', HOSTILE, 'a`b', '`x`']) {
      const line = `name: ${markdownCode(value, 1_000, false)}`;
      expectInert(line);
      expect(whatAReaderSees(line).text).toBe(`name: ${value}`);
    }
    // Raw Markdown stays readable where GitHub shows it raw (e-mails, the API).
    expect(markdownCode('my-agent-pr-7', 300, false)).toBe('`my-agent-pr-7`');
    expect(markdownText('my-agent-pr-7')).toBe('my-agent-pr-7');
  });

  it('keeps every table row whole, a | in text, in code or in a link', () => {
    const table = [
      '| | |',
      '| --- | --- |',
      `| text | ${markdownText('a | b || c')} |`,
      `| code | ${markdownCode('a | b `|` c')} |`,
      `| link | ${markdownLink('open', 'https://x.example/a|b(c)[d]')} |`,
    ].join('\n');
    const seen = whatAReaderSees(table);
    expect(seen.tables).toEqual([
      [
        ['', ''],
        ['text', 'a | b || c'],
        ['code', 'a | b `|` c'],
        ['link', 'open'],
      ],
    ]);
    expect(seen.links.map((link) => link.href)).toEqual(['https://x.example/a%7Cb%28c%29%5Bd%5D']);
  });

  it('links only what may be published', () => {
    expect(markdownLink('open', 'javascript:alert(1)')).toBeUndefined();
    expect(markdownLink('open', 'https://user:pw@x.example/')).toBe('[open](https://x.example/)');
  });

  it('the whole comment, hostile everywhere, renders with only its own links and a whole table', () => {
    const report: CommentReport = {
      name: HOSTILE,
      stage: 'failed',
      id: HOSTILE,
      status: HOSTILE,
      created: false,
      targetCommit: HOSTILE,
      liveCommit: HOSTILE,
      waitingFor: HOSTILE,
      failure: HOSTILE,
      drift: [{ field: HOSTILE, wanted: HOSTILE, live: { nested: HOSTILE } }],
      url: 'https://preview.example/a|b',
      dashboardUrl: 'https://console.example/d/1',
      runUrl: 'https://github.com/acme/agent/actions/runs/42',
    };
    const body = commentBody(report);
    expectInert(body, [
      'https://preview.example/a%7Cb',
      'https://console.example/d/1',
      'https://github.com/acme/agent/actions/runs/42',
    ]);
    const seen = whatAReaderSees(body);
    expect(seen.rawHtmlTags).toEqual([]);
    for (const table of seen.tables) {
      const width = table[0]?.length;
      for (const row of table) expect(row).toHaveLength(width ?? 0);
    }
    expect(seen.tables[0]?.find((row) => row[0] === 'Address')).toEqual(['Address', 'open']);
  });
});

describe('HTML in Markdown (the job summary and --summary)', () => {
  it('service text as text, and no mention: an entity would decode back to @', () => {
    const html = `<table><tr><td>${htmlText(HOSTILE)}</td><td>${htmlCode(HOSTILE)}</td></tr></table>`;
    expectInert(html);
    const seen = whatAReaderSees(html);
    expect(
      seen.rawHtmlTags.filter((tag) => !['table', 'tbody', 'tr', 'td', 'code'].includes(tag)),
    ).toEqual([]);
    expect(seen.tables[0]?.[0]?.map((cell) => cell.replaceAll('\u200b', ''))).toEqual([
      HOSTILE,
      HOSTILE,
    ]);
  });

  it('an address in service text reads as it is, in <code>; a link we build may show its own address', () => {
    const said = 'see https://evil.example/a?b=c#d, or www.evil.example.';
    const address = 'https://console.example/d/1?tab=logs&x=@me';
    const seen = whatAReaderSees(`<p>${htmlText(said)}</p>\n<p>${htmlLink(address, address)}</p>`);

    expect(seen.text).toBe(`${said}\n${address}`);
    expect(seen.html).toContain('<code>https://evil.example/a?b=c#d</code>');
    expect(seen.html).toContain('<code>www.evil.example</code>');
    expect(seen.links).toEqual([{ href: address, text: address }]);
    expect(seen.mentions).toEqual([]);
  });

  it('builds links only to what may be published, | and brackets encoded', () => {
    const link = htmlLink('open', 'https://x.example/a|b"c[d]');
    expect(whatAReaderSees(`<p>${link}</p>`).links).toEqual([
      { href: 'https://x.example/a%7Cb%22c%5Bd%5D', text: 'open' },
    ]);
    expect(htmlLink('open', 'data:text/html,x')).toBeUndefined();
  });

  it('escapes markup and table pipes', () => {
    expect(htmlText(`<a href="x">'&'</a>|`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;&#124;',
    );
  });

  it('keeps a failure in its <pre>, lines kept and no blank one', () => {
    const pre = `<pre>${htmlLines(`first\n\n${HOSTILE}\r\n@octocat`)}</pre>`;
    expect(pre).not.toMatch(/\n\s*\n/);
    expectInert(pre);
  });

  it('the whole summary, hostile everywhere, renders with only its own links', () => {
    const deployment = aDeployment({
      name: HOSTILE,
      status: HOSTILE,
      source_config: { custom_url: 'https://preview.example/a|b' },
    });
    const html = summaryHtml({
      spec: { name: HOSTILE, source: 'codehost', dryRun: false, dashboardUrl: undefined },
      deployment,
      liveness: { live: false, missing: HOSTILE },
      drift: [{ field: HOSTILE, wanted: HOSTILE, live: HOSTILE }],
      failure: `${HOSTILE}\n\n${HOSTILE}`,
    });
    expectInert(html, ['https://preview.example/a%7Cb']);
    for (const table of whatAReaderSees(html).tables) {
      const width = table[0]?.length;
      for (const row of table) expect(row).toHaveLength(width ?? 0);
    }
  });
});

describe('plain text (deployment statuses)', () => {
  it('one line, trimmed, cut with …', () => {
    expect(plainLine(' a\nb\u202ec\t ', 140)).toBe('a b c');
    expect([...plainLine('x'.repeat(500), 140)]).toHaveLength(140);
    expect(plainLine('x'.repeat(500), 140).endsWith('…')).toBe(true);
  });
});
