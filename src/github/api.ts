/**
 * GitHub's REST API, as a service like any other: one typed function per
 * call the action makes, through @actions/github's Octokit (base address
 * from GITHUB_API_URL, so GitHub Enterprise works too). Contract v1.2: every
 * call is advisory and bounded (2 attempts within 10 s, within the run's
 * budget), and no failure leaves this module as an exception: it is one
 * warning that names the call, the status, GitHub's message and the remedy,
 * and the caller gets `{ ok: false }`.
 *
 * Octokit is loaded on the first call only: a dynamic import, kept in
 * dist/index.js (`webpackMode: "eager"`: one file, and ncc's licenses.txt,
 * which it writes per chunk, stays whole) but evaluated only when called, so
 * a run that uses no GitHub feature does not pay for it at start-up.
 */
import type { getOctokit } from '@actions/github';
import { z } from 'zod';
import { parseRetryAfter } from '../service/retry.js';
import { formatDuration, untrusted, type Clock, type Logger } from '../common/runtime.js';
import { withoutTrailingSlashes } from '../common/text.js';
import { Budget } from './budget.js';
import { CommentPage, Comparison, Created, Viewer, type IssueComment } from './answers.js';
import {
  callName,
  COMMENT_UPDATE,
  COMMENTS,
  COMPARE,
  DEPLOYMENT,
  rest,
  ROUTES,
  type Permission,
  VIEWER,
  type RestCall,
} from './routes.js';

type Octokit = ReturnType<typeof getOctokit>;

/** A repository, `owner/name`. */
export interface Repo {
  owner: string;
  repo: string;
}

export interface CallLimits {
  /** Attempts per call, the first one included. */
  attempts: number;
  /** All the attempts of one call, waits included. */
  callMs: number;
  /** One attempt, answer included. */
  attemptMs: number;
  /** The wait before a retry when GitHub names none. */
  retryDelayMs: number;
}

export const DEFAULT_LIMITS: CallLimits = {
  attempts: 2,
  callMs: 10_000,
  attemptMs: 5_000,
  retryDelayMs: 1_000,
};

/** A walk of a pull request's comments reads at most this many pages of `PER_PAGE`. */
export const MAX_COMMENT_PAGES = 10;
export const PER_PAGE = 100;

export interface GitHubApiOptions {
  token: string;
  /** GITHUB_API_URL; https://api.github.com when empty. */
  baseUrl: string | undefined;
  logger: Logger;
  clock: Clock;
  budget: Budget;
  /** The run is for a fork's pull request: its token is read-only whatever `permissions:` says. */
  fork?: boolean;
  limits?: Partial<CallLimits>;
  /** How Octokit is loaded; tests of the lazy load count calls. Default: a dynamic import. */
  load?: () => Promise<{ getOctokit: typeof getOctokit }>;
}

export interface CallFailure {
  /** `POST /repos/acme/agent/deployments` */
  call: string;
  /** Absent when GitHub did not answer (network error, timeout, budget spent). */
  status?: number;
  /** What went wrong, GitHub's message included, one line. */
  problem: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: CallFailure };

/** How a failure is reported: a warning (default), one debug line when cancelled, or nothing. */
export interface CallOptions {
  /** No line at all: the caller reports the failure itself (the core's commit-order debug line). */
  silent?: boolean;
  /** Ends the call early (a cancelled run); the failure is then one debug line. */
  signal?: AbortSignal;
  /** A shorter window than the call's usual one (the last status of a cancelled run). */
  callMs?: number;
}

export interface DeploymentRequest {
  ref: string;
  environment: string;
  description: string;
  transient_environment: boolean;
  payload: Record<string, unknown>;
}

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error';

export interface DeploymentStatusRequest {
  state: DeploymentState;
  description: string;
  log_url?: string;
  environment_url?: string;
  auto_inactive?: boolean;
}

/** An answer GitHub gave, or none. */
interface Attempt {
  status?: number;
  data?: unknown;
  headers: Record<string, string | number | undefined>;
  /** Why there was no answer: a timeout, the network, a cancel. */
  error?: string;
}

class NoAnswer extends Error {}

export class GitHubApi {
  readonly #options: GitHubApiOptions;
  readonly #limits: CallLimits;
  #octokit: Promise<Octokit> | undefined;
  /** Requests sent, every attempt counted (the bench reports it). */
  requests = 0;

