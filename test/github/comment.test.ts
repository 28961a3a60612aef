/**
 * The pull request comment's body, read back by an independent Markdown
 * parser (prettier's remark, with GitHub's autolinks): what a reader of the
 * pull request would see.
 */
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { markdownText } from '../../src/common/github-text.ts';
import { commentBody, type CommentReport } from '../../src/github/features/comment.ts';
import {
  COMMENT_LIMIT,
  carriesMarker,
  encodeName,
  isOwnComment,
  marker,
} from '../../src/github/features/comment-marker.ts';

interface Node {
  type: string;
  value?: string;
  url?: string;
  children?: Node[];
}

async function parse(markdown: string): Promise<Node> {
  // prettier's debug API is untyped: it hands back the parser's AST (remark, GitHub's autolinks included).
  const debug = (
    prettier as unknown as {
      __debug: { parse: (text: string, options: object) => Promise<{ ast: Node }> };
    }
  ).__debug;
  const parsed = await debug.parse(markdown, { parser: 'markdown' });
  return parsed.ast;
}

function nodes(root: Node, type: string): Node[] {
  const found: Node[] = [];
  const walk = (node: Node) => {
    if (node.type === type) found.push(node);
    node.children?.forEach(walk);
  };
  walk(root);
  return found;
}

/** Everything a reader sees as text, entities decoded. */
function visibleText(root: Node): string {
  return [...nodes(root, 'text'), ...nodes(root, 'inlineCode')].map((n) => n.value).join(' ');
}

const base: CommentReport = {
  name: 'my-agent-pr-7',
  stage: 'live',
  id: '3f2b8a1e-6c4d-4e5f-8a9b-0c1d2e3f4a5b',
  status: 'READY',
  created: false,
  liveCommit: 'c0ffee0123456789c0ffee0123456789c0ffee01',
  drift: [],
  dashboardUrl: 'https://console.example/o/t/deployments/3f2b8a1e',
  runUrl: 'https://github.com/acme/agent/actions/runs/42',
};

const HOSTILE =
  '<img src=x onerror=alert(1)> <script>x</script> [click](https://evil.example) ![i](https://evil.example/i.png) ' +
  'http://evil.example www.evil.example @octocat @acme/team #123 GH-45 *bold* `code` | cell | \\ ~strike~ <!-- -->';

describe('marker', () => {
  it('encodes a name so no name can end the marker early nor match another name’s marker', () => {
    expect(marker('my-agent')).toBe('<!-- deploy-agent:my%2Dagent -->');
    for (const name of ['a-->b', 'a --> <!--', 'x--!>y', 'ünï cødé', 'a b']) {
      const inner = marker(name).slice('<!-- '.length, -' -->'.length);
      expect(inner).toMatch(/^deploy-agent:[A-Za-z0-9_%]+$/);
    }
    expect(encodeName('a-b')).not.toBe(encodeName('a_b'));
    expect(carriesMarker(`${marker('app')}\nbody`, 'app')).toBe(true);
    expect(carriesMarker(`${marker('app-staging')}\nbody`, 'app')).toBe(false);
    expect(carriesMarker(`${marker('app')}\nbody`, 'app-staging')).toBe(false);
    expect(carriesMarker(`quoted: ${marker('app')}`, 'app')).toBe(false);
  });

  it('is an HTML comment the parser keeps whole, whatever the name', async () => {
    const ast = await parse(commentBody({ ...base, name: 'evil --> <b>x</b> <!--' }));
    expect(nodes(ast, 'html').map((n) => n.value)).toEqual([marker('evil --> <b>x</b> <!--')]);
  });
});

describe('own comments', () => {
  it('matches the viewer’s login, with or without the [bot] suffix for a bot, never another author', () => {
    expect(isOwnComment({ login: 'github-actions[bot]', type: 'Bot' }, 'github-actions')).toBe(
      true,
    );
    expect(isOwnComment({ login: 'github-actions[bot]', type: 'Bot' }, 'github-actions[bot]')).toBe(
      true,
    );
    expect(isOwnComment({ login: 'OctoCat', type: 'User' }, 'octocat')).toBe(true);
    expect(isOwnComment({ login: 'github-actions', type: 'User' }, 'github-actions[bot]')).toBe(
      false,
    );
    expect(isOwnComment({ login: 'someone', type: 'User' }, 'github-actions')).toBe(false);
    expect(isOwnComment(null, 'github-actions')).toBe(false);
  });
});

