/**
 * The deploy step's GitHub hooks (src/main.ts): its deployment record and
 * preview comment, as a view of its `deployed` and `finished` events, and
 * the commit order, whenever there is a token and a repository.
 */
import type { EventView } from '../run/ports/events.js';
import { CommitOrders } from './features/commit-order.js';
import { DeployReport } from './features/deploy-report.js';
import {
  commentOffPullRequest,
  gitHubApi,
  Lazy,
  reachable,
  type GitHubHooks,
  type MakeHooks,
} from './hooks.js';
import type { GitHubSettings } from './inputs.js';

export function deployHooks(settings: GitHubSettings): MakeHooks {
  return (context, dependencies) => {
    const { logger } = dependencies;
    commentOffPullRequest(settings.comment, context, logger);
    const wanted = [
      settings.environment === '' ? undefined : 'the GitHub deployment record',
      settings.comment && context?.pullRequest !== undefined
        ? 'the pull request comment'
        : undefined,
    ];
    const at = reachable(settings.token, context, logger, wanted);
    if (at === undefined) return { api: undefined };
    const made = new Lazy(() => {
      const api = gitHubApi(settings.token, at, dependencies);
      return {
        api,
        report: new DeployReport(api, at, settings, dependencies),
        orders: new CommitOrders(api),
      };
    });
    const view: EventView = (event) => {
      if (event.kind === 'deployed') made.value.report.deployed(event.report);
      else if (event.kind === 'finished') return made.value.report.finished(event.report);
    };
    const hooks: GitHubHooks = {
      get api() {
        return made.made?.api;
      },
      commitOrder: (repository, target, latest) =>
        made.value.orders.ask(repository, target, latest),
    };
    if (wanted.some((what) => what !== undefined)) hooks.view = view;
    return hooks;
  };
}
