/**
 * A step run against both emulators: the service's, and GitHub's through
 * GITHUB_API_URL as on any runner. The GitHub inputs (github-token,
 * environment, pr-comment) go in as the runner gives them; the run's page
 * comes from GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID.
 */
import { WORKFLOW_REPOSITORY } from './action.ts';
import type { RunOptions } from './run-action.ts';

/** The workflow's token in these tests (a GITHUB_TOKEN: the bot). */
export const GITHUB_TOKEN = 'ghs_e2eWorkflowToken0123456789abcdef';
export const SERVER_URL = 'https://github.example';
export const RUN_ID = '4242';
export const RUN_URL = `${SERVER_URL}/${WORKFLOW_REPOSITORY}/actions/runs/${RUN_ID}`;
/** The head of pull request 7, and the merge commit GITHUB_SHA names on its events. */
export const PR_HEAD = '4444444444444444444444444444444444444444';
export const PR_MERGE = '9999999999999999999999999999999999999999';

export interface GitHubInputs {
  'github-token'?: string;
  environment?: string;
  'pr-comment'?: string;
}

/**
 * The step's inputs and options: `inputs` (the core's) plus the GitHub
 * inputs (declared in action.yml like the core's), and the runner's GitHub
 * variables.
 */
export function gitHubStep(
  gh: { url: string },
  inputs: Record<string, string>,
  github: GitHubInputs = {},
  options: RunOptions = {},
): [Record<string, string>, RunOptions] {
  const env: Record<string, string> = {
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: SERVER_URL,
    GITHUB_RUN_ID: RUN_ID,
    ...options.env,
  };
  return [
    { ...inputs, 'github-token': GITHUB_TOKEN, ...github },
    { ...options, env },
  ];
}

/** A `pull_request` event for pull request 7 from `headRepository`; `closed` as the retire step sees it. */
export function pullRequestEvent(
  headRepository: string = WORKFLOW_REPOSITORY,
  name: 'pull_request' | 'pull_request_target' = 'pull_request',
  closed?: 'merged' | 'closed',
): NonNullable<RunOptions['event']> {
  return {
    name,
    ref: 'refs/pull/7/merge',
    sha: PR_MERGE,
    payload: {
      number: 7,
      ...(closed === undefined ? {} : { action: 'closed' }),
      pull_request: {
        number: 7,
        state: closed === undefined ? 'open' : 'closed',
        merged: closed === 'merged',
        head: { ref: 'feature', sha: PR_HEAD, repo: { full_name: headRepository } },
        base: { ref: 'main', repo: { full_name: WORKFLOW_REPOSITORY } },
      },
    },
  };
}

export const pushEvent = (sha: string, branch = 'main'): NonNullable<RunOptions['event']> => ({
  name: 'push',
  ref: `refs/heads/${branch}`,
  sha,
  payload: { ref: `refs/heads/${branch}`, after: sha },
});
