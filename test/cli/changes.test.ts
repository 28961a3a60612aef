/**
 * The files a merge or pull request changes, from real git checkouts in a temporary folder:
 * from the merge base (three dots), a rename under both names, a delete, a shallow clone without
 * the merge base, an unknown ref, the 3,000 cap; and which base a run's environment gives.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  askCheckoutChanges,
  changeBase,
  checkoutChangedFiles,
  parseNameStatus,
  type ChangedSince,
} from '../../src/cli/changes.ts';
import { describeCiRun } from '../../src/cli/ci.ts';

let root: string;
/** The repository: main, and the branch feature forked from it; main has moved on since. */
let repo: string;
let forkPoint: string;
let featureHead: string;

const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...ENV, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();
}

function commit(cwd: string, message: string): string {
  git(cwd, '-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-qm', message);
  return git(cwd, 'rev-parse', 'HEAD');
}

function write(cwd: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
  writeFileSync(path.join(cwd, file), text);
}

const checkout = (cwd: string) => ({ cwd, env: { ...ENV, HOME: root } });
const flag = (ref: string): ChangedSince => ({ ref, origin: '--changed-since' });
const since = (ref: string) => changeBase(flag(ref), {}, {}) ?? { refs: [], named: 'none' };

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cli-changes-'));
  repo = path.join(root, 'repo');
  mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  write(repo, 'apps/support/graph.py', 'support = 1\n');
  write(repo, 'apps/research/graph.py', 'research = 1\nwith several lines\nto rename\n');
  write(repo, 'docs/old.md', 'old\n');
  write(repo, 'README.md', 'readme\n');
  git(repo, 'add', '.');
  forkPoint = commit(repo, 'the agents');
  git(repo, 'tag', 'v1');
  git(repo, 'checkout', '-qb', 'feature');
  write(repo, 'apps/support/graph.py', 'support = 2\n');
  git(repo, 'mv', 'apps/research/graph.py', 'apps/research/agent graph.py');
  git(repo, 'rm', '-q', 'docs/old.md');
  write(repo, 'libs/shared/new.py', 'shared\n');
  git(repo, 'add', '.');
  featureHead = commit(repo, 'the change');
  git(repo, 'checkout', '-q', 'main');
  write(repo, 'main-only.txt', 'on main after the fork\n');
  git(repo, 'add', '.');
  commit(repo, 'main moves on');
  git(repo, 'checkout', '-q', 'feature');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the changed files of a checkout', () => {
  it("are the branch's change from the merge base, in git's order, a rename under both names", async () => {
    const changes = await checkoutChangedFiles(checkout(repo), since('main'));
    expect(changes).toEqual({
      known: true,
      files: [
        'apps/research/graph.py',
        'apps/research/agent graph.py',
        'apps/support/graph.py',
        'docs/old.md',
        'libs/shared/new.py',
      ],
    });
  });

  it('take a tag or a sha as the base, and a subfolder as the checkout (paths from the root)', async () => {
    const sub = path.join(repo, 'apps');
    for (const ref of ['v1', forkPoint]) {
      const changes = await checkoutChangedFiles(checkout(sub), since(ref));
      expect(changes.known && changes.files).toContain('libs/shared/new.py');
    }
  });

  it('are none when the head is the base', async () => {
    expect(await checkoutChangedFiles(checkout(repo), since('feature'))).toEqual({
      known: true,
      files: [],
    });
  });

  it("run to the run's head commit when the checkout has it: a merged result's HEAD is a merge", async () => {
    const merged = path.join(root, 'merged');
    git(root, 'clone', '-q', repo, merged);
    git(merged, 'checkout', '-q', '--detach', 'origin/main');
    git(
      merged,
      '-c',
      'user.email=d@e.f',
      '-c',
      'user.name=D',
      'merge',
      '-q',
      '--no-ff',
      '-m',
      'merged result',
      featureHead,
    );
    const base = since(forkPoint);
    const fromHead = await checkoutChangedFiles(checkout(merged), base);
    expect(fromHead.known && fromHead.files).toContain('main-only.txt');
    const fromBranch = await checkoutChangedFiles(checkout(merged), base, [featureHead]);
    expect(fromBranch.known && fromBranch.files).not.toContain('main-only.txt');
    expect(fromBranch.known && fromBranch.files).toContain('libs/shared/new.py');
    // A head the checkout lacks: HEAD.
    const absent = await checkoutChangedFiles(checkout(merged), base, ['d'.repeat(40)]);
    expect(absent).toEqual(fromHead);
  });

  it('are not known for a ref the checkout does not have, naming the flag', async () => {
    const changes = await checkoutChangedFiles(checkout(repo), since('no-such-branch'));
    expect(changes).toEqual({
      known: false,
      why: 'git cannot say which files changed since --changed-since no-such-branch: the checkout has no such commit: fetch it first',
    });
  });

  it('are not known in a shallow clone without the merge base, saying how to fetch the history', async () => {
    const shallow = path.join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', '--no-single-branch', `file://${repo}`, shallow);
    git(shallow, 'checkout', '-q', 'feature');
    const changes = await checkoutChangedFiles(checkout(shallow), since('origin/main'));
    expect(changes.known).toBe(false);
    const why = changes.known ? '' : changes.why;
    expect(why).toMatch(/^git cannot say which files changed since --changed-since origin\/main: /);
    expect(why).toContain('shallow clone');
    for (const remedy of ['GIT_DEPTH: 0', 'fetch-depth: 0', 'git fetch --unshallow']) {
      expect(why).toContain(remedy);
    }
  });

  it('are not known in a shallow clone of one branch, whose base is missing', async () => {
    const single = path.join(root, 'single');
    git(root, 'clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo}`, single);
    const changes = await checkoutChangedFiles(checkout(single), since('origin/main'));
    expect(changes.known ? '' : changes.why).toMatch(
      /no such commit: it is a shallow clone: fetch the history/,
    );
  });

  it('are not known outside a git checkout, or without git', async () => {
    const nowhere = mkdtempSync(path.join(root, 'nowhere-'));
    const outside = await checkoutChangedFiles(
      { cwd: nowhere, env: { ...ENV, GIT_CEILING_DIRECTORIES: root } },
      since('main'),
    );
    expect(outside).toEqual({
      known: false,
      why: `git cannot say which files changed since --changed-since main: ${nowhere} is not in a git checkout`,
    });
    const noGit = await checkoutChangedFiles({ cwd: repo, env: { PATH: nowhere } }, since('main'));
    expect(noGit).toEqual({
      known: false,
      why: 'git cannot say which files changed since --changed-since main: git is not installed (no git on PATH)',
    });
  });

  it('are known up to 3,000 files, not over', async () => {
    const big = path.join(root, 'big');
    git(root, 'clone', '-q', repo, big);
    for (let index = 0; index < 3_000; index++) write(big, `many/${index}.txt`, `${index}\n`);
    git(big, 'add', '.');
    commit(big, '3,000 files');
    const atCap = await checkoutChangedFiles(checkout(big), since('origin/feature'));
    expect(atCap.known && atCap.files.length).toBe(3_000);
    write(big, 'one-more.txt', 'over\n');
    git(big, 'add', '.');
    commit(big, '3,001 files');
    expect(await checkoutChangedFiles(checkout(big), since('origin/feature'))).toEqual({
      known: false,
      why: 'the change since --changed-since origin/feature holds more than 3,000 files',
    });
  });
});

