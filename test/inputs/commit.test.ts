/**
 * `commit: auto` from the neutral description of the run (src/inputs/commit.ts),
 * whoever wrote it: the head's branch and sha, unless the head is in another
 * repository than the one deployed. GitHub's events are in test/github/event.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RunHead } from '../../src/inputs/run-description.ts';
import { planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('commit-test-');
const { plan: spec } = planReader({ workspace: workspace.root });
const SHA = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

// With a key: a fork's run without one fails earlier (test/inputs/run-description.test.ts).
const commitFor = (head: RunHead) =>
  spec({ repository: 'acme/agent', 'api-key': 'a-key-for-the-test' }, { head }).commit;

describe('commit: auto from the run head', () => {
  it('targets the branch head of the deployed repository', () => {
    expect(commitFor({ kind: 'branch', branch: 'main', sha: SHA, pullRequest: false })).toEqual({
      kind: 'auto',
      branch: 'main',
      sha: SHA,
    });
  });

  it('passes on why there is no head', () => {
    expect(commitFor({ kind: 'none', reason: 'no branch' })).toEqual({
      kind: 'none',
      reason: 'no branch',
    });
  });

  it('targets nothing for a head in another repository, saying whether it is a pull request', () => {
    const head = { kind: 'branch', branch: 'main', sha: SHA, repository: 'fork/agent' } as const;
    expect(commitFor({ ...head, pullRequest: false })).toEqual({
      kind: 'none',
      reason: 'the run is for fork/agent, not acme/agent',
    });
    expect(commitFor({ ...head, pullRequest: true })).toEqual({
      kind: 'none',
      reason: "the pull request's head is in fork/agent, not acme/agent",
    });
    expect(commitFor({ ...head, repository: null, pullRequest: true })).toEqual({
      kind: 'none',
      reason: "the pull request's head is in a deleted repository, not acme/agent",
    });
  });
});