  constructor(options: GitHubApiOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /** The token's login, as GraphQL's `viewer` tells it (works for GITHUB_TOKEN, app tokens and PATs). */
  async viewerLogin(options: CallOptions = {}): Promise<Result<string>> {
    const result = await this.#call(
      VIEWER.call,
      VIEWER.purpose,
      undefined,
      options,
      async (octokit, signal) => {
        const data = await octokit.graphql<unknown>('query { viewer { login } }', {
          request: { signal },
        });
        return { status: 200, data, headers: {} };
      },
    );
    return this.#parse(result, Viewer, (v) => v.viewer.login, VIEWER.call, options);
  }

  createDeployment(repo: Repo, body: DeploymentRequest, options: CallOptions = {}) {
    const parameters = { ...repo, ...body, auto_merge: false, required_contexts: [] };
    return this.#created(DEPLOYMENT, parameters, options);
  }

  createDeploymentStatus(repo: Repo, id: number, body: DeploymentStatusRequest, options = {}) {
    const parameters = { ...repo, deployment_id: id, ...body };
    return this.#created(`${DEPLOYMENT}/{deployment_id}/statuses`, parameters, options);
  }

  /**
   * Reads a pull request's comments page by page, `PER_PAGE` at a time,
   * until `visit` says it found what it looks for, the list ends (no
   * `rel="next"`) or `MAX_COMMENT_PAGES` were read. Page numbers are counted
   * here, never taken from the `Link` header, so no page is read twice and
   * the token goes to no other address.
   */
  async walkComments(
    repo: Repo,
    issue: number,
    visit: (comments: IssueComment[]) => 'stop' | 'more',
    options: CallOptions = {},
  ): Promise<Result<{ ended: boolean }>> {
    for (let page = 1; page <= MAX_COMMENT_PAGES; page++) {
      const call = rest(`GET ${COMMENTS}`, {
        ...repo,
        issue_number: issue,
        per_page: PER_PAGE,
        page,
      });
      const result = await this.#rest(call, options);
      if (!result.ok) return result;
      const parsed = this.#parse(result, CommentPage, (c) => c, call, options);
      if (!parsed.ok) return parsed;
      const link = String(result.value.headers.link ?? '');
      const hasNext = hasNextPage(link) && parsed.value.length > 0;
      if (visit(parsed.value) === 'stop') return { ok: true, value: { ended: false } };
      if (!hasNext) return { ok: true, value: { ended: true } };
    }
    return { ok: true, value: { ended: false } };
  }

  /** Creates this deployment's comment on pull request `issue`, or updates `existing`. */
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

  /** `GET /repos/{owner}/{repo}/compare/{base}...{head}`: how `head` stands against `base`. */
  async compare(repo: Repo, base: string, head: string, options: CallOptions = {}) {
    // Only the order is needed: the smallest page of commits and files.
    const call = rest(COMPARE, { ...repo, basehead: `${base}...${head}`, per_page: 1 });
    return this.#parse(await this.#rest(call, options), Comparison, (c) => c, call, options);
  }

  // ---- the one request loop ------------------------------------------------------------------

