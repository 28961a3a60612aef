/**
 * The one HTTP client of the service: every request goes through `exchange()`, one retry loop
 * for every method, and every failure becomes a `ServiceError`.
 */
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { boundedBody, ExchangeBound } from './exchange-bound.js';
import { loadUndici } from './proxy.js';
import { CancelledError } from '../common/errors.js';
import { ServiceError } from './errors.js';
import {
  addressRemedy,
  describeAnswer,
  hostAndPort,
  networkFailure,
  remedyFor,
  ACTION_WORDS,
  type RemedyWords,
  requestIdOf,
  serviceMessageOf,
} from './answers.js';
import {
  DEFAULT_RETRY_POLICY,
  delayBeforeRetry,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';
import { formatDuration, systemClock, type Clock, type Logger } from '../common/runtime.js';
import { schemaMismatch } from './issues.js';

type QueryValue = string | number | boolean | undefined;

interface RequestSpec<T> {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Sending it twice is harmless (default: GET only); else it is retried only after `reconcile`. */
  idempotent?: boolean;
  /**
   * Asked when the request may have taken effect unanswered (a dropped connection, a timeout,
   * a 5xx to a POST) or on `409 Conflict`: a value is the request's result, `undefined` that it
   * did not take effect (tried again within the same attempts). It may throw to end it.
   */
  reconcile?: (failure: ServiceError) => Promise<T | undefined>;
  /** Over the defaults. */
  remedies?: Partial<Record<number, string>>;
  /** Instead of the policy's. */
  attempts?: number;
  /** When shorter than the policy's per-request timeout. */
  timeoutMs?: number;
}

export interface Answered<T> {
  value: T;
  via: 'answer' | 'ambiguous' | 'conflict';
}

interface ClientOptions {
  baseUrl: string;
  headers: Record<string, string>;
  retry?: RetryPolicy;
  clock?: Clock;
  logger: Logger;
  signal?: AbortSignal;
  /** Removes secret values from the service's free text before it is shortened. */
  redact?: (text: string) => string;
  maxAnswerBytes?: number;
  /** Undici's global dispatcher when absent. */
  dispatcher?: Dispatcher;
  words?: RemedyWords;
}

/** Far above a page of 100 deployments (~1 MiB); an answer past it is not the service's. */
const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

interface RawAnswer {
  status: number;
  /** Larger than `maxAnswerBytes`: only the start was read. */
  oversized: boolean;
  body: Buffer;
  header: (name: string) => string | undefined;
}

export class ServiceClient {
  readonly #options: ClientOptions;
  readonly #retry: RetryPolicy;
  readonly #clock: Clock;
  readonly #redact: (text: string) => string;
  readonly #maxAnswerBytes: number;

  readonly words: RemedyWords;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.words = options.words ?? ACTION_WORDS;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#clock = options.clock ?? systemClock;
    this.#redact = options.redact ?? ((text) => text);
    this.#maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  }

  url(path: string, query: Record<string, QueryValue> = {}): string {
    const url = new URL(`${this.#options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query))
      if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    return (await this.exchange(spec)).value;
  }

  async exchange<T>(spec: RequestSpec<T>): Promise<Answered<T>> {
    const attempts = spec.attempts ?? this.#retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(spec, attempt);
      if (!(outcome instanceof ServiceError)) return { value: outcome.value, via: 'answer' };
      const conflict = outcome.status === 409;
      const { problem, retryAfterMs } = outcome.details;
      let reason = problem;
      if (spec.reconcile !== undefined && (outcome.ambiguous || conflict)) {
        const found = await spec.reconcile(outcome);
        if (found !== undefined) return { value: found, via: conflict ? 'conflict' : 'ambiguous' };
        if (conflict) throw outcome;
        reason = `it did not take effect (${reason})`;
      } else if (!outcome.transient || outcome.ambiguous) {
        throw outcome.after(attempt);
      }
      if (attempt >= attempts) throw outcome.after(attempt);
      const delayMs = delayBeforeRetry(this.#retry, attempt, retryAfterMs, this.#clock);
      this.#options.logger.warning(
        `retrying ${spec.method} ${spec.path} in ${formatDuration(delayMs)} (attempt ${attempt + 1} of ${attempts}): ${reason}`,
      );
      await this.#clock.sleep(delayMs, this.#options.signal);
    }
  }

  /** The failure as a value (thrown only on cancel). */
  async #attempt<T>(spec: RequestSpec<T>, attempt: number): Promise<{ value: T } | ServiceError> {
    const { method, path } = spec;
    const idempotent = spec.idempotent ?? method === 'GET';
    const timeoutMs = Math.min(this.#retry.requestTimeoutMs, spec.timeoutMs ?? Infinity);
    const bound = new ExchangeBound(timeoutMs, this.#options.signal);
    const started = this.#clock.now();
    let answer: RawAnswer;
    try {
      answer = await this.#send(spec, bound.signal);
    } catch (error) {
      if (bound.cancelled) throw new CancelledError();
      const { problem, reached } = networkFailure(error, bound.timedOut, timeoutMs);
      const { baseUrl } = this.#options;
      return new ServiceError({
        method,
        path,
        // Where it failed: a typo in the address shows here (host and port only).
        problem: `${problem} at ${hostAndPort(baseUrl)}`,
        remedy: addressRemedy(baseUrl, this.words, reached, this.#options.dispatcher !== undefined),
        ambiguous: reached && !idempotent,
        transient: true,
      });
    } finally {
      bound.end();
    }
    this.#options.logger.debug(
      `${method} ${path} (attempt ${attempt}): ${answer.status} in ${Math.round(this.#clock.now() - started)} ms`,
    );
    if (!answer.oversized && (answer.status < 200 || answer.status > 299))
      return this.#failure(spec, answer, idempotent);
    const parsed = this.#parse(spec, answer);
    if (typeof parsed !== 'string') return parsed;
    return new ServiceError({ method, path, status: answer.status, problem: parsed });
  }

  /**
   * undici's `request`, not `fetch`: no WHATWG streams on every answer (bench/README.md), and
   * no redirect followed (one would carry the api key elsewhere).
   */
  async #send(spec: RequestSpec<unknown>, signal: AbortSignal): Promise<RawAnswer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'deploy-agent-action',
      ...this.#options.headers,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const { request } = await loadUndici();
    const answer = await request(this.url(spec.path, spec.query), {
      method: spec.method,
      headers,
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
      signal,
      dispatcher: this.#options.dispatcher,
    });
    const { body, oversized } = await boundedBody(
      answer.body as AsyncIterable<Buffer>,
      this.#maxAnswerBytes,
    );
    return {
      status: answer.statusCode,
      oversized,
      body,
      header: (name) => {
        const value = answer.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  #failure(spec: RequestSpec<unknown>, answer: RawAnswer, idempotent: boolean): ServiceError {
    const { method, path } = spec;
    const { status } = answer;
    const retryable = isRetryableStatus(status);
    const serviceMessage = serviceMessageOf(answer.body.toString('utf8'), this.#redact);
    return new ServiceError({
      method,
      path,
      status,
      problem: `${status} ${STATUS_CODES[status] ?? 'error'}`,
      serviceMessage,
      requestId: requestIdOf(answer.header),
      remedy: retryable
        ? undefined
        : remedyFor({
            status,
            path,
            baseUrl: this.#options.baseUrl,
            location: answer.header('location'),
            serviceMessage,
            remedies: spec.remedies,
            words: this.words,
          }),
      // A 408 or 429 was refused before it was handled; a 5xx may have been handled.
      ambiguous: status >= 500 && !idempotent,
      transient: retryable,
      retryAfterMs: parseRetryAfter(answer.header('retry-after'), this.#clock.wallTime()),
    });
  }

  /** The value, or what is wrong with the answer. */
  #parse<T>(spec: RequestSpec<T>, answer: RawAnswer): { value: T } | string {
    const { status } = answer;
    if (answer.oversized) {
      const cap = `${Math.round(this.#maxAnswerBytes / 1024 / 1024)} MiB`;
      return `${status} answer is larger than ${cap}; stopped reading it (is ${this.words.apiUrl} the service?)`;
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch (error) {
      // Never echoed: a listing carries other deployments' secrets, which no mask covers.
      const what = describeAnswer(answer.body, answer.header('content-type'), error);
      return `${status} answer is not JSON (${what})`;
    }
    const parsed = spec.schema.safeParse(json);
    return parsed.success
      ? { value: parsed.data }
      : `${status} answer ${schemaMismatch(parsed.error)}`;
  }
}
