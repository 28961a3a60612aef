/** GitHub's REST API: one typed function per call, through calls.ts; no failure throws. */
import {
  ChangedFilePage,
  CommentPage,
  Comparison,
  Created,
  DeploymentPage,
  StatusPage,
  Viewer,
  type ChangedFile,
  type GitHubDeployment,
  type IssueComment,
} from './responses.js';
import { GitHubCalls, type CallOptions, type GitHubApiOptions, type Result } from './calls.js';
import {
  MAX_COMMENT_PAGES,
  MAX_DEPLOYMENT_PAGES,
  MAX_FILE_PAGES,
  PER_PAGE,
  walkPages,
  type Page,
} from './pages.js';
import {
  COMMENT_UPDATE,
  COMMENTS,
  COMPARE,
  DEPLOYMENT,
  DEPLOYMENT_LIST,
  PULL_REQUEST_FILES,
  PULL_REQUEST_STATES,
  rest,
  STATUS_LIST,
  VIEWER,
  type Permission,
  type RestCall,
} from './routes.js';
import {
  batches,
  graphqlAnswer,
  PullRequestStatesAnswer,
  pullRequestStatesQuery,
  statesOf,
} from './pull-request-states.js';
import type { PullRequestState } from '../../run/ports/progress.js';
import type { DeploymentRequest, DeploymentStatusRequest, Repo } from './requests.js';
import type { z } from 'zod';
import type { Attempt } from './attempt.js';

const byId = (item: { id: number }) => item.id;

export class GitHubApi {
  readonly #calls: GitHubCalls;
  #viewer: Result<string> | undefined;
  readonly budgetMs: number;

  constructor(options: GitHubApiOptions) {
    this.#calls = new GitHubCalls(options);
    this.budgetMs = options.budget.totalMs;
  }

  get requests(): number {
    return this.#calls.requests;
  }

