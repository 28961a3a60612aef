/**
 * Which GitHub features a run uses, and the hooks the core gets for them
 * (`RunnerIO.progress` and `RunnerIO.commitOrder`). Nothing here talks to
 * GitHub until the core calls a hook: the reporter is made on the first
 * call, and Octokit is loaded on its first request, so a run that uses no
 * feature pays nothing for them.
 */
import type {
  AskCommitOrder,
  ReportPlan,
  ReportRetired,
  RunProgress,
} from '../run/ports/progress.js';
import type { GitHubSettings } from './inputs.js';
import { GitHubReporter, type GitHubRunContext, type ReporterDependencies } from './reporter.js';

export interface GitHubHooks {
  /** Set when the run records a deployment or writes a comment. */
  progress?: RunProgress;
  /** Set when there is a token to ask GitHub with (behaviour 15). */
  commitOrder?: AskCommitOrder;
  /** Set when the run writes a plan comment (`pr-comment` on a pull request). */
  planned?: ReportPlan;
  /** Set for the retire step with a token and a repository. */
  retired?: ReportRetired;
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
  const hooks: Omit<GitHubHooks, 'reporter'> = retire
    ? { retired: (report) => made().retired(report) }
    : {
        ...(wanted.length === 0
          ? {}
          : {
              progress: {
                deployed: (report) => made().deployed(report),
                finished: (report) => made().finished(report),
              },
            }),
        commitOrder: (repository, target, latest) => made().commitOrder(repository, target, latest),
        ...(settings.comment && pullRequest ? { planned: (report) => made().planned(report) } : {}),
      };
  return {
    get reporter() {
      return reporter;
    },
    ...hooks,
  };
}