describe("git diff --name-status -z's answer", () => {
  it('gives one path after M, A, D, T, two after R and C, each path once', () => {
    const output = ['M', 'a', 'C75', 'a', 'b', 'T', 'link', 'R100', 'old', 'new', 'A', 'b', ''];
    expect(parseNameStatus(output.join('\0'))).toEqual({
      files: ['a', 'b', 'link', 'old', 'new'],
      records: 5,
    });
  });

  it('keeps a path as git gives it (spaces, a line break)', () => {
    expect(parseNameStatus('A\0two words\nand a line\0')?.files).toEqual(['two words\nand a line']);
  });

  it.each([
    ['an unknown status', 'Q\0a\0'],
    ['a rename without its new name', 'R100\0old\0'],
    ['an empty path', 'M\0\0'],
  ])('is not read with %s', (_, output) => {
    expect(parseNameStatus(output)).toBeUndefined();
  });
});

describe('the base of the change, from the run', () => {
  const SHA = 'f'.repeat(40);
  const HEAD = 'a'.repeat(40);
  const gitlab = {
    GITLAB_CI: 'true',
    CI: 'true',
    CI_PROJECT_PATH: 'group/agent',
    CI_COMMIT_SHA: HEAD,
  };
  const mergeRequest = {
    ...gitlab,
    CI_MERGE_REQUEST_ID: '12',
    CI_MERGE_REQUEST_IID: '3',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
  };
  const baseOf = (env: Record<string, string>, given?: ChangedSince) =>
    changeBase(given, describeCiRun(env, root), env);

  it("is GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA on a merge request pipeline", () => {
    expect(baseOf({ ...mergeRequest, CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA })).toEqual({
      refs: [SHA],
      named: `CI_MERGE_REQUEST_DIFF_BASE_SHA ${SHA.slice(0, 12)}`,
    });
  });

  it('is else the target branch the CI names, origin/<branch> first', () => {
    expect(baseOf(mergeRequest)).toEqual({
      refs: ['origin/main', 'main'],
      named: 'the target branch main',
    });
    const jenkins = {
      JENKINS_URL: 'https://ci.example/',
      CHANGE_ID: '7',
      CHANGE_TARGET: 'develop',
      CHANGE_BRANCH: 'feature',
    };
    expect(baseOf(jenkins)?.refs).toEqual(['origin/develop', 'develop']);
    const bitbucket = {
      BITBUCKET_BUILD_NUMBER: '4',
      BITBUCKET_BRANCH: 'feature',
      BITBUCKET_COMMIT: HEAD,
      BITBUCKET_PR_ID: '9',
      BITBUCKET_PR_DESTINATION_BRANCH: 'release',
    };
    expect(baseOf(bitbucket)?.refs).toEqual(['origin/release', 'release']);
    const azure = {
      BUILD_BUILDURI: 'vstfs:///Build/Build/1',
      BUILD_SOURCEVERSION: 'b'.repeat(40),
      SYSTEM_PULLREQUEST_PULLREQUESTID: '5',
      SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feature',
      SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/main',
      SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD,
    };
    expect(baseOf(azure)?.refs).toEqual(['origin/main', 'main']);
  });

  it('is --changed-since REF when given, over the CI, in any run', () => {
    const given: ChangedSince = { ref: 'v1', origin: 'DEPLOY_CHANGED_SINCE' };
    const expected = { refs: ['v1'], named: 'DEPLOY_CHANGED_SINCE v1' };
    expect(baseOf({ ...mergeRequest, CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA }, given)).toEqual(
      expected,
    );
    expect(baseOf({}, given)).toEqual(expected);
    expect(baseOf({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push' }, given)).toEqual(expected);
  });

  it("is GITHUB_BASE_REF on a GitHub pull request, as the action's base", () => {
    const github = {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REPOSITORY: 'acme/agent',
      GITHUB_SHA: HEAD,
      GITHUB_BASE_REF: 'main',
      GITHUB_HEAD_REF: 'feature',
    };
    expect(baseOf(github)?.refs).toEqual(['origin/main', 'main']);
  });

  it('is none (paths not read) on a run not for a merge or pull request', () => {
    const push = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push', GITHUB_SHA: HEAD };
    expect(baseOf(push)).toBeUndefined();
    expect(baseOf({ ...gitlab, CI_COMMIT_REF_NAME: 'main' })).toBeUndefined();
    expect(baseOf({})).toBeUndefined();
    expect(askCheckoutChanges(undefined, describeCiRun({}, root), checkout(repo))).toBeUndefined();
  });

  it('is not known on a pull request whose target the CI does not name: --changed-since says it', async () => {
    const bitbucket = {
      BITBUCKET_BUILD_NUMBER: '4',
      BITBUCKET_BRANCH: 'feature',
      BITBUCKET_PR_ID: '9',
    };
    const ask = askCheckoutChanges(undefined, describeCiRun(bitbucket, root), checkout(repo));
    expect(await ask?.()).toEqual({
      known: false,
      why: 'Bitbucket Pipelines does not name the branch the merge request goes into: pass --changed-since REF',
    });
  });

  it("asks the checkout on a merge request pipeline: the target branch's change", async () => {
    const env = { ...mergeRequest, CI_COMMIT_SHA: featureHead };
    const ask = askCheckoutChanges(undefined, describeCiRun(env, repo), {
      cwd: repo,
      env: { ...ENV, ...env },
    });
    const changes = await ask?.();
    expect(changes?.known && changes.files).toContain('apps/research/agent graph.py');
    expect(changes?.known && changes.files).not.toContain('main-only.txt');
  });
});
