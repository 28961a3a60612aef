/**
 * Which run it is, from the CI system's variables (through env-ci) or, outside
 * CI, from the git checkout: the branch head a run is for, never a merge commit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCiRun, slugOfGitUrl } from '../../src/cli/ci.ts';

const HEAD = 'a'.repeat(40);
const MERGE = 'b'.repeat(40);
const OTHER = 'c'.repeat(40);

/** A directory outside any git checkout, for runs that must not find one. */
let nowhere: string;
beforeAll(() => {
  nowhere = mkdtempSync(path.join(tmpdir(), 'ci-nowhere-'));
});
afterAll(() => rmSync(nowhere, { recursive: true, force: true }));

function describe_(env: Record<string, string>) {
  return describeCiRun(env, nowhere);
}

describe('GitLab CI', () => {
  const gitlab = {
    GITLAB_CI: 'true',
    CI: 'true',
    CI_PROJECT_PATH: 'group/sub/agent',
    CI_PIPELINE_ID: '7',
  };

  it('a branch pipeline: the branch and CI_COMMIT_SHA', () => {
    const run = describe_({ ...gitlab, CI_COMMIT_REF_NAME: 'main', CI_COMMIT_SHA: HEAD });
    expect(run).toMatchObject({ where: 'GitLab CI/CD', slug: 'group/sub/agent', commit: HEAD });
    expect(run.head).toEqual({ kind: 'branch', branch: 'main', sha: HEAD, pullRequest: false });
  });

  const mergeRequest = {
    ...gitlab,
    CI_MERGE_REQUEST_ID: '99',
    CI_MERGE_REQUEST_IID: '4',
    CI_COMMIT_REF_NAME: 'feature',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
    CI_MERGE_REQUEST_PROJECT_PATH: 'group/sub/agent',
    CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'group/sub/agent',
  };

  it('a merge request pipeline: the source branch and CI_COMMIT_SHA, its head', () => {
    const run = describe_({ ...mergeRequest, CI_COMMIT_SHA: HEAD });
    expect(run.head).toMatchObject({ kind: 'branch', branch: 'feature', sha: HEAD });
    expect(run.head).toMatchObject({ pullRequest: true });
  });

  it('a merged-results pipeline: the source head, never the merge commit in CI_COMMIT_SHA', () => {
    const run = describe_({
      ...mergeRequest,
      CI_COMMIT_SHA: MERGE,
      CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD,
      CI_MERGE_REQUEST_TARGET_BRANCH_SHA: OTHER,
    });
    expect(run.head).toMatchObject({ kind: 'branch', branch: 'feature', sha: HEAD });
    // env-ci alone answers the merge commit, and the target branch: the correction is needed.
    expect(run.commit).toBe(MERGE);
  });

  it("a fork's merge request: the head's repository is the fork", () => {
    const run = describe_({
      ...mergeRequest,
      CI_COMMIT_SHA: HEAD,
      CI_MERGE_REQUEST_SOURCE_PROJECT_PATH: 'contributor/agent',
    });
    expect(run.head).toMatchObject({ repository: 'contributor/agent', pullRequest: true });
  });

  it('a tag pipeline: nothing targeted, saying why', () => {
    const run = describe_({
      ...gitlab,
      CI_COMMIT_REF_NAME: 'v1.2.0',
      CI_COMMIT_TAG: 'v1.2.0',
      CI_COMMIT_SHA: HEAD,
    });
    expect(run.head).toEqual({ kind: 'none', reason: 'the run is for the tag v1.2.0' });
  });
});

describe('CircleCI', () => {
  const circle = {
    CIRCLECI: 'true',
    CI: 'true',
    CIRCLE_PROJECT_USERNAME: 'acme',
    CIRCLE_PROJECT_REPONAME: 'agent',
    CIRCLE_SHA1: HEAD,
    CIRCLE_BRANCH: 'main',
  };

  it('a branch build', () => {
    const run = describe_(circle);
    expect(run).toMatchObject({ where: 'CircleCI', slug: 'acme/agent' });
    expect(run.head).toEqual({ kind: 'branch', branch: 'main', sha: HEAD, pullRequest: false });
  });

  it("a fork's pull request: its branch, its head, and the fork", () => {
    const run = describe_({
      ...circle,
      CIRCLE_BRANCH: 'pull/12',
      CIRCLE_PULL_REQUEST: 'https://github.com/acme/agent/pull/12',
      CIRCLE_PR_USERNAME: 'contributor',
      CIRCLE_PR_REPONAME: 'agent',
    });
    expect(run.head).toEqual({
      kind: 'branch',
      branch: 'pull/12',
      sha: HEAD,
      repository: 'contributor/agent',
      pullRequest: true,
    });
  });
});

