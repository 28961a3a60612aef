/**
 * Where the run stands on GitHub, as every feature reads it: worked out once
 * from the event and the runner's variables (src/github/event.ts), and
 * shared by all the hooks of a run.
 */
import type { Repo } from '../client/requests.js';

export interface GitHubRunContext {
  /** The workflow's repository: the record and the comment go there. */
  repository: Repo;
  /** The commit the run is for: the pull request's head on pull request events, else GITHUB_SHA. */
  sha: string;
  /** The pull request's number on `pull_request` and `pull_request_target` events. */
  pullRequest?: number;
  /** How the pull request stands, from the event: merged, closed without merging, or open. */
  pullRequestState?: 'merged' | 'closed' | 'open';
  /** The pull request comes from a fork: its token is read-only. */
  fork: boolean;
  /** The workflow run's page, for `log_url` and the comment. */
  runUrl?: string;
  /** GITHUB_API_URL. */
  apiUrl?: string;
}

/** `value` with the workflow run's page, when the run has one. */
export function withRunUrl<T extends object>(
  value: T,
  runUrl: string | undefined,
): T & { runUrl?: string } {
  return runUrl === undefined ? value : { ...value, runUrl };
}
