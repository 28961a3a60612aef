/**
 * The one request loop of every GitHub call: at most `attempts` within
 * `callMs` and the run's budget; the caller gets a `Result`, never an
 * exception. Octokit is a dynamic import kept in dist/index.js
 * (`webpackMode: "eager"`: one file, so ncc's licenses.txt stays whole),
 * evaluated on the first call only.
 */
import type { getOctokit } from '@actions/github';
import type { z } from 'zod';
import { parseRetryAfter } from '../../service/retry.js';
import { untrusted, type Clock, type Logger } from '../../common/runtime.js';
import { withoutTrailingSlashes } from '../../common/text.js';
import type { Budget } from './budget.js';
import { header, NoAnswer, toAttempt, type Attempt } from './attempt.js';
import { callFailure, failureLine, type CallFailure } from './failures.js';
import { callName, ROUTES, type Permission, type RestCall } from './routes.js';

type Octokit = ReturnType<typeof getOctokit>;

interface CallLimits {
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

export interface GitHubApiOptions {
  token: string;
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

export type Result<T> = { ok: true; value: T } | { ok: false; failure: CallFailure };

export interface CallOptions {
  /** No line at all: the caller reports the failure itself (the core's commit-order debug line). */
  silent?: boolean;
  /** Ends the call early (a cancelled run); the failure is then one debug line. */
  signal?: AbortSignal;
  /** A shorter window than the call's usual one (the last status of a cancelled run). */
  callMs?: number;
}

export class GitHubCalls {
  readonly #options: GitHubApiOptions;
  readonly #limits: CallLimits;
  #octokit: Promise<Octokit> | undefined;
  /** Requests sent, every attempt counted (the bench reports it). */
  requests = 0;

  constructor(options: GitHubApiOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

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

  rest(call: RestCall, options: CallOptions): Promise<Result<Attempt>> {
    const { purpose, permission } = ROUTES[call.route] ?? { purpose: 'call GitHub' };
    return this.call(callName(call), purpose, permission, options, (octokit, signal) =>
      octokit.request(call.route, { ...call.parameters, request: { signal } }),
    );
  }

  /**
   * At most `attempts` attempts within `callMs` and the run's budget. A
   * retry follows no answer, a 5xx, or a rate limit whose wait fits.
   */
  async call(
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
    const failure = callFailure(call, last, attempts, options.signal, budget.totalMs);
    this.#say(
      failureLine(failure, purpose, permission, last, this.#options.fork === true),
      options,
    );
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

  #say(line: string, options: CallOptions): void {
    if (options.silent) return;
    if (options.signal?.aborted) this.#options.logger.debug(line);
    else this.#options.logger.warning(line);
  }

  /** Validates a successful answer; a malformed one is a failure like any other. */
  parse<S extends z.ZodType, T>(
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
    const problem = `an answer the action cannot read (${untrusted(path)})`;
    const failure: CallFailure = { call, status: result.value.status, problem };
    this.#say(`GitHub: ${call}: ${problem}. The deploy itself is not affected.`, options);
    return { ok: false, failure };
  }
}
