/**
 * A pull request's changed files, read from the GitHub emulator over real HTTP with the real
 * Octokit: every page, both names of a rename, GitHub's 3,000 cap, and each reason they cannot
 * be known as one sentence for the notice (never a throw).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitHubRunContext } from '../../../src/github/features/context.ts';
import { askChangedFiles, listChangedFiles } from '../../../src/github/features/changed-files.ts';
import { gitHubApi, type HookDependencies } from '../../../src/github/hooks.ts';
import type { GitHubApi } from '../../../src/github/client/api.ts';
import { systemClock } from '../../../src/common/runtime.ts';
import { MemoryLogger } from '../../support/clock.ts';
import {
  GITHUB_ACTIONS_BOT,
  pullRequestFile,
  rateLimited,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../../emulator/github.ts';

const TOKEN = 'ghs_workflow_token';
const FILES = '/repos/acme/agent/pulls/7/files';

let gh: GitHubEmulator;
let logger: MemoryLogger;

beforeEach(async () => {
  gh = await startGitHubEmulator();
  gh.addToken(TOKEN, GITHUB_ACTIONS_BOT);
  logger = new MemoryLogger();
});
afterEach(() => gh.close());

function context(overrides: Partial<GitHubRunContext> = {}): GitHubRunContext {
  return {
    repository: { owner: 'acme', repo: 'agent' },
    sha: 'c0ffee0123456789c0ffee0123456789c0ffee01',
    pullRequest: 7,
    fork: false,
    apiUrl: gh.url,
    ...overrides,
  };
}

function api(token = TOKEN, budgetMs?: number): GitHubApi {
  const made: HookDependencies = {
    logger,
    clock: systemClock,
    redact: (text) => text,
    apiOptions: { limits: { retryDelayMs: 1 } },
    ...(budgetMs === undefined ? {} : { budgetMs }),
  };
  return gitHubApi(token, context(), made);
}

const ask = (overrides: Partial<GitHubRunContext> = {}, token = TOKEN) =>
  askChangedFiles(token, context(overrides), () => api(token));
const pages = () => gh.calls(`GET ${FILES}`).map((r) => `${r.query.per_page}/${r.query.page}`);
const numbered = (count: number) => Array.from({ length: count }, (_, i) => `src/f${i + 1}.ts`);

describe("a pull request's changed files", () => {
  it('reads every page, 100 a page, in order, a rename under its new name then its old', async () => {
    const files = numbered(250);
    gh.setPullRequestFiles('acme/agent', 7, [
      ...files.slice(0, 120),
      pullRequestFile('apps/b/main.py', { previous: 'apps/a/main.py' }),
      ...files.slice(120),
    ]);
    const answer = await ask()?.();
    expect(answer).toEqual({
      known: true,
      files: [...files.slice(0, 120), 'apps/b/main.py', 'apps/a/main.py', ...files.slice(120)],
    });
    expect(pages()).toEqual(['100/1', '100/2', '100/3']);
    expect(logger.lines).toEqual([]);
  });

  it('names each file once: a rename whose old name another file takes again', async () => {
    gh.setPullRequestFiles('acme/agent', 7, [
      pullRequestFile('b.ts', { previous: 'a.ts' }),
      pullRequestFile('a.ts', { status: 'added' }),
      'c.ts',
    ]);
    expect(await ask()?.()).toEqual({ known: true, files: ['b.ts', 'a.ts', 'c.ts'] });
  });

  it('asks GitHub once however often it is asked, and nothing off a pull request', async () => {
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts']);
    const asked = ask();
    await asked?.();
    expect(await asked?.()).toEqual({ known: true, files: ['a.ts'] });
    expect(pages()).toEqual(['100/1']);
    const push = { ...context(), pullRequest: undefined };
    expect(askChangedFiles(TOKEN, push, () => api())).toBeUndefined();
    expect(askChangedFiles(TOKEN, undefined, () => api())).toBeUndefined();
  });
});

describe('when they cannot be known', () => {
  it('a listing that reaches 3,000 files: GitHub cut it, 30 pages read', async () => {
    gh.setPullRequestFiles('acme/agent', 7, numbered(3050));
    expect(await ask()?.()).toEqual({
      known: false,
      why: 'the pull request changes at least 3,000 files, and GitHub lists only the first 3,000',
    });
    expect(pages()).toHaveLength(30);
  });

  it('an event whose changed_files is over 3,000: no request at all', async () => {
    gh.setPullRequestFiles('acme/agent', 7, numbered(10), 3001);
    expect(await ask({ changedFiles: 3001 })?.()).toEqual({
      known: false,
      why: 'the pull request changes 3,001 files, and GitHub lists only the first 3,000',
    });
    expect(gh.requests).toEqual([]);
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts'], 3000);
    expect(await ask({ changedFiles: 3000 })?.()).toEqual({ known: true, files: ['a.ts'] });
  });

  it('a 403: the permission named, and no other line logged', async () => {
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts']);
    gh.addToken('ghs_none', { ...GITHUB_ACTIONS_BOT, permissions: { 'pull-requests': 'none' } });
    expect(await ask({}, 'ghs_none')?.()).toEqual({
      known: false,
      why: "GitHub did not list the pull request’s changed files (403 Resource not accessible by integration): add `pull-requests: read` to the workflow's `permissions:`",
    });
    expect(logger.lines).toEqual([]);
  });

  it('a 404: the token cannot see it, or lacks the permission', async () => {
    const answer = await ask({ pullRequest: 8 })?.();
    expect(answer).toEqual({
      known: false,
      why: 'GitHub did not list the pull request’s changed files (404 Not Found): the token cannot see this repository, or lacks `pull-requests: read`',
    });
  });

  it('a 500, retried once: why, never a throw', async () => {
    gh.setPullRequestFiles('acme/agent', 7, numbered(150));
    gh.inject({ method: 'GET', path: FILES, status: 500, times: 3 });
    expect(await ask()?.()).toEqual({
      known: false,
      why: 'GitHub did not list the pull request’s changed files (500 Server Error (2 attempts))',
    });
    expect(gh.calls(`GET ${FILES}`)).toHaveLength(2);
  });

  it('a rate limit, a token GitHub does not accept: each says what to do', async () => {
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts']);
    gh.inject({ method: 'GET', path: FILES, ...rateLimited(403) });
    expect(await ask()?.()).toEqual({
      known: false,
      why: 'GitHub did not list the pull request’s changed files (403 API rate limit exceeded for installation ID 1.): GitHub rate-limits this token',
    });
    expect(await ask({}, 'ghs_unknown')?.()).toEqual({
      known: false,
      why: 'GitHub did not list the pull request’s changed files (401 Bad credentials): check the github-token input, GitHub does not accept it',
    });
    expect(logger.lines).toEqual([]);
  });

  it("the run's GitHub budget spent: no request", async () => {
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts']);
    const answer = await listChangedFiles(api(TOKEN, 0), {
      repository: { owner: 'acme', repo: 'agent' },
      pullRequest: 7,
    });
    expect(answer).toEqual({
      known: false,
      why: expect.stringMatching(
        /^GitHub did not list the pull request’s changed files \(not sent: the .* a run may take are spent\)$/,
      ) as string,
    });
    expect(gh.requests).toEqual([]);
  });

  it('no token: why, and no request', async () => {
    gh.setPullRequestFiles('acme/agent', 7, ['a.ts']);
    expect(await ask({}, '')?.()).toEqual({
      known: false,
      why: 'github-token is empty, so GitHub cannot list the pull request’s changed files',
    });
    expect(gh.requests).toEqual([]);
  });
});