  #load(): Promise<Octokit> {
    this.#octokit ??= (
      this.#options.load ?? (() => import(/* webpackMode: "eager" */ '@actions/github'))
    )().then(({ getOctokit }) =>
      getOctokit(this.#options.token, {
        baseUrl: withoutTrailingSlashes(this.#options.baseUrl || 'https://api.github.com'),
        userAgent: 'deploy-agent-action',
        // Octokit writes deprecation notices to the console; the action decides what is logged.
        log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      }),
    );
    return this.#octokit;
  }

  /** A call whose answer is what it created (or updated): its id. */
  async #created(
    route: string,
    parameters: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Result<number>> {
    const call = rest(route, parameters);
    return this.#parse(await this.#rest(call, options), Created, (c) => c.id, call, options);
  }

  /** One REST call through the request loop below. */
  #rest(call: RestCall, options: CallOptions): Promise<Result<Attempt>> {
    const { purpose, permission } = ROUTES[call.route] ?? { purpose: 'call GitHub' };
    return this.#call(callName(call), purpose, permission, options, (octokit, signal) =>
      octokit.request(call.route, { ...call.parameters, request: { signal } }),
    );
  }

  /**
   * At most `attempts` attempts within `callMs` and the run's budget. A
   * retry follows no answer, a 5xx, or a rate limit whose wait fits.
   */
  async #call(
    call: string,
    purpose: string,
    permission: Permission | undefined,
    options: CallOptions,
    send: (octokit: Octokit, signal: AbortSignal) => Promise<Attempt>,
  ): Promise<Result<Attempt>> {
    const { clock, budget } = this.#options;
    const limits = this.#limits;
    const callEnd = clock.now() + Math.min(limits.callMs, options.callMs ?? limits.callMs);
    let last: Attempt | undefined;
    let attempts = 0;
    for (let attempt = 1; attempt <= limits.attempts; attempt++) {
      const windowMs = Math.min(limits.attemptMs, callEnd - clock.now());
      const reservation = budget.reserve(windowMs);
      if (reservation.grantedMs <= 0) {
        reservation.end();
        break;
      }
      attempts = attempt;
      last = await this.#attempt(send, reservation.grantedMs, options.signal);
      reservation.end();
      if (options.signal?.aborted) break;
      if (last.status !== undefined && last.status < 400) return { ok: true, value: last };
      const waitMs = this.#retryWait(last, clock.wallTime());
      if (attempt === limits.attempts || waitMs === undefined) break;
      // The wait counts against the call's window and the run's budget like an attempt.
      if (clock.now() + waitMs >= callEnd || waitMs >= budget.remainingMs) break;
      const pause = budget.reserve(waitMs);
      try {
        await clock.sleep(pause.grantedMs, options.signal);
      } catch {
        pause.end();
        break;
      }
      pause.end();
    }
    const failure = this.#failure(call, last, attempts, options.signal);
    this.#report(failure, purpose, permission, last, options);
    return { ok: false, failure };
  }

  async #attempt(
    send: (octokit: Octokit, signal: AbortSignal) => Promise<Attempt>,
    timeoutMs: number,
    cancel: AbortSignal | undefined,
  ): Promise<Attempt> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new NoAnswer('timeout')), timeoutMs);
    const onCancel = () => controller.abort(new NoAnswer('cancelled'));
    cancel?.addEventListener('abort', onCancel, { once: true });
    if (cancel?.aborted) onCancel();
    this.requests += 1;
    try {
      const octokit = await this.#load();
      return await send(octokit, controller.signal);
    } catch (error) {
      return toAttempt(error, controller.signal, timeoutMs);
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    }
  }

  /** The wait before another attempt, or undefined when another attempt cannot help. */
  #retryWait(last: Attempt, wallTime: number): number | undefined {
    const { status, headers } = last;
    if (status === undefined || status >= 500) return this.#limits.retryDelayMs;
    if (status !== 403 && status !== 429) return undefined;
    const retryAfter = parseRetryAfter(header(headers, 'retry-after'), wallTime);
    if (retryAfter !== undefined) return retryAfter;
    if (header(headers, 'x-ratelimit-remaining') === '0') {
      const reset = Number(header(headers, 'x-ratelimit-reset'));
      return Number.isFinite(reset) ? Math.max(0, reset * 1000 - wallTime) : undefined;
    }
    return status === 429 ? this.#limits.retryDelayMs : undefined;
  }

  #failure(
    call: string,
    last: Attempt | undefined,
    attempts: number,
    cancel: AbortSignal | undefined,
  ): CallFailure {
    if (last === undefined) {
      return {
        call,
        problem: `not sent: the ${formatDuration(this.#options.budget.totalMs)} the GitHub work of a run may take are spent`,
      };
    }
    const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
    if (last.status === undefined) {
      const why = cancel?.aborted ? 'the run was cancelled' : (last.error ?? 'no answer');
      return { call, problem: `no answer: ${why}${tries}` };
    }
    return {
      call,
      status: last.status,
      problem: `${last.status} ${githubMessage(last.data)}${tries}`,
    };
  }

  /** The one line a failed call writes: what failed, GitHub's word, and what to do. */
  #report(
    failure: CallFailure,
    purpose: string,
    permission: Permission | undefined,
    last: Attempt | undefined,
    options: CallOptions,
  ): void {
    const line = `GitHub: could not ${purpose}: ${failure.call}: ${failure.problem}.${remedy(
      failure.status,
      permission,
      last,
      this.#options.fork === true,
    )} The deploy itself is not affected.`;
    this.#say(line, options);
  }

  /** A failure's one line: a warning, a debug line once the run is cancelled, none when silent. */
  #say(line: string, options: CallOptions): void {
    if (options.silent) return;
    if (options.signal?.aborted) this.#options.logger.debug(line);
    else this.#options.logger.warning(line);
  }

  /** Validates a successful answer; a malformed one is a failure like any other. */
  #parse<S extends z.ZodType, T>(
    result: Result<Attempt>,
    schema: S,
    pick: (value: z.infer<S>) => T,
    made: string | RestCall,
    options: CallOptions,
  ): Result<T> {
    if (!result.ok) return result;
    const call = typeof made === 'string' ? made : callName(made);
    const parsed = schema.safeParse(result.value.data);
    if (parsed.success) return { ok: true, value: pick(parsed.data) };
    const path = parsed.error.issues[0]?.path.join('.') || '(the answer)';
    const failure: CallFailure = {
      call,
      status: result.value.status,
      problem: `an answer the action cannot read (${untrusted(path)})`,
    };
    this.#say(`GitHub: ${call}: ${failure.problem}. The deploy itself is not affected.`, options);
    return { ok: false, failure };
  }
}

