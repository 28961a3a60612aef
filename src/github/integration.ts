/**
 * Which GitHub features a run uses, and what the core gets for them: a view
 * of its events (the deployment record and its statuses, the preview and
 * plan comments) and the answers to its questions (`RunnerIO.commitOrder`,
 * `RunnerIO.retired`, `RunnerIO.pullRequestStates`). Nothing here talks to GitHub until an event or a
 * question needs it: the reporter is made then, and Octokit is loaded on its
 * first request, so a run that uses no feature pays nothing for them.
 */
import type { EventView } from '../run/ports/events.js';
import { ActionError } from '../common/errors.js';
import type { AskCommitOrder, AskPullRequestStates, ReportRetired } from '../run/ports/progress.js';
import type { GitHubSettings } from './inputs.js';
import { GitHubReporter, type GitHubRunContext, type ReporterDependencies } from './reporter.js';

export interface GitHubHooks {
  /**
   * The view of the run's events on GitHub: set when the run records a
   * deployment or writes a comment (a preview's, or a plan's).
   */
  view?: EventView;
  /** Set when there is a token to ask GitHub with (behaviour 15). */
  commitOrder?: AskCommitOrder;
  /** Set for the retire step and the sweep, with a token and a repository. */
  retired?: ReportRetired;
  /**
   * Always set for the sweep: the pull requests' states, or, without a token
   * or a repository, an `ActionError` naming what is missing (a sweep cannot
   * go without the states, so the core fails the step on it like on GitHub's
   * refusal).
   */
  pullRequestStates?: AskPullRequestStates;
  /** The reporter, once a hook made it (the bench and tests count its requests). */
  readonly reporter: GitHubReporter | undefined;
}

/**
 * The hooks a run needs. `pr-comment` off a pull request is one debug line;
 * an empty token with a feature asked for is one notice, and no hook.
 */
export function gitHubHooks(
  settings: GitHubSettings,
  context: GitHubRunContext | undefined,
  dependencies: ReporterDependencies,
): GitHubHooks {
  const { logger } = dependencies;
  const pullRequest = context?.pullRequest !== undefined;
  if (settings.comment && !pullRequest) {
    logger.debug('pr-comment is ignored: the run is not for a pull request');
  }
  if (settings.sweep === true) return sweepHooks(settings, context, dependencies);
  const retire = settings.retire === true;
  // What each setting turns on, as the notice names it: a retire marks records and rewrites.
  const names = retire
    ? {
        record: `marking the GitHub deployments of '${settings.environment}' inactive`,
        comment: 'rewriting the preview comment',
      }
    : { record: 'the GitHub deployment record', comment: 'the pull request comment' };
  const wanted = [
    settings.environment === '' ? undefined : names.record,
    settings.comment && pullRequest ? names.comment : undefined,
  ].filter((what) => what !== undefined);
  const skipped = (why: string) => {
    if (wanted.length === 0) return;
    logger.notice(`${why}: ${wanted.join(' and ')} ${wanted.length > 1 ? 'are' : 'is'} skipped.`);
  };
  if (settings.token === '') {
    skipped('github-token is empty');
    return { reporter: undefined };
  }
  if (context === undefined) {
    skipped('GITHUB_REPOSITORY is not set, so the run has no repository on GitHub');
    return { reporter: undefined };
  }
  let reporter: GitHubReporter | undefined;
  const made = () => (reporter ??= new GitHubReporter(context, settings, dependencies));
  // A retire has one hook; a deploy or a plan has the others, each when its setting asks.
  const plans = settings.comment && pullRequest;
  const view: EventView = (event) => {
    switch (event.kind) {
      case 'deployed':
        made().deployed(event.report);
        return;
      case 'finished':
        return made().finished(event.report);
      case 'planned':
        return plans ? made().planned(event.report) : undefined;
      default:
        return;
    }
  };
  const hooks: Omit<GitHubHooks, 'reporter'> = retire
    ? { retired: (report) => made().retired(report) }
    : {
        ...(wanted.length === 0 ? {} : { view }),
        commitOrder: (repository, target, latest) => made().commitOrder(repository, target, latest),
      };
  return {
    get reporter() {
      return reporter;
    },
    ...hooks,
  };
}

/**
 * The sweep's hooks: `retired` for each orphan, and `pullRequestStates`,
 * which throws before any request when the run has no token or no
 * repository, since without the states nothing is an orphan.
 */
function sweepHooks(
  settings: GitHubSettings,
  context: GitHubRunContext | undefined,
  dependencies: ReporterDependencies,
): GitHubHooks {
  const missing =
    settings.token === ''
      ? 'github-token is empty'
      : context === undefined
        ? 'GITHUB_REPOSITORY is not set, so the run has no repository on GitHub'
        : undefined;
  if (missing !== undefined || context === undefined) {
    const why = `the sweep cannot ask GitHub how the pull requests stand: ${missing}. Give it a token with \`pull-requests: read\` (the default, \${{ github.token }}, with that permission).`;
    return {
      reporter: undefined,
      pullRequestStates: () => Promise.reject(new ActionError(why)),
    };
  }
  let reporter: GitHubReporter | undefined;
  const made = () => (reporter ??= new GitHubReporter(context, settings, dependencies));
  return {
    get reporter() {
      return reporter;
    },
    retired: (report) => made().retired(report),
    pullRequestStates: (numbers) => made().pullRequestStates(numbers),
  };
}