  /** The token's login (GraphQL's `viewer`: any kind of token); a success stands for the run. */
  async viewerLogin(options: CallOptions = {}): Promise<Result<string>> {
    if (this.#viewer !== undefined) return this.#viewer;
    const query = 'query { viewer { login } }';
    const viewer = await this.#graphql(VIEWER, query, {}, Viewer, (v) => v.viewer.login, options);
    if (viewer.ok) this.#viewer = viewer;
    return viewer;
  }

  /** One GraphQL query; `answer` reads an error that is an answer (`graphqlAnswer`). */
  async #graphql<S extends z.ZodType, T>(
    route: { call: string; purpose: string; permission?: Permission },
    query: string,
    variables: Record<string, unknown>,
    schema: S,
    pick: (value: z.infer<S>) => T,
    options: CallOptions,
    answer: (error: unknown) => Attempt | undefined = () => undefined,
  ): Promise<Result<T>> {
    const { call, purpose, permission } = route;
    const result = await this.#calls.call(
      call,
      purpose,
      permission,
      options,
      async (octokit, signal) => {
        try {
          const data = await octokit.graphql<unknown>(query, { ...variables, request: { signal } });
          return { status: 200, data, headers: {} };
        } catch (error) {
          const answered = answer(error);
          if (answered === undefined) throw error;
          return answered;
        }
      },
    );
    return this.#calls.parse(result, schema, pick, call, options);
  }

  /** One query after the other; the first failed one ends it. A bad number throws `RangeError` first. */
  async pullRequestStates(
    repo: Repo,
    numbers: readonly number[],
    options: CallOptions = {},
  ): Promise<Result<Map<number, PullRequestState>>> {
    const states = new Map<number, PullRequestState>();
    // Every query is written first: a number that is not a pull request's fails before any request.
    const queries = batches(numbers).map(
      (batch) => [batch, pullRequestStatesQuery(batch)] as const,
    );
    const variables = { owner: repo.owner, name: repo.repo };
    for (const [batch, query] of queries) {
      const pick = (answer: PullRequestStatesAnswer) => statesOf(batch, answer);
      const schema = PullRequestStatesAnswer;
      const args = [query, variables, schema, pick, options, graphqlAnswer] as const;
      const answer = await this.#graphql(PULL_REQUEST_STATES, ...args);
      if (!answer.ok) return answer;
      for (const state of answer.value) states.set(state.number, state);
    }
    return { ok: true, value: states };
  }

  /** The state of deployment `id`'s latest status (`GET …/statuses`, newest first), undefined for none. */
  latestStatus(repo: Repo, id: number, options: CallOptions = {}) {
    const call = rest(STATUS_LIST, { ...repo, deployment_id: id, per_page: 1 });
    return this.#read(call, StatusPage, (statuses) => statuses[0]?.state, options);
  }

  createDeployment(repo: Repo, body: DeploymentRequest, options: CallOptions = {}) {
    const parameters = { ...repo, ...body, auto_merge: false, required_contexts: [] };
    return this.#created(DEPLOYMENT, parameters, options);
  }

  createDeploymentStatus(repo: Repo, id: number, body: DeploymentStatusRequest, options = {}) {
    const parameters = { ...repo, deployment_id: id, ...body };
    return this.#created(`${DEPLOYMENT}/{deployment_id}/statuses`, parameters, options);
  }

  /** A pull request's comments, page by page until `visit` stops, the list ends or the cap. */
  walkComments(
    repo: Repo,
    issue: number,
    visit: (comments: IssueComment[]) => 'stop' | 'more',
    options: CallOptions = {},
  ): Promise<Result<{ ended: boolean }>> {
    const call = (page: number) =>
      rest(`GET ${COMMENTS}`, { ...repo, issue_number: issue, per_page: PER_PAGE, page });
    return this.#walk(call, CommentPage, byId, visit, options, MAX_COMMENT_PAGES);
  }

  /** The deployments of `environment`, newest first, as `walkComments` reads comments. */
  walkDeployments(
    repo: Repo,
    environment: string,
    visit: (deployments: GitHubDeployment[]) => 'stop' | 'more',
    maxPages = MAX_DEPLOYMENT_PAGES,
  ): Promise<Result<{ ended: boolean }>> {
    const call = (page: number) =>
      rest(DEPLOYMENT_LIST, { ...repo, environment, per_page: PER_PAGE, page });
    return this.#walk(call, DeploymentPage, byId, visit, {}, maxPages);
  }

  /** A pull request's changed files in GitHub's order, each once, as `walkComments` reads comments. */
  walkChangedFiles(
    repo: Repo,
    pullRequest: number,
    visit: (files: ChangedFile[]) => 'stop' | 'more',
    options: CallOptions = {},
  ): Promise<Result<{ ended: boolean }>> {
    const call = (page: number) =>
      rest(PULL_REQUEST_FILES, { ...repo, pull_number: pullRequest, per_page: PER_PAGE, page });
    const key = (file: ChangedFile) => file.filename;
    return this.#walk(call, ChangedFilePage, key, visit, options, MAX_FILE_PAGES);
  }

  #walk<T>(
    call: (page: number) => RestCall,
    schema: z.ZodType<T[]>,
    key: (item: T) => unknown,
    visit: (items: T[]) => 'stop' | 'more',
    options: CallOptions,
    maxPages: number,
  ): Promise<Result<{ ended: boolean }>> {
    const read = async (page: number): Promise<Result<Page<T>>> => {
      const made = call(page);
      const result = await this.#calls.rest(made, options);
      if (!result.ok) return result;
      const parsed = this.#calls.parse(result, schema, (items) => items, made, options);
      if (!parsed.ok) return parsed;
      const link = String(result.value.headers.link ?? '');
      return { ok: true, value: { items: parsed.value, link } };
    };
    return walkPages(read, key, visit, maxPages);
  }

  writeComment(
    repo: Repo,
    issue: number,
    existing: number | undefined,
    body: string,
    options = {},
  ) {
    return existing === undefined
      ? this.#created(`POST ${COMMENTS}`, { ...repo, issue_number: issue, body }, options)
      : this.#created(COMMENT_UPDATE, { ...repo, comment_id: existing, body }, options);
  }

  compare(repo: Repo, base: string, head: string, options: CallOptions = {}) {
    // Only the order is needed: the smallest page of commits and files.
    const call = rest(COMPARE, { ...repo, basehead: `${base}...${head}`, per_page: 1 });
    return this.#read(call, Comparison, (c) => c, options);
  }

  #created(route: string, parameters: Record<string, unknown>, options: CallOptions) {
    return this.#read(rest(route, parameters), Created, (c) => c.id, options);
  }

  async #read<S extends z.ZodType, T>(
    call: RestCall,
    schema: S,
    pick: (value: z.infer<S>) => T,
    options: CallOptions,
  ): Promise<Result<T>> {
    return this.#calls.parse(await this.#calls.rest(call, options), schema, pick, call, options);
  }
}
