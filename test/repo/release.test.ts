/**
 * script/release in a throw-away clone of this repository whose origin is a throw-away bare
 * repository: the real repository's tags and remotes are never touched. The clone gets this
 * tree's script/release and a CHANGELOG.md made up here (version 99.x, which no real release
 * will reach), committed in the clone.
 *
 * The release rebuilds dist/ to check it; its cases share one real build, the one the test run
 * itself checked current (test/support/build-dist.ts), through script/build's BUILD_CACHE_DIR:
 * a build of the same inputs is copied from there rather than run again.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { store } from '../../script/build-record.mjs';
import { ROOT } from '../support/action.ts';

const BUILD_TIMEOUT_MS = 120_000;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release-test@example.invalid',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release-test@example.invalid',
  // Neither this machine's git configuration (signing, hooks, ...) nor its identity applies.
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};

const SECTION_99_1_2 = `### Added

- A feature.

### Fixed

- A bug.`;

function changelog(...sections: string[]): string {
  return `# Changelog

All notable changes.

${sections.join('\n\n')}

[99.1.2]: https://example.invalid/releases/v99.1.2
`;
}

const RELEASED = changelog(
  '## [Unreleased]',
  `## [99.1.2] - 2026-01-31\n\n${SECTION_99_1_2}`,
  '## [99.1.1] - 2026-01-01\n\n- Older.',
);

let directory: string;
let clone: string;
let origin: string;
let realTags: string;
let buildCache: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
  }).trim();
}

function release(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', [path.join(clone, 'script/release'), ...args], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV, BUILD_CACHE_DIR: buildCache },
    timeout: BUILD_TIMEOUT_MS,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function commitChangelog(text: string, message: string): void {
  writeFileSync(path.join(clone, 'CHANGELOG.md'), text);
  git(clone, 'commit', '-q', '-am', message);
}

/** The tags of a repository with the commit each one points at. */
function tags(cwd: string): string {
  return git(cwd, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/tags');
}

beforeAll(() => {
  realTags = tags(ROOT);
  directory = mkdtempSync(path.join(tmpdir(), 'release-test-'));
  clone = path.join(directory, 'clone');
  origin = path.join(directory, 'origin.git');
  buildCache = path.join(directory, 'build-cache');
  store(ROOT, { BUILD_CACHE_DIR: buildCache });
  git(directory, 'clone', '-q', '--no-tags', ROOT, clone);
  git(directory, 'init', '-q', '--bare', origin);
  // A CI checkout is often shallow (fetch-depth 1), and so is a clone of it.
  git(origin, 'config', 'receive.shallowUpdate', 'true');
  git(clone, 'remote', 'set-url', 'origin', origin);
  // The build needs the dependencies: hard links are instant and, unlike a symlink, leave the
  // paths that ncc writes into dist/ as they are in a real checkout.
  // The real folder, should node_modules be a link to another checkout's (a git worktree).
  const modules = realpathSync(path.join(ROOT, 'node_modules'));
  try {
    execFileSync('cp', ['-al', modules, path.join(clone, 'node_modules')]);
  } catch {
    execFileSync('cp', ['-a', modules, path.join(clone, 'node_modules')]);
  }
  copyFileSync(path.join(ROOT, 'script/release'), path.join(clone, 'script/release'));
  git(clone, 'add', 'script/release');
  commitChangelog(RELEASED, 'Release 99.1.2');
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
});

describe('script/release', () => {
  it('--notes prints a version section, without its heading or the link definitions', () => {
    const newest = release('--notes');
    expect(newest.stdout).toBe(`${SECTION_99_1_2}\n`);
    expect(release('--notes', '99.1.2').stdout).toBe(`${SECTION_99_1_2}\n`);
    expect(release('--notes', '99.1.1').stdout).toBe('- Older.\n');
    const missing = release('--notes', '1.2.3');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('CHANGELOG.md has no section for 1.2.3');
  });

  it(
    '--dry-run prints the tags and pushes it would make, and makes none',
    () => {
      const before = tags(clone);
      const run = release('--dry-run');
      expect(run.status, run.stderr).toBe(0);
      const head = git(clone, 'rev-parse', 'HEAD');
      expect(run.stdout).toContain(`would tag v99.1.2 (annotated) at ${head} Release 99.1.2`);
      expect(run.stdout).toContain('would move v99 to v99.1.2');
      expect(run.stdout).toContain('would run: git push origin refs/tags/v99.1.2');
      expect(run.stdout).toContain('would run: git push --force origin refs/tags/v99');
      expect(run.stdout).toContain(SECTION_99_1_2);
      expect(tags(clone)).toBe(before);
      expect(tags(origin)).toBe('');
      expect(git(clone, 'status', '--porcelain')).toBe('');
      expect(tags(ROOT)).toBe(realTags);
    },
    BUILD_TIMEOUT_MS,
  );

  it(
    'tags vX.Y.Z (annotated) at HEAD, moves vX there, pushes both, then refuses it again',
    () => {
      // A v99 from an earlier release, on origin too: the release must move it.
      git(clone, 'tag', 'v99', 'HEAD~1');
      git(clone, 'push', '-q', 'origin', 'refs/tags/v99');
      const run = release();
      expect(run.status, run.stderr).toBe(0);
      const head = git(clone, 'rev-parse', 'HEAD');
      expect(git(origin, 'tag', '--list')).toBe('v99\nv99.1.2');
      expect(git(origin, 'cat-file', '-t', 'v99.1.2')).toBe('tag');
      expect(git(origin, 'rev-parse', 'v99.1.2^{commit}')).toBe(head);
      expect(git(origin, 'rev-parse', 'v99^{commit}')).toBe(head);
      expect(git(clone, 'rev-parse', 'v99^{commit}')).toBe(head);
      expect(git(origin, 'for-each-ref', '--format=%(contents)', 'refs/tags/v99.1.2')).toBe(
        `v99.1.2\n\n${SECTION_99_1_2}`,
      );

      const again = release('--dry-run');
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('Tag v99.1.2 already exists');
      expect(tags(ROOT)).toBe(realTags);
    },
    BUILD_TIMEOUT_MS,
  );

  it('refuses a tree with uncommitted files, before building', () => {
    commitChangelog(changelog('## [99.3.0] - 2026-03-31\n\n- More.'), 'Release 99.3.0');
    appendFileSync(path.join(clone, 'README.md'), '\nuncommitted\n');
    try {
      const run = release('--dry-run');
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('The working tree is not clean');
      expect(run.stdout).not.toContain('Rebuilding dist/');
    } finally {
      git(clone, 'checkout', '-q', '--', 'README.md');
    }
  });

  it(
    'refuses when dist/ is not what the build makes',
    () => {
      appendFileSync(path.join(clone, 'dist/index.js'), '\n// edited by hand\n');
      git(clone, 'commit', '-q', '-am', 'A hand-edited dist/');
      const run = release('--dry-run');
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("dist/ differs from what 'npm run bundle' makes");
      expect(tags(origin)).not.toContain('v99.3.0');
    },
    BUILD_TIMEOUT_MS,
  );

  it('refuses a CHANGELOG.md whose newest heading is Unreleased only', () => {
    git(clone, 'checkout', '-q', '--', '.');
    commitChangelog(changelog('## [Unreleased]: 100.0.0\n\n- Planned.'), 'Nothing released');
    const run = release('--dry-run');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('CHANGELOG.md has no released version');
  });
});
