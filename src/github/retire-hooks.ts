/**
 * The retire step's GitHub hook (src/retire.ts): `retired`, which marks the
 * deployments of its `environment` inactive and rewrites the preview's
 * comment on its event's pull request (none is created), when there is a
 * token and a repository.
 */
import { PullRequestComment } from './features/pr-comment.js';
import { retirePreview } from './features/retirement.js';
import { commentOffPullRequest, gitHubApi, Lazy, reachable, type MakeHooks } from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export function retireHooks(settings: GitHubSettings): MakeHooks {
  return (context, dependencies) => {
    const { logger, redact } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const pullRequest = settings.comment ? context?.pullRequest : undefined;
    const wanted = [
      settings.environment === ''
        ? undefined
        : `marking the GitHub deployments of '${settings.environment}' inactive`,
      pullRequest === undefined ? undefined : 'rewriting the preview comment',
    ];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined) return { api: undefined };
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      const where =
        pullRequest === undefined ? undefined : { repository: at.repository, pullRequest };
      return {
        api,
        comment:
          where === undefined ? undefined : new PullRequestComment(api, where, logger, redact),
      };
    });
    return {
      get api() {
        return made.made?.api;
      },
      retired: (report) => {
        if (at.pullRequestState === 'open') {
          logger.warning(
            `pull request #${at.pullRequest} is still open, and its preview is retired all the same: run the retire step on \`pull_request: types: [closed]\`.`,
          );
        }
        const { api, comment } = made.value;
        const target = {
          environment: report.environment ?? settings.environment,
          comment,
          pullRequestState: at.pullRequestState,
        };
        return retirePreview(api, report, target, { ...at, logger, redact });
      },
    };
  };
}
