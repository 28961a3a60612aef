/**
 * What every entry's GitHub hooks share. Nothing talks to GitHub until an
 * event or a question needs it, and Octokit loads on the first request, so
 * a run that uses no feature pays nothing for them.
 */
import type { DeploymentEntry } from '../run/ports/findings.js';
import { GitHubApi } from './client/api.js';
import { agentsBudgetMs, Budget } from './client/budget.js';
import type { GitHubApiOptions } from './client/calls.js';
import type { GitHubRunContext } from './features/context.js';
import type { Clock, Logger } from '../common/runtime.js';
import type { AskChangedFiles } from '../run/ports/changes.js';
import type { EventView } from '../run/ports/events.js';
import type { AskCommitOrder, AskPullRequestStates, ReportRetired } from '../run/ports/progress.js';

export interface GitHubHooks {
  view?: EventView;
  commitOrder?: AskCommitOrder;
  retired?: ReportRetired;
  pullRequestStates?: AskPullRequestStates;
  changedFiles?: AskChangedFiles;
  /** What the hooks add to every outputs event (the records' ids in `deployments`). */
  outputs?: (
    outputs: Readonly<Partial<Record<string, string>>>,
    entries: ReadonlyMap<string, DeploymentEntry> | undefined,
  ) => Readonly<Partial<Record<string, string>>>;
  /** The run's GitHub API, once a hook made it (tests count its requests). */
  api?: () => GitHubApi | undefined;
}

export interface HookDependencies {
  logger: Logger;
  clock: Clock;
  redact: (text: string) => string;
  apiOptions?: Partial<Pick<GitHubApiOptions, 'limits' | 'load'>>;
  budgetMs?: number;
  onRecorded?: (id: number) => void;
  /** Sets the outputs again once what the hooks' `outputs` adds changed. */
  refreshOutputs?: () => void;
}

/** The context is undefined without a repository. */
export type MakeHooks = (
  context: GitHubRunContext | undefined,
  dependencies: HookDependencies,
) => GitHubHooks;

/** `make()` on first use; `made` is what it made, if it was used. */
export class Lazy<T> {
  readonly #make: () => T;
  #value: T | undefined;

  constructor(make: () => T) {
    this.#make = make;
  }

  get value(): T {
    return (this.#value ??= this.#make());
  }

  get made(): T | undefined {
    return this.#value;
  }
}

/** A manifest's dependencies: a budget that grows with its agents (`agentsBudgetMs`). */
export function forAgents<D extends HookDependencies>(given: D, agents: number | undefined): D {
  return agents === undefined
    ? given
    : { ...given, budgetMs: agentsBudgetMs(agents, given.budgetMs) };
}

export function recordsWanted(
  environment: string,
  manifest: { agents: readonly { environment?: string }[] } | undefined,
): boolean {
  if (manifest === undefined) return environment !== '';
  return manifest.agents.some((agent) => (agent.environment ?? environment) !== '');
}

export function gitHubApi(
  token: string,
  context: GitHubRunContext,
  { logger, clock, budgetMs, apiOptions }: HookDependencies,
): GitHubApi {
  return new GitHubApi({
    token,
    baseUrl: context.apiUrl,
    logger,
    clock,
    budget: new Budget(clock, budgetMs),
    fork: context.fork,
    ...apiOptions,
  });
}

export function unreachable(
  token: string,
  context: GitHubRunContext | undefined,
): string | undefined {
  if (token === '') return 'github-token is empty';
  if (context === undefined) {
    return 'GITHUB_REPOSITORY is not set, so the run has no repository on GitHub';
  }
  return undefined;
}

/** The context when the run can reach GitHub; else one notice naming what `wanted` skips. */
export function reachable(
  token: string,
  context: GitHubRunContext | undefined,
  logger: Logger,
  wanted: readonly (string | undefined)[],
): GitHubRunContext | undefined {
  const why = unreachable(token, context);
  if (why === undefined) return context;
  const skipped = wanted.filter((what) => what !== undefined);
  if (skipped.length > 0) {
    const verb = skipped.length > 1 ? 'are' : 'is';
    logger.notice(`${why}: ${skipped.join(' and ')} ${verb} skipped.`);
  }
  return undefined;
}

export function commentOffPullRequest(
  comment: boolean,
  context: GitHubRunContext | undefined,
  logger: Logger,
): void {
  if (comment && context?.pullRequest === undefined) {
    logger.debug('pr-comment is ignored: the run is not for a pull request');
  }
}
