/**
 * A pull request's changed files as GitHub lists them (`GET …/pulls/{n}/files`, every page): what
 * the core's `paths` are matched against. When they cannot be known, why, in one sentence for the
 * notice: the core then deploys every agent.
 */
import type { AskChangedFiles, ChangedFiles } from '../../run/ports/changes.js';
import type { GitHubApi } from '../client/api.js';
import type { CallFailure } from '../client/failures.js';
import type { Repo } from '../client/requests.js';
import type { GitHubRunContext } from './context.js';

/** GitHub lists at most this many of a pull request's files, whatever it changes. */
export const LISTED_FILES_MAX = 3000;

const NOT_LISTED = 'GitHub did not list the pull request’s changed files';

export interface PullRequestAt {
  repository: Repo;
  pullRequest: number;
  /** The event's `pull_request.changed_files`, when it says. */
  changedFiles?: number;
}

/**
 * Every file the pull request changes, in GitHub's order, each name once (a rename under its
 * new name, then its old one). Never throws, and asks nothing of GitHub when the event already
 * says the list would be cut.
 */
export async function listChangedFiles(api: GitHubApi, at: PullRequestAt): Promise<ChangedFiles> {
  const { changedFiles } = at;
  if (changedFiles !== undefined && changedFiles > LISTED_FILES_MAX) return tooMany(changedFiles);
  const names = new Set<string>();
  let listed = 0;
  const walked = await api.walkChangedFiles(
    at.repository,
    at.pullRequest,
    (files) => {
      listed += files.length;
      for (const { filename, previous_filename } of files) {
        names.add(filename);
        if (previous_filename) names.add(previous_filename);
      }
      return 'more';
    },
    // The notice made of `why` is the one line about it.
    { silent: true },
  );
  if (!walked.ok) return { known: false, why: notListed(walked.failure) };
  if (listed >= LISTED_FILES_MAX || !walked.value.ended) return tooMany(undefined);
  return { known: true, files: [...names] };
}

function tooMany(count: number | undefined): ChangedFiles {
  const changes =
    count === undefined ? 'at least 3,000 files' : `${count.toLocaleString('en-US')} files`;
  return {
    known: false,
    why: `the pull request changes ${changes}, and GitHub lists only the first 3,000`,
  };
}

/** The failure, and what a person does about it; the permission named where GitHub refused. */
function notListed(failure: CallFailure): string {
  const what = `${NOT_LISTED} (${failure.problem})`;
  const { status } = failure;
  if (status === 401) return `${what}: check the github-token input, GitHub does not accept it`;
  if (/rate limit/i.test(failure.problem)) return `${what}: GitHub rate-limits this token`;
  if (status === 403) {
    return `${what}: add \`pull-requests: read\` to the workflow's \`permissions:\``;
  }
  if (status === 404) {
    return `${what}: the token cannot see this repository, or lacks \`pull-requests: read\``;
  }
  return what;
}

/**
 * The runner's `changedFiles` on a pull request (`RunnerIO.changedFiles`), undefined on every
 * other event. Without a token its answer is why; else it asks `api()` (the run's one API, made
 * then) once, whoever asks again.
 */
export function askChangedFiles(
  token: string,
  context: GitHubRunContext | undefined,
  api: () => GitHubApi,
): AskChangedFiles | undefined {
  const pullRequest = context?.pullRequest;
  if (context === undefined || pullRequest === undefined) return undefined;
  if (token === '') {
    const why = `github-token is empty, so ${NOT_LISTED.replace('GitHub did not list', 'GitHub cannot list')}`;
    return () => Promise.resolve({ known: false, why });
  }
  const { repository, changedFiles } = context;
  const at = { repository, pullRequest, ...(changedFiles === undefined ? {} : { changedFiles }) };
  let asked: Promise<ChangedFiles> | undefined;
  return () => (asked ??= listChangedFiles(api(), at));
}
