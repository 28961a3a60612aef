/**
 * The sweep's question: how the pull requests stand. Unlike every other
 * GitHub call it is not advisory (without the states nothing is an orphan):
 * a refused or unanswered query is an `ActionError` naming
 * `pull-requests: read`.
 */
import { ActionError } from '../../common/errors.js';
import type { PullRequestState } from '../../run/ports/progress.js';
import type { GitHubApi } from '../client/api.js';
import type { Repo } from '../client/requests.js';
import { invalidQueryLine, requiredFailureLine } from '../client/failures.js';
import { PULL_REQUEST_STATES } from '../client/routes.js';

/** A number that is not a positive integer is the caller's mistake: a `RangeError`, first. */
export async function askPullRequestStates(
  api: GitHubApi,
  repository: Repo,
  numbers: readonly number[],
): Promise<Map<number, PullRequestState>> {
  const asked = await api.pullRequestStates(repository, numbers, { silent: true });
  if (!asked.ok) {
    const { purpose, permission } = PULL_REQUEST_STATES;
    const { failure } = asked;
    throw new ActionError(
      failure.invalid === true
        ? invalidQueryLine(failure, "the pull requests' states query")
        : requiredFailureLine(failure, purpose, permission),
    );
  }
  return asked.value;
}