// ---- pure helpers -------------------------------------------------------------------------------

/** Whether a `Link` header names a next page: one of its comma-separated links is `rel="next"`. */
function hasNextPage(link: string): boolean {
  return link.split(',').some((part) => /^\s*<[^>]*>\s*;\s*rel="next"/.test(part));
}

function header(headers: Attempt['headers'], name: string): string | undefined {
  const value = headers[name];
  return value === undefined ? undefined : String(value);
}

/** An Octokit answer or error as an attempt: an answer's status, or why there was none. */
function toAttempt(error: unknown, signal: AbortSignal, timeoutMs: number): Attempt {
  const response = (error as { response?: { status?: unknown; data?: unknown; headers?: unknown } })
    ?.response;
  if (response !== undefined && typeof response.status === 'number') {
    return {
      status: response.status,
      data: response.data,
      headers: (response.headers ?? {}) as Attempt['headers'],
    };
  }
  const graphqlErrors = (error as { errors?: unknown })?.errors;
  if (Array.isArray(graphqlErrors)) {
    // A GraphQL answer with errors: GitHub answered 200, but not the question.
    return { status: 400, data: graphqlErrors[0], headers: {} };
  }
  if (signal.aborted) {
    const reason = signal.reason as unknown;
    return {
      headers: {},
      error:
        reason instanceof NoAnswer && reason.message === 'cancelled'
          ? 'cancelled'
          : `timed out after ${formatDuration(timeoutMs)}`,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { headers: {}, error: untrusted(message).slice(0, 200) };
}

/** GitHub's own message (`message` of its JSON error body), on one line and short. */
function githubMessage(data: unknown): string {
  const message =
    typeof data === 'object' &&
    data !== null &&
    typeof (data as { message?: unknown }).message === 'string'
      ? (data as { message: string }).message
      : typeof data === 'string'
        ? data
        : '';
  const text = untrusted(message.trim()).slice(0, 300);
  return text === '' ? '(no message)' : text;
}

function isRateLimit(status: number | undefined, last: Attempt | undefined): boolean {
  if (status === 429) return true;
  if (status !== 403 || last === undefined) return false;
  return (
    header(last.headers, 'x-ratelimit-remaining') === '0' ||
    header(last.headers, 'retry-after') !== undefined ||
    /rate limit/i.test(githubMessage(last.data))
  );
}

/** What a person does about a failed call. */
function remedy(
  status: number | undefined,
  permission: Permission | undefined,
  last: Attempt | undefined,
  fork: boolean,
): string {
  if (status === undefined) return '';
  if (status === 401) {
    return ' Check the github-token input: GitHub does not accept this token (the default, ${{ github.token }}, always works).';
  }
  if (isRateLimit(status, last))
    return ' GitHub rate-limits this token: a later run will write it.';
  if ((status === 403 || status === 404) && fork && permission !== 'contents: read') {
    return ' This run is for a pull request from a fork: GitHub gives it a read-only token, so no permissions: line can allow this (see the README, "Forks").';
  }
  if (status === 403 && permission !== undefined) {
    return ` Add \`${permission}\` to the job's \`permissions:\` (a permissions: block grants only what it lists).`;
  }
  if (status === 404 && permission !== undefined) {
    return ` The token cannot see this repository, or lacks \`${permission}\` (a personal token needs the repo scope).`;
  }
  return '';
}
