/**
 * The plan step's GitHub hook (src/plan.ts): its plan comment on the pull
 * request, as a view of its `planned` event, when `pr-comment` asks and
 * there is a token and a repository.
 */
import { carriesPlanMarker, writePlanComment } from './features/plan-comment.js';
import { PullRequestComment } from './features/pr-comment.js';
import { commentOffPullRequest, gitHubApi, Lazy, reachable, type MakeHooks } from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export type PlanSettings = Pick<GitHubSettings, 'token' | 'comment'>;

/** Where a plan's comment goes, and the comment, made on first use; none off a pull request. */
export function planCommentAt(
  settings: PlanSettings,
  context: Parameters<MakeHooks>[0],
  dependencies: Parameters<MakeHooks>[1],
  carriesMarker: ConstructorParameters<typeof PullRequestComment>[4],
) {
  const { logger, redact } = dependencies;
  commentOffPullRequest(settings.comment, context, logger);
  const pullRequest = settings.comment ? context?.pullRequest : undefined;
  const wanted = [pullRequest === undefined ? undefined : 'the pull request comment'];
  const at = reachable(settings.token, context, logger, wanted);
  if (at === undefined || pullRequest === undefined) return undefined;
  const made = new Lazy(() => {
    const api = gitHubApi(settings.token, at, dependencies);
    const where = { repository: at.repository, pullRequest };
    return { api, comment: new PullRequestComment(api, where, logger, redact, carriesMarker) };
  });
  return { at, made };
}

export function planHooks(settings: PlanSettings): MakeHooks {
  return (context, dependencies) => {
    const target = planCommentAt(settings, context, dependencies, carriesPlanMarker);
    if (target === undefined) return { api: undefined };
    const { at, made } = target;
    return {
      get api() {
        return made.made?.api;
      },
      view: (event) =>
        event.kind === 'planned'
          ? writePlanComment(made.value.comment, event.report, at, dependencies.redact)
          : undefined,
    };
  };
}
