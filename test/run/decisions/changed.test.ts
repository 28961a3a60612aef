/**
 * Whether a pull request changes an agent (src/run/decisions/changed.ts): its `paths` read as
 * picomatch reads them with dot files included, the last matching pattern deciding, and the
 * files it always depends on.
 */
import { describe, expect, it } from 'vitest';
import { agentChange } from '../../../src/run/decisions/changed.ts';

const change = (patterns: string[], files: string[], always: string[] = []) =>
  agentChange({ patterns, always }, files);

describe('an agent changed by its paths', () => {
  it('is unchanged when no pattern matches a changed file', () => {
    expect(change(['apps/support/**'], ['apps/research/agent.py', 'README.md'])).toEqual({
      changed: false,
    });
    expect(change(['apps/support/**'], [])).toEqual({ changed: false });
  });

  it('names the first changed file included, and the pattern as written', () => {
    const files = ['README.md', 'libs/shared/util.py', 'apps/support/agent.py'];
    expect(change(['apps/support/**', 'libs/shared/**'], files)).toEqual({
      changed: true,
      file: 'libs/shared/util.py',
      pattern: 'libs/shared/**',
    });
  });

  it('reads ** across folders and * within one', () => {
    expect(change(['apps/**'], ['apps/support/deep/down/agent.py']).changed).toBe(true);
    expect(change(['apps/*'], ['apps/support/agent.py']).changed).toBe(false);
    expect(change(['apps/*'], ['apps/requirements.txt']).changed).toBe(true);
    expect(change(['**/*.py'], ['agent.py']).changed).toBe(true);
  });

  it('includes dot files and dot folders', () => {
    expect(change(['apps/**'], ['apps/support/.env.example']).changed).toBe(true);
    expect(change(['apps/*/*'], ['apps/.hidden/agent.py']).changed).toBe(true);
    expect(change(['*'], ['.tool-versions']).changed).toBe(true);
  });

  it('reads ?, a class and alternatives as picomatch does', () => {
    expect(change(['apps/v?/**'], ['apps/v2/x']).changed).toBe(true);
    expect(change(['apps/v?/**'], ['apps/v/x', 'apps/v22/x']).changed).toBe(false);
    expect(change(['apps/[ab]/**'], ['apps/c/x', 'apps/b/x'])).toMatchObject({ file: 'apps/b/x' });
    expect(change(['apps/{support,research}/**'], ['apps/research/x']).changed).toBe(true);
    expect(change(['apps/{support,research}/**'], ['apps/docs/x']).changed).toBe(false);
  });

  it('lets the last pattern that matches a file decide: a leading ! excludes', () => {
    const patterns = ['apps/support/**', '!**/*.md'];
    expect(change(patterns, ['apps/support/README.md'])).toEqual({ changed: false });
    expect(change(patterns, ['apps/support/README.md', 'apps/support/agent.py'])).toEqual({
      changed: true,
      file: 'apps/support/agent.py',
      pattern: 'apps/support/**',
    });
    // An exclusion read first decides nothing for a file a later pattern matches.
    expect(change(['!**/*.md', 'apps/support/**'], ['apps/support/README.md'])).toEqual({
      changed: true,
      file: 'apps/support/README.md',
      pattern: 'apps/support/**',
    });
  });

  it('includes again what an exclusion left out, when a later pattern matches it', () => {
    const patterns = ['apps/support/**', '!apps/support/docs/**', 'apps/support/docs/prompts/**'];
    expect(change(patterns, ['apps/support/docs/guide.md']).changed).toBe(false);
    expect(
      change(patterns, ['apps/support/docs/guide.md', 'apps/support/docs/prompts/a.txt']),
    ).toEqual({
      changed: true,
      file: 'apps/support/docs/prompts/a.txt',
      pattern: 'apps/support/docs/prompts/**',
    });
  });

  it("is changed by a renamed file's either name (the change lists both)", () => {
    // apps/support/old.py moved to archive/old.py: both names are changed files.
    const renamed = ['archive/old.py', 'apps/support/old.py'];
    expect(change(['apps/support/**'], renamed)).toEqual({
      changed: true,
      file: 'apps/support/old.py',
      pattern: 'apps/support/**',
    });
    expect(change(['archive/**'], renamed)).toMatchObject({ file: 'archive/old.py' });
  });
});

describe('an agent changed by a file it always depends on', () => {
  const always = ['deploy/agents.yaml', 'deploy/support.yaml', 'apps/support/langgraph.json'];

  it('is changed by that file whatever its patterns, with no pattern named', () => {
    expect(change(['apps/research/**'], ['deploy/agents.yaml'], always)).toEqual({
      changed: true,
      file: 'deploy/agents.yaml',
    });
    // An exclusion does not leave it out.
    expect(change(['**', '!deploy/**'], ['deploy/support.yaml'], always)).toEqual({
      changed: true,
      file: 'deploy/support.yaml',
    });
  });

  it('names the first changed file that changes the agent, either way', () => {
    const files = ['apps/support/agent.py', 'apps/support/langgraph.json'];
    expect(change(['apps/support/*.py'], files, always)).toEqual({
      changed: true,
      file: 'apps/support/agent.py',
      pattern: 'apps/support/*.py',
    });
    expect(change(['apps/support/*.py'], [...files].reverse(), always)).toEqual({
      changed: true,
      file: 'apps/support/langgraph.json',
    });
  });

  it('is not changed by a file that only resembles it', () => {
    expect(
      change(['apps/research/**'], ['deploy/agents.yml', 'xdeploy/agents.yaml'], always),
    ).toEqual({
      changed: false,
    });
  });

  it('is changed by its file when the checkout is not the workspace: a preview too many, never one left out', () => {
    // actions/checkout with `path: site`: the manifest is `site/deploy/agents.yaml` in the workspace.
    expect(change(['apps/**'], ['deploy/agents.yaml'], ['site/deploy/agents.yaml'])).toEqual({
      changed: true,
      file: 'deploy/agents.yaml',
    });
    // The command run in `deploy/`: the manifest is `agents.yaml` there.
    expect(change(['apps/**'], ['deploy/agents.yaml'], ['agents.yaml'])).toEqual({
      changed: true,
      file: 'deploy/agents.yaml',
    });
    expect(change(['apps/**'], ['deploy/agents.yaml'], ['other.yaml'])).toEqual({
      changed: false,
    });
  });
});
