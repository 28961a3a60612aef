/**
 * `commit: auto` derived from the run's event: the head GitHub's event
 * describes (src/github/event.ts), through readPlan (src/inputs/commit.ts):
 * the pull request's head (never the merge commit GITHUB_SHA), the branch of
 * a push, and a reason whenever there is nothing to derive.
 */
import { describe, expect, it } from 'vitest';
import {
  SKIP_FORKS,
  describeRun,
  gitHubRunContext,
  runHead,
  type RunEvent,
} from '../../src/github/event.ts';
import { WORKFLOW_REPOSITORY } from '../support/action.ts';
import { planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('commit-target-test-');
const { plan: spec } = planReader({ workspace: workspace.root, repository: WORKFLOW_REPOSITORY });

const HEAD_SHA = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const MERGE_SHA = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const PUSH_SHA = 'CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';

function push(ref: string, sha = PUSH_SHA): RunEvent {
  return { name: 'push', ref, sha, payload: { ref, after: sha } };
}

function pullRequest(name: string, head: unknown): RunEvent {
  return {
    name,
    ref: 'refs/pull/7/merge',
    sha: MERGE_SHA,
    payload: { number: 7, pull_request: { number: 7, head, base: { ref: 'main' } } },
  };
}

/** The commit request of a codehost plan read for `event`. */
function commitFor(event: RunEvent | undefined, given: Record<string, string> = {}) {
  // With a key: a fork's run without one fails before targeting (test/inputs/run-description.test.ts).
  const keyed = { 'api-key': 'a-key-for-the-test', ...given };
  return spec(keyed, { head: event && runHead(event, WORKFLOW_REPOSITORY) }).commit;
}

describe('commit: auto', () => {
  it('on a push to a branch: that branch and GITHUB_SHA, lower-cased', () => {
    expect(commitFor(push('refs/heads/main'))).toEqual({
      kind: 'auto',
      branch: 'main',
      sha: PUSH_SHA.toLowerCase(),
    });
    expect(commitFor(push('refs/heads/feature/a-b'))).toMatchObject({ branch: 'feature/a-b' });
  });

  it('on any other event with a branch ref (workflow_dispatch, schedule)', () => {
    for (const name of ['workflow_dispatch', 'schedule']) {
      expect(commitFor({ ...push('refs/heads/release'), name })).toMatchObject({
        kind: 'auto',
        branch: 'release',
      });
    }
  });

  it.each(['pull_request', 'pull_request_target'])(
    'on %s: the head branch and head sha, never the merge sha',
    (name) => {
      const head = { ref: 'feature', sha: HEAD_SHA, repo: { full_name: WORKFLOW_REPOSITORY } };
      const commit = commitFor(pullRequest(name, head));
      expect(commit).toEqual({ kind: 'auto', branch: 'feature', sha: HEAD_SHA });
      expect(JSON.stringify(commit)).not.toContain(MERGE_SHA);
    },
  );

  it('on a pull request whose payload has no head repository: still its head', () => {
    expect(commitFor(pullRequest('pull_request', { ref: 'feature', sha: HEAD_SHA }))).toEqual({
      kind: 'auto',
      branch: 'feature',
      sha: HEAD_SHA,
    });
  });

  it.each([
    ['no pull_request', { number: 7 }],
    ['no head', { pull_request: { number: 7 } }],
    ['a short head sha', { pull_request: { head: { ref: 'feature', sha: 'aaaaaaa' } } }],
    ['an empty head ref', { pull_request: { head: { ref: '', sha: HEAD_SHA } } }],
    ['a number for the ref', { pull_request: { head: { ref: 7, sha: HEAD_SHA } } }],
    ['nothing at all', null],
    ['a string', 'not an object'],
  ])('on a pull request whose payload has %s: none, with a reason', (_, payload) => {
    const event: RunEvent = {
      name: 'pull_request',
      ref: 'refs/pull/7/merge',
      sha: MERGE_SHA,
      payload,
    };
    expect(commitFor(event)).toEqual({
      kind: 'none',
      reason: 'the pull_request event has no pull_request.head.ref and .sha in its payload',
    });
  });

  it('on a pull request from a fork: none, since the deployed repository lacks the commit', () => {
    const head = { ref: 'main', sha: HEAD_SHA, repo: { full_name: 'someone/agent' } };
    expect(commitFor(pullRequest('pull_request', head))).toEqual({
      kind: 'none',
      reason: `the pull request's head is in someone/agent, not ${WORKFLOW_REPOSITORY}`,
    });
    const gone = { ref: 'main', sha: HEAD_SHA, repo: null };
    expect(commitFor(pullRequest('pull_request_target', gone))).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('a deleted repository') as unknown,
    });
  });

  it('matches the head repository case-insensitively', () => {
    const head = {
      ref: 'main',
      sha: HEAD_SHA,
      repo: { full_name: WORKFLOW_REPOSITORY.toUpperCase() },
    };
    expect(commitFor(pullRequest('pull_request', head)).kind).toBe('auto');
  });

  it('on a tag: none, naming the tag', () => {
    expect(commitFor(push('refs/tags/v1'))).toEqual({
      kind: 'none',
      reason: 'the run is for tag refs/tags/v1',
    });
  });

  it.each([
    ['refs/pull/7/merge', 'the run is for refs/pull/7/merge, not a branch'],
    ['refs/heads/', 'the run is for refs/heads/, not a branch'],
    ['', 'the push event has no ref'],
  ])('on the ref %j: none, with a reason', (ref, reason) => {
    expect(commitFor(push(ref))).toEqual({ kind: 'none', reason });
  });

  it('without a ref or an event name: one reason, with no gap where the name would be', () => {
    expect(commitFor({ ...push(''), name: '' })).toEqual({
      kind: 'none',
      reason: "the run's event has no ref",
    });
  });

  it('without an event: none, with a reason', () => {
    expect(commitFor(undefined)).toEqual({ kind: 'none', reason: "the run's event is not known" });
  });

  it('with a GITHUB_SHA that is not a full sha: none, with a reason', () => {
    expect(commitFor(push('refs/heads/main', 'abc'))).toEqual({
      kind: 'none',
      reason: "GITHUB_SHA 'abc' is not a full commit sha",
    });
  });

  it("when another repository than the workflow's is deployed: none", () => {
    expect(commitFor(push('refs/heads/main'), { repository: 'other-org/agent' })).toEqual({
      kind: 'none',
      reason: `the run is for ${WORKFLOW_REPOSITORY}, not other-org/agent`,
    });
  });

  it.each(['external_docker', 'internal_docker', 'internal_template'])(
    'with source %s: none, and no error',
    (source) => {
      expect(commitFor(push('refs/heads/main'), { source, 'image-uri': 'img:1' })).toEqual({
        kind: 'none',
        reason: `source ${source} has no commits`,
      });
    },
  );
});