describe('other CI systems env-ci knows', () => {
  it('Jenkins: GIT_BRANCH without origin/, GIT_COMMIT, the slug from GIT_URL', () => {
    const run = describe_({
      JENKINS_URL: 'https://jenkins.example/',
      GIT_BRANCH: 'origin/main',
      GIT_COMMIT: HEAD,
      GIT_URL: 'git@github.com:acme/agent.git',
    });
    expect(run).toMatchObject({ where: 'Jenkins', slug: 'acme/agent' });
    expect(run.head).toMatchObject({ kind: 'branch', branch: 'main', sha: HEAD });
  });

  it('Jenkins multibranch pull request: nothing targeted (GIT_COMMIT may be a merge)', () => {
    const run = describe_({
      JENKINS_URL: 'https://jenkins.example/',
      CHANGE_ID: '7',
      CHANGE_BRANCH: 'feature',
      BRANCH_NAME: 'PR-7',
      GIT_COMMIT: MERGE,
    });
    expect(run.head).toMatchObject({ kind: 'none' });
    expect(run.head.kind === 'none' && run.head.reason).toMatch(/pass --commit/);
  });

  it('Bitbucket Pipelines: the branch, the commit, the slug', () => {
    const run = describe_({
      BITBUCKET_BUILD_NUMBER: '3',
      BITBUCKET_BRANCH: 'feature',
      BITBUCKET_COMMIT: HEAD,
      BITBUCKET_REPO_FULL_NAME: 'acme/agent',
      BITBUCKET_PR_ID: '5',
    });
    expect(run.slug).toBe('acme/agent');
    expect(run.head).toMatchObject({ branch: 'feature', sha: HEAD, pullRequest: true });
  });

  it('Azure Pipelines pull request: the source commit, not BUILD_SOURCEVERSION (a merge)', () => {
    const azure = {
      BUILD_BUILDURI: 'vstfs:///Build/Build/1',
      BUILD_SOURCEVERSION: MERGE,
      BUILD_REPOSITORY_NAME: 'acme/agent',
      SYSTEM_PULLREQUEST_PULLREQUESTID: '17',
      SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feature',
      SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/main',
    };
    expect(describe_({ ...azure, SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD }).head).toMatchObject({
      branch: 'feature',
      sha: HEAD,
    });
    expect(describe_(azure).head).toMatchObject({ kind: 'none' });
    expect(describe_(azure).slug).toBe('acme/agent');
  });

  it('Buildkite: a commit that is not a full sha (HEAD) targets nothing', () => {
    const buildkite = {
      BUILDKITE: 'true',
      BUILDKITE_BRANCH: 'main',
      BUILDKITE_REPO: 'git@github.com:acme/agent.git',
      BUILDKITE_PULL_REQUEST: 'false',
    };
    expect(describe_({ ...buildkite, BUILDKITE_COMMIT: HEAD }).head).toMatchObject({
      branch: 'main',
      sha: HEAD,
    });
    expect(describe_({ ...buildkite, BUILDKITE_COMMIT: HEAD }).slug).toBe('acme/agent');
    expect(describe_({ ...buildkite, BUILDKITE_COMMIT: 'HEAD' }).head).toEqual({
      kind: 'none',
      reason: "Buildkite gives 'HEAD', not a full commit sha",
    });
  });

  it('a CI system env-ci does not know: nothing targeted, saying why', () => {
    const run = describe_({ CI: 'true' });
    expect(run.head).toMatchObject({ kind: 'none' });
    expect(run.head.kind === 'none' && run.head.reason).toMatch(/not one the command recognises/);
  });
});

describe('outside CI: the git checkout', () => {
  let checkout: string;
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: checkout,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.invalid',
      },
    }).trim();

  beforeAll(() => {
    checkout = mkdtempSync(path.join(tmpdir(), 'ci-checkout-'));
    git('init', '-q', '-b', 'trunk');
    writeFileSync(path.join(checkout, 'f'), 'x');
    git('add', 'f');
    git('commit', '-q', '-m', 'one');
  });
  afterAll(() => rmSync(checkout, { recursive: true, force: true }));

  it('HEAD and its branch', () => {
    const sha = git('rev-parse', 'HEAD');
    const run = describeCiRun({}, checkout);
    expect(run.head).toEqual({ kind: 'branch', branch: 'trunk', sha, pullRequest: false });
    expect(run.where).toBe('the git checkout');
  });

  it('a detached HEAD: nothing targeted, saying why', () => {
    git('checkout', '-q', '--detach');
    try {
      expect(describeCiRun({}, checkout).head).toEqual({
        kind: 'none',
        reason: 'the git checkout is on no branch (a detached HEAD)',
      });
    } finally {
      git('checkout', '-q', 'trunk');
    }
  });

  it('no checkout at all: nothing targeted, saying why', () => {
    expect(describeCiRun({}, nowhere).head).toEqual({
      kind: 'none',
      reason: `${nowhere} is not in a git checkout`,
    });
  });
});

describe('slugOfGitUrl', () => {
  it.each([
    ['git@github.com:acme/agent.git', 'acme/agent'],
    ['https://github.com/acme/agent.git', 'acme/agent'],
    ['https://gitlab.example/group/sub/agent', 'group/sub/agent'],
    ['ssh://git@host:2222/acme/agent.git', 'acme/agent'],
    ['', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, slug) => {
    expect(slugOfGitUrl(url)).toBe(slug);
  });
});
