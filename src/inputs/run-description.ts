/** The run the inputs are read for, as the adapter describes it: nothing here knows where it runs. */
import { ACTION_WORDS, type RemedyWords } from '../service/answers.js';

export interface RunDescription {
  /** Where a `config` file path is resolved (on GitHub, GITHUB_WORKSPACE). */
  workspace: string;
  repository?: string;
  /** `repository`'s code host, when known: an entry of the integration's listing on another host is not it. */
  repositoryHost?: string;
  /** What `commit: auto` targets. */
  head?: RunHead;
  /** The commit the run checked out, for the summary (on a pull request, a merge commit). */
  commit?: string;
  /** How to skip a fork's runs here (shown when a fork's run has no api key). */
  skipForks?: string;
  words?: RemedyWords;
}

export function wordsOf(run: Pick<RunDescription, 'words'>): RemedyWords {
  return run.words ?? ACTION_WORDS;
}

/** The branch and commit the run is for, or why there is none (one log line). */
export type RunHead =
  | {
      kind: 'branch';
      branch: string;
      sha: string;
      /** Null when deleted (a pull request from a removed fork), undefined when not said. */
      repository?: string | null;
      pullRequest: boolean;
    }
  | { kind: 'none'; reason: string };

/** A pull request from another (or a deleted) repository: CI systems give such runs no secrets. */
export function isFromFork(run: RunDescription): boolean {
  const { head } = run;
  if (head?.kind !== 'branch' || !head.pullRequest || head.repository === undefined) return false;
  return head.repository?.toLowerCase() !== run.repository?.toLowerCase();
}

/**
 * A fork's runs get no secrets, so the key is empty and every input filled from a secret too:
 * a problem of the run, found on the raw text, leading the report ahead of the empty values.
 */
export function forkRunProblem(apiKey: string, run: RunDescription): string | undefined {
  if (apiKey !== '' || !isFromFork(run)) return undefined;
  const head = run.head?.kind === 'branch' ? run.head.repository : undefined;
  const from = head === null || head === undefined ? 'a deleted fork' : `the fork ${head}`;
  const skip =
    run.skipForks === undefined ? 'Skip runs from forks' : `Skip them with \`${run.skipForks}\``;
  return `is empty: this run is for a pull request from ${from}, and a fork's runs get no secrets, so the step cannot authenticate. ${skip} on the step or the job.`;
}
