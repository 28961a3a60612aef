/**
 * A fork's pull request gets no secrets: an empty
 * `api-key` there is an input error that says why and how to skip such runs,
 * before any request; a key, or a run from the repository itself, is fine.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/inputs/errors.ts';
import type { RunDescription, RunHead } from '../../src/inputs/run-description.ts';
import { planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('fork-test-');
const { plan: spec } = planReader({ workspace: workspace.root });
const SHA = 'a'.repeat(40);
const SKIP = 'if: github.event.pull_request.head.repo.full_name == github.repository';

const pullRequestFrom = (repository: string | null): RunHead => ({
  kind: 'branch',
  branch: 'feature',
  sha: SHA,
  repository,
  pullRequest: true,
});

const run = (head: RunHead, skipForks?: string): Partial<RunDescription> => ({
  repository: 'acme/agent',
  head,
  skipForks,
});

function errorOf(action: () => unknown): InputError {
  try {
    action();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no input error');
}

describe("a fork's pull request without an api key", () => {
  it('fails on api-key, naming the fork and the condition that skips forks', () => {
    const error = errorOf(() => spec({ name: 'app' }, run(pullRequestFrom('someone/agent'), SKIP)));
    expect(error.message).toContain(
      "input 'api-key': is empty: this run is for a pull request from the fork someone/agent, and a fork's runs get no secrets",
    );
    expect(error.message).toContain(`Skip them with \`${SKIP}\` on the step or the job.`);
  });

  it('leads the report, ahead of what the missing secrets leave empty, which it explains', () => {
    const error = errorOf(() =>
      spec(
        {
          name: 'app',
          secrets: 'OPENAI_API_KEY=',
          headers: 'X-Tenant:',
          'wait-timeout': 'soon',
        },
        run(pullRequestFrom('someone/agent'), SKIP),
      ),
    );
    const [first, ...rest] = error.message.split('\n');
    expect(first).toMatch(
      /^Invalid input 'api-key': is empty: this run is for a pull request from the fork someone\/agent/,
    );
    expect(first).toContain(SKIP);
    expect(first).toContain("The empty values in 'headers' and 'secrets' have the same cause.");
    expect(rest[0]).toBe('Other invalid inputs:');
    expect(rest.slice(1)).toEqual([expect.stringMatching(/^ {2}- input 'wait-timeout': /)]);
    expect(error.problems.map((problem) => problem.input)).toEqual(['api-key', 'wait-timeout']);
  });

  it('says so for a pull request from a deleted fork too', () => {
    const error = errorOf(() => spec({ name: 'app' }, run(pullRequestFrom(null), SKIP)));
    expect(error.message).toContain('from a deleted fork');
  });

  it('is not an error with a key, or for a pull request from the repository itself', () => {
    const withKey = spec(
      { name: 'app', 'api-key': 'k-123456' },
      run(pullRequestFrom('someone/agent')),
    );
    expect(withKey.name).toBe('app');
    const own = spec({ name: 'app' }, run(pullRequestFrom('ACME/agent')));
    expect(own.name).toBe('app');
  });

  it('is not an error for a push: only pull requests come from forks', () => {
    const push: RunHead = {
      kind: 'branch',
      branch: 'main',
      sha: SHA,
      repository: 'other/agent',
      pullRequest: false,
    };
    expect(spec({ name: 'app' }, run(push)).name).toBe('app');
  });
});