describe('body', () => {
  it('says live, on which commit, with links to the dashboard and the run', async () => {
    const body = commentBody(base);
    const ast = await parse(body);
    expect(body.startsWith(marker('my-agent-pr-7'))).toBe(true);
    expect(visibleText(ast)).toContain('is live');
    expect(visibleText(ast)).toContain('c0ffee012345');
    expect(nodes(ast, 'link').map((n) => n.url)).toEqual([base.dashboardUrl, base.runUrl]);
  });

  it('says a deployment that will never run what was pushed is not live, not "not live yet"', async () => {
    const body = commentBody({
      ...base,
      stage: 'not-live',
      never: true,
      waitingFor:
        'source_revision_config.image_uri is reg/agent:0 and the step asks for reg/agent:1',
    });
    const seen = visibleText(await parse(body));

    expect(seen).toContain('will not run what this push asks for');
    expect(seen).not.toContain('not live yet');
    expect(seen).toContain('reg/agent:0 and the step asks for reg/agent:1');
  });

  it('says what superseded the target, what it waits for, and why it failed', () => {
    const superseded = commentBody({
      ...base,
      targetCommit: 'a'.repeat(40),
      supersededBy: 'b'.repeat(40),
    });
    expect(superseded).toContain(
      '`bbbbbbbbbbbb` is live: a newer commit, which superseded `aaaaaaaaaaaa`',
    );
    const waiting = commentBody({
      ...base,
      stage: 'deploying',
      waitingFor: 'commit aaaa to be live',
    });
    expect(waiting).toContain('deploying');
    expect(waiting).toContain('Waiting for | commit aaaa to be live');
    const failed = commentBody({ ...base, stage: 'failed', failure: 'timed out after 900 s' });
    expect(failed).toContain('**Why:** timed out after 900 s');
  });

  it('shows service text as text: no HTML, no link or image, no mention, no reference', async () => {
    const body = commentBody({
      ...base,
      name: HOSTILE,
      status: HOSTILE,
      stage: 'failed',
      failure: HOSTILE,
      waitingFor: HOSTILE,
      drift: [{ field: HOSTILE, wanted: HOSTILE, live: { nested: HOSTILE } }],
      url: 'javascript:alert(1)',
    });
    const ast = await parse(body);
    expect(nodes(ast, 'html').map((n) => n.value)).toEqual([marker(HOSTILE)]);
    expect(nodes(ast, 'image')).toEqual([]);
    expect(nodes(ast, 'link').map((n) => n.url)).toEqual([base.dashboardUrl, base.runUrl]);
    expect(nodes(ast, 'emphasis')).toEqual([]);
    expect(nodes(ast, 'delete')).toEqual([]);
    const text = visibleText(ast);
    expect(text).toContain('<script>'); // shown, not run
    // GitHub links mentions and references in text, not in code spans: only text nodes count.
    const plain = nodes(ast, 'text')
      .map((n) => n.value)
      .join(' ');
    expect(plain).toContain('<script>');
    expect(plain).not.toMatch(/@[A-Za-z0-9]/); // a mention needs a name right after @
    expect(plain).not.toMatch(/#[0-9]/);
    expect(plain).not.toMatch(/GH-[0-9]/i);
    expect(plain).not.toMatch(/https?:\/\//);
    expect(plain).not.toMatch(/www\./);
    // A table row keeps its three cells: the service's `|` did not open a new one.
    const rows = nodes(ast, 'tableRow');
    expect(rows.at(-1)?.children).toHaveLength(3);
  });

  it('keeps each value on one line and short', () => {
    const escaped = markdownText(`line one\nline two\r\u2028${'x'.repeat(1000)}`, 50);
    expect(escaped).not.toMatch(/[\n\r\u2028]/);
    expect([...escaped].length).toBeLessThanOrEqual(50);
  });

  it('hides secret values through redact, and shows drift secrets as ***', () => {
    const body = commentBody(
      {
        ...base,
        stage: 'failed',
        failure: 'the service said: sk-live-123456 is wrong',
        drift: [{ field: 'secrets.OPENAI_API_KEY', wanted: '***', live: null }],
      },
      (text) => text.replaceAll('sk-live-123456', '***'),
    );
    expect(body).not.toContain('sk-live-123456');
    expect(body).toContain('| `secrets.OPENAI_API_KEY` | `***` | (none) |');
  });

  it('stays under GitHub’s limit: a huge drift table is cut with "and N more"', async () => {
    const drift = Array.from({ length: 5_000 }, (_, i) => ({
      field: `secrets.NAME_${i}_${'@'.repeat(100)}`,
      wanted: '***',
      live: '<'.repeat(300),
    }));
    const body = commentBody({ ...base, drift, failure: 'x'.repeat(10_000), stage: 'failed' });
    expect([...body].length).toBeLessThan(COMMENT_LIMIT);
    const shown = (body.match(/^\| `secrets\./gm) ?? []).length;
    expect(shown).toBeGreaterThan(0);
    expect(body).toContain(`…and ${5_000 - shown} more: see the job summary`);
    const ast = await parse(body);
    expect(nodes(ast, 'link').map((n) => n.url)).toEqual([base.dashboardUrl, base.runUrl]);
  });

  it('links the deployment’s own address only when it is an http(s) URL', async () => {
    const ast = await parse(commentBody({ ...base, url: 'https://my-agent.example/a b(c)' }));
    expect(nodes(ast, 'link').map((n) => n.url)).toContain('https://my-agent.example/a%20b%28c%29');
    const none = await parse(commentBody({ ...base, url: 'not a url', dashboardUrl: undefined }));
    expect(nodes(none, 'link').map((n) => n.url)).toEqual([base.runUrl]);
  });
});
