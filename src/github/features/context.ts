/** Where the run stands on GitHub, worked out once (event.ts) and shared by all the hooks. */
import type { Repo } from '../client/requests.js';

export interface GitHubRunContext {
  repository: Repo;
  /** The pull request's head on pull request events, else GITHUB_SHA. */
  sha: string;
  pullRequest?: number;
  pullRequestState?: 'merged' | 'closed' | 'open';
  /** The event's `pull_request.changed_files`, when it says. */
  changedFiles?: number;
  /** A fork's pull request: its token is read-only. */
  fork: boolean;
  runUrl?: string;
  apiUrl?: string;
}

export function withRunUrl<T extends object>(
  value: T,
  runUrl: string | undefined,
): T & { runUrl?: string } {
  return runUrl === undefined ? value : { ...value, runUrl };
}