describe('commit: none and an explicit sha', () => {
  it('none targets nothing, whatever the event', () => {
    expect(commitFor(push('refs/heads/main'), { commit: 'none' })).toEqual({
      kind: 'none',
      reason: 'the commit input is none',
    });
  });

  it('an explicit sha wins over the event', () => {
    const sha = 'DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD';
    expect(
      commitFor(pullRequest('pull_request', { ref: 'x', sha: HEAD_SHA }), { commit: sha }),
    ).toEqual({
      kind: 'sha',
      sha: sha.toLowerCase(),
    });
  });
});

describe('the run GitHub describes', () => {
  it('takes the workspace and repository from the runner, the commit from the event', () => {
    const event = push('refs/heads/main');
    expect(
      describeRun(
        event,
        { GITHUB_WORKSPACE: '/w', GITHUB_REPOSITORY: WORKFLOW_REPOSITORY },
        '/cwd',
      ),
    ).toEqual({
      workspace: '/w',
      repository: WORKFLOW_REPOSITORY,
      head: {
        kind: 'branch',
        branch: 'main',
        sha: PUSH_SHA.toLowerCase(),
        repository: WORKFLOW_REPOSITORY,
        pullRequest: false,
      },
      commit: PUSH_SHA,
      skipForks: `if: ${SKIP_FORKS}`,
    });
  });

  it('falls back to the working directory without GITHUB_WORKSPACE', () => {
    expect(describeRun(push('refs/heads/main'), {}, '/cwd')).toMatchObject({
      workspace: '/cwd',
      repository: undefined,
    });
  });

  it("says where a pull request's head comes from", () => {
    const head = { ref: 'feature', sha: HEAD_SHA, repo: { full_name: 'someone/agent' } };
    expect(runHead(pullRequest('pull_request', head), WORKFLOW_REPOSITORY)).toEqual({
      kind: 'branch',
      branch: 'feature',
      sha: HEAD_SHA,
      repository: 'someone/agent',
      pullRequest: true,
    });
  });
});

