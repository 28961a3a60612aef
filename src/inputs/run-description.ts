/**
 * The run the inputs are read for, as the adapter that runs the core
 * describes it: src/github/ derives it from the workflow's event, and a
 * command would take it from its flags or its CI's variables. Nothing here
 * knows where it runs.
 */
import { ACTION_WORDS, type RemedyWords } from '../service/answers.js';

/** Where the run is, and for which repository and commit. */
export interface RunDescription {
  /** Where a `config` file path is resolved (on GitHub, GITHUB_WORKSPACE). */
  workspace: string;
  /** The repository the run is for (`owner/name`): the default of the `repository` input. */
  repository?: string;
  /**
   * The code host `repository` is on (`github.com`), when the run knows it (a
   * terminal's checkout: its origin remote); an entry of the integration's
   * listing on another host is not it.
   */
  repositoryHost?: string;
  /** The branch head the run is for, which `commit: auto` targets; undefined when not known. */
  head?: RunHead;
  /** The commit the run checked out, for the summary (on a pull request, a merge commit). */
  commit?: string;
  /** How to skip a fork's runs where this runs (shown when a fork's run has no api key). */
  skipForks?: string;
  /** How the entry names what its user gives (its inputs, or its options); the action's when absent. */
  words?: RemedyWords;
}

/** The entry's words for what its user gives: the run's, else the action's inputs. */
export function wordsOf(run: Pick<RunDescription, 'words'>): RemedyWords {
  return run.words ?? ACTION_WORDS;
}

/** The branch and commit the run is for, or why there is none (one log line). */
export type RunHead =
  | {
      kind: 'branch';
      branch: string;
      /** A full sha, lower-cased. */
      sha: string;
      /**
       * The repository that has the branch (`owner/name`): null when it was
       * deleted (a pull request from a removed fork), undefined when not said.
       */
      repository?: string | null;
      /** The head of a pull request, which may come from a fork. */
      pullRequest: boolean;
    }
  | { kind: 'none'; reason: string };

/**
 * The run is for a pull request from another repository than the run's own
 * (or from a deleted one): CI systems give such runs no secrets.
 */
export function isFromFork(run: RunDescription): boolean {
  const { head } = run;
  if (head?.kind !== 'branch' || !head.pullRequest || head.repository === undefined) return false;
  return head.repository?.toLowerCase() !== run.repository?.toLowerCase();
}
