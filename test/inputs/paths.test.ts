/**
 * An entry's `paths` (src/inputs/paths.ts): a list of glob patterns relative to the
 * repository's root, every bad one named by its path, all at once.
 */
import { describe, expect, it } from 'vitest';
import { readPaths, repositoryPath, workspacePath } from '../../src/inputs/paths.ts';

/** `input: problem` lines for the entry `support`'s `paths`. */
function problems(raw: unknown): string[] {
  return readPaths('support', raw).problems.map(({ input, problem }) => `${input}: ${problem}`);
}

describe("an entry's paths", () => {
  it.each([
    ['the list of patterns', ['apps/support/**', 'libs/shared/**']],
    ['an exclusion', ['apps/**', '!**/*.md']],
    ['alternatives', ['apps/{support,research}/**']],
    ['a class', ['apps/[abc]*/**']],
    ['one character', ['apps/v?/**']],
    ['a dot file', ['.github/workflows/*.yml']],
    ['a leading ./', ['./apps/**']],
    ['a closing bracket alone', ['apps/a}']],
  ])('takes %s', (_, patterns) => {
    expect(readPaths('support', patterns)).toEqual({ paths: patterns, problems: [] });
  });

  it('names the list when it is not one, or is empty', () => {
    expect(problems('apps/**')).toEqual([
      'agents.support.paths: must be a list of glob patterns, like [apps/support/**, libs/shared/**]',
    ]);
    expect(problems({ apps: true })).toEqual([
      'agents.support.paths: must be a list of glob patterns, like [apps/support/**, libs/shared/**]',
    ]);
    expect(problems([])).toEqual([
      'agents.support.paths: is empty: list the patterns of the files that change this agent (an entry without paths is always deployed)',
    ]);
  });

  it.each([
    ['', 'is empty: a pattern names the files it matches, like apps/support/**'],
    ['!', 'is empty: a pattern names the files it matches, like apps/support/**'],
    [
      '/apps/**',
      `"/apps/**" is absolute: a pattern is relative to the repository's root ("apps/**")`,
    ],
    [
      '!/apps/**',
      `"!/apps/**" is absolute: a pattern is relative to the repository's root ("apps/**")`,
    ],
    [
      'apps/../secrets/**',
      `"apps/../secrets/**" has a .. segment: a pattern is relative to the repository's root and stays inside it`,
    ],
    [
      '../**',
      `"../**" has a .. segment: a pattern is relative to the repository's root and stays inside it`,
    ],
    [
      'apps\\support\\**',
      `"apps\\\\support\\\\**" has a backslash: folders are separated by / (on every runner), and no character is escaped`,
    ],
    [
      'apps/\\[x]',
      `"apps/\\\\[x]" has a backslash: folders are separated by / (on every runner), and no character is escaped`,
    ],
    ['apps/[ab', 'cannot be read as a glob pattern (Missing closing: "]"): close every [, ( and {'],
    [
      'apps/(a|b',
      'cannot be read as a glob pattern (Missing closing: ")"): close every [, ( and {',
    ],
    [
      'apps/{a,b',
      'cannot be read as a glob pattern (Missing closing: "}"): close every [, ( and {',
    ],
    [42, 'must be a text: a glob pattern like apps/support/**'],
    [null, 'must be a text: a glob pattern like apps/support/**'],
  ])('names the pattern %j by its place in the list', (bad, problem) => {
    expect(problems(['apps/support/**', bad])).toEqual([`agents.support.paths[1]: ${problem}`]);
    expect(readPaths('support', ['apps/support/**', bad]).paths).toBeUndefined();
  });

  it('reports every bad pattern at once, each by its place', () => {
    const lines = problems(['/apps/**', 'libs/**', 'a/../b', '', 'x[', '!**/*.md']);
    expect(lines.map((line) => line.split(': ')[0])).toEqual([
      'agents.support.paths[0]',
      'agents.support.paths[2]',
      'agents.support.paths[3]',
      'agents.support.paths[4]',
    ]);
  });

  it('names an agent key that is not a plain word as the other paths are named', () => {
    expect(readPaths('9-lives', ['']).problems[0]?.input).toBe('agents["9-lives"].paths[0]');
  });
});

describe('the files an agent always depends on, as a changed file names them', () => {
  it('reads a file of the workspace relative to its root, with /', () => {
    expect(workspacePath('./deploy/agents.yaml', '/repo')).toBe('deploy/agents.yaml');
    expect(workspacePath('deploy/./x/../agents.yaml', '/repo/')).toBe('deploy/agents.yaml');
    expect(workspacePath('/repo/deploy/agents.yaml', '/repo')).toBe('deploy/agents.yaml');
    expect(workspacePath('..dotted.json', '/repo')).toBe('..dotted.json');
  });

  it('has no path for a file outside the workspace', () => {
    expect(workspacePath('../agents.yaml', '/repo')).toBeUndefined();
    expect(workspacePath('/elsewhere/agents.yaml', '/repo')).toBeUndefined();
  });

  it("reads the service's path in the repository without ./ or a leading /", () => {
    expect(repositoryPath('./apps/support/langgraph.json')).toBe('apps/support/langgraph.json');
    expect(repositoryPath('/apps/support/langgraph.json')).toBe('apps/support/langgraph.json');
    expect(repositoryPath('apps\\support\\langgraph.json')).toBe('apps/support/langgraph.json');
    expect(repositoryPath('.')).toBeUndefined();
    expect(repositoryPath('../langgraph.json')).toBeUndefined();
  });
});