describe('where the run stands on GitHub', () => {
  const variables = {
    GITHUB_REPOSITORY: WORKFLOW_REPOSITORY,
    GITHUB_SERVER_URL: 'https://github.example/',
    GITHUB_RUN_ID: '42',
    GITHUB_API_URL: 'https://github.example/api/v3',
  };
  const contextOf = (event: RunEvent, given: Partial<typeof variables> = variables) =>
    gitHubRunContext(event, given, describeRun(event, given, '/cwd'));

  it("a fork's pull request: its head, its number, a fork, the run's page", () => {
    const head = { ref: 'feature', sha: HEAD_SHA, repo: { full_name: 'someone/agent' } };
    expect(contextOf(pullRequest('pull_request_target', head))).toEqual({
      repository: { owner: 'acme', repo: 'agent' },
      sha: HEAD_SHA,
      pullRequest: 7,
      fork: true,
      runUrl: 'https://github.example/acme/agent/actions/runs/42',
      apiUrl: 'https://github.example/api/v3',
    });
  });

  it('a push: GITHUB_SHA, no pull request, no fork; github.com by default', () => {
    const context = contextOf(push('refs/heads/main'), {
      GITHUB_REPOSITORY: WORKFLOW_REPOSITORY,
      GITHUB_RUN_ID: '9',
    });
    expect(context).toEqual({
      repository: { owner: 'acme', repo: 'agent' },
      sha: PUSH_SHA,
      fork: false,
      runUrl: 'https://github.com/acme/agent/actions/runs/9',
    });
  });

  it("the repository's own pull request is no fork; no GITHUB_REPOSITORY, no context", () => {
    const head = { ref: 'feature', sha: HEAD_SHA, repo: { full_name: 'ACME/agent' } };
    expect(contextOf(pullRequest('pull_request', head))).toMatchObject({
      pullRequest: 7,
      fork: false,
    });
    expect(contextOf(push('refs/heads/main'), {})).toBeUndefined();
  });

  it("a pull request's changed_files when its payload says, and nothing when it says nonsense", () => {
    const head = { ref: 'feature', sha: HEAD_SHA, repo: { full_name: 'acme/agent' } };
    const event = pullRequest('pull_request', head);
    const withCount = (changed_files: unknown): RunEvent => {
      const payload = event.payload as { pull_request: object };
      return { ...event, payload: { pull_request: { ...payload.pull_request, changed_files } } };
    };
    expect(contextOf(withCount(3001))).toMatchObject({ pullRequest: 7, changedFiles: 3001 });
    expect(contextOf(withCount('many'))).toMatchObject({ pullRequest: 7 });
    expect(contextOf(withCount('many'))).not.toHaveProperty('changedFiles');
    expect(contextOf(event)).not.toHaveProperty('changedFiles');
  });
});
