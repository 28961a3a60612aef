/**
 * The one HTTP client of the service. Every request goes through `request()`,
 * which sets the headers and the per-request timeout, retries what is safe to
 * retry, validates the answer against its schema, and turns every failure
 * into a `ServiceError` that names the call, the status and the service's
 * own message.
 */
import { STATUS_CODES } from 'node:http';
import { request as undiciRequest } from 'undici';
import type { z } from 'zod';
import { ActionError, CancelledError } from './errors.js';
import { ErrorBodySchema, formatZodIssues } from './schemas.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with a `CancelledError` when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** A number in [0, 1), for jitter. */
  random(): number;
}

export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

export interface RetryPolicy {
  /** Attempts per request, the first one included. */
  attempts: number;
  /** Backoff before the second attempt; doubles with each further one. */
  initialDelayMs: number;
  /** The longest backoff between two attempts. */
  maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer one is cut to this. */
  maxRetryAfterMs: number;
  /** How long one attempt may take, answer body included. */
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 5,
  initialDelayMs: 1_000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  requestTimeoutMs: 30_000,
};

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new CancelledError('The run was cancelled'));
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError('The run was cancelled'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface ServiceErrorDetails {
  method: string;
  path: string;
  /** HTTP status, absent when no answer came (network error, timeout). */
  status?: number;
  /** What went wrong, e.g. `503 Service Unavailable` or `connection reset`. */
  problem: string;
  /** The service's own message, when it gave one. */
  serviceMessage?: string;
  requestId?: string;
  /** What the user can do about it. */
  remedy?: string;
  attempts?: number;
  /**
   * The request may or may not have taken effect (no answer, or a 5xx to a
   * request that is not idempotent).
   */
  ambiguous?: boolean;
  /** A transient failure (network, 408, 429, 5xx): trying again later may succeed. */
  transient?: boolean;
}

export class ServiceError extends ActionError {
  override name = 'ServiceError';
  readonly details: ServiceErrorDetails;

  constructor(details: ServiceErrorDetails) {
    super(ServiceError.format(details));
    this.details = details;
  }

  get status(): number | undefined {
    return this.details.status;
  }

  get ambiguous(): boolean {
    return this.details.ambiguous === true;
  }

  get transient(): boolean {
    return this.details.transient === true;
  }

  static format(details: ServiceErrorDetails): string {
    const { method, path, problem, serviceMessage, requestId, remedy, attempts } = details;
    const tries = attempts !== undefined && attempts > 1 ? ` after ${attempts} attempts` : '';
    let message = `${method} ${path} failed${tries}: ${problem}`;
    if (serviceMessage !== undefined && serviceMessage !== '') {
      message += serviceMessage.includes('\n')
        ? `:\n${serviceMessage}`
        : ` (service said: ${serviceMessage})`;
    }
    if (remedy !== undefined) message += `\n${remedy}`;
    if (requestId !== undefined) message += `\nrequest id: ${requestId}`;
    return message;
  }
}

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** The path below the base address, e.g. `/v2/deployments`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: z.ZodType<T>;
  /**
   * Whether sending it twice is harmless. Not idempotent (a POST): a failure
   * after it may have reached the service is not retried but thrown as
   * ambiguous, for the caller to check what happened.
   */
  idempotent?: boolean;
  /** Remedies for statuses, in addition to the defaults. */
  remedies?: Partial<Record<number, string>>;
  /** Attempts for this request, instead of the policy's. */
  attempts?: number;
  /** How long this request may take, when shorter than the policy's per-request timeout. */
  timeoutMs?: number;
}

export interface ClientOptions {
  baseUrl: string;
  headers: Record<string, string>;
  retry?: RetryPolicy;
  clock?: Clock;
  logger: Logger;
  /** Aborts every request and wait when the run is cancelled. */
  signal?: AbortSignal;
  userAgent?: string;
}

const DEFAULT_REMEDIES: Partial<Record<number, string>> = {
  401: 'Check the api-key input (and api-key-header, if the service expects another header).',
  403: 'The api key lacks access: check its permissions and workspace, or pass the workspace/tenant header with the headers input.',
  404: 'Check api-url: the service has no such endpoint or resource.',
};

/** A redirect means api-url is not the service's base address. */
function redirectRemedy(location: string | undefined): string {
  return `Check api-url: the service redirected${location ? ` to ${location}` : ''}, and the action does not follow redirects (they would carry the api key elsewhere).`;
}

const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-correlation-id', 'x-amzn-requestid'];
const EXCERPT_LENGTH = 200;

/** A short, single-line excerpt of a text body (tags of an HTML page dropped). */
export function excerpt(text: string): string {
  const plain = /<[a-z!/][^>]*>/i.test(text)
    ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ')
    : text;
  const line = plain.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

/** The service's own message: `detail` (a string or a list of field errors), `message` or `error`. */
export function serviceMessageOf(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return excerpt(text);
  }
  const parsed = ErrorBodySchema.safeParse(json);
  if (!parsed.success) return excerpt(text);
  const { detail, message, error } = parsed.data;
  if (Array.isArray(detail)) {
    return detail
      .map((entry) => {
        const location = entry.loc.map(String).join('.');
        return location === '' ? entry.msg : `  ${location}: ${entry.msg}`;
      })
      .join('\n');
  }
  for (const candidate of [detail, message, error]) {
    if (typeof candidate === 'string' && candidate !== '') return excerpt(candidate);
  }
  return excerpt(text);
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** How an attempt without an answer failed, in words, and whether it may have reached the service. */
function describeNetworkError(error: unknown, timedOut: boolean, timeoutMs: number) {
  if (timedOut) return { problem: `no answer within ${timeoutMs / 1000} s`, reached: true };
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    UND_ERR_SOCKET: 'connection closed before an answer',
    ETIMEDOUT: 'connection timed out',
  };
  const text = words[code] ?? (cause instanceof Error ? cause.message : 'network error');
  // A refused connection or a failed look-up never reached the service.
  const reached = !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code);
  return { problem: code !== '' ? `${text} (${code})` : text, reached };
}

/** `1.5 s`: how delays are written in the log. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** An answer, body read, before it is judged. */
interface RawAnswer {
  status: number;
  text: string;
  header(name: string): string | undefined;
}

/**
 * One HTTP exchange. undici's `request` rather than `fetch`: it is the same
 * connection pool, without the WHATWG streams on every answer (bench/), and
 * it follows no redirect (one would carry the api key to another address).
 */
async function send(
  url: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<RawAnswer> {
  const answer = await undiciRequest(url, { method, headers, body, signal });
  const text = await answer.body.text();
  return {
    status: answer.statusCode,
    text,
    header: (name) => {
      const value = answer.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

interface Attempt {
  /** The error to throw if this is the last attempt. */
  error: ServiceError;
  retryable: boolean;
  retryAfterMs?: number;
}

export class ServiceClient {
  readonly #options: ClientOptions;
  readonly #retry: RetryPolicy;
  readonly #clock: Clock;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.#clock = options.clock ?? systemClock;
  }

  url(path: string, query: Record<string, QueryValue> = {}): string {
    const url = new URL(`${this.#options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const idempotent = spec.idempotent ?? spec.method === 'GET';
    const attempts = spec.attempts ?? this.#retry.attempts;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(spec, idempotent, attempt);
      if (!('error' in outcome)) return outcome.value;
      const { error, retryable, retryAfterMs } = outcome;
      if (!retryable || attempt >= attempts) {
        if (attempt > 1) throw new ServiceError({ ...error.details, attempts: attempt });
        throw error;
      }
      const delayMs = this.delayBeforeRetry(attempt, retryAfterMs);
      this.#options.logger.warning(
        `retrying ${spec.method} ${spec.path} in ${seconds(delayMs)} (attempt ${attempt + 1} of ${attempts}): ${error.details.problem}`,
      );
      await this.#clock.sleep(delayMs, this.#options.signal);
    }
  }

  get retryPolicy(): RetryPolicy {
    return this.#retry;
  }

  /** The backoff after failed attempt number `attempt` (1-based), or the service's `Retry-After`, capped. */
  delayBeforeRetry(attempt: number, retryAfterMs?: number): number {
    const { initialDelayMs, maxDelayMs, maxRetryAfterMs } = this.#retry;
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, maxRetryAfterMs);
    const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
    return Math.round(backoff / 2 + (backoff / 2) * this.#clock.random());
  }

  async #attempt<T>(
    spec: RequestSpec<T>,
    idempotent: boolean,
    attempt: number,
  ): Promise<{ value: T } | Attempt> {
    const { method, path } = spec;
    const cancel = this.#options.signal;
    if (cancel?.aborted) throw new CancelledError('The run was cancelled');
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#options.userAgent ?? 'deploy-agent-action',
      ...this.#options.headers,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const timeoutMs = Math.min(this.#retry.requestTimeoutMs, spec.timeoutMs ?? Infinity);
    // One controller, aborted by the per-request timeout or by the run's cancellation.
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const onCancel = () => abort.abort();
    cancel?.addEventListener('abort', onCancel, { once: true });
    const started = this.#clock.now();
    let response: RawAnswer;
    try {
      response = await send(this.url(path, spec.query), method, headers, body, abort.signal);
    } catch (error) {
      if (cancel?.aborted) throw new CancelledError('The run was cancelled');
      const { problem, reached } = describeNetworkError(error, timedOut, timeoutMs);
      const ambiguous = reached && !idempotent;
      return {
        error: new ServiceError({ method, path, problem, ambiguous, transient: true }),
        retryable: !ambiguous,
      };
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    }
    const { status, text } = response;
    this.#options.logger.debug(
      `${method} ${path} (attempt ${attempt}): ${status} in ${this.#clock.now() - started} ms`,
    );

    if (status < 200 || status > 299) {
      const requestId = REQUEST_ID_HEADERS.map((name) => response.header(name)).find(
        (value) => value !== undefined && value !== '',
      );
      const retryable = isRetryableStatus(status);
      // A 408 or 429 was refused before it was handled; a 5xx may have been handled.
      const ambiguous = status >= 500 && !idempotent;
      const error = new ServiceError({
        method,
        path,
        status,
        problem: `${status} ${STATUS_CODES[status] ?? 'error'}`,
        serviceMessage: serviceMessageOf(text),
        requestId,
        remedy:
          status >= 300 && status < 400
            ? redirectRemedy(response.header('location'))
            : retryable
              ? undefined
              : { ...DEFAULT_REMEDIES, ...spec.remedies }[status],
        ambiguous,
        transient: retryable,
      });
      return {
        error,
        retryable: retryable && !ambiguous,
        retryAfterMs: parseRetryAfter(response.header('retry-after'), this.#clock.now()),
      };
    }

    const fail = (problem: string): never => {
      throw new ServiceError({ method, path, status, problem });
    };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const type = response.header('content-type') ?? 'no content type';
      return fail(
        `${status} answer is not JSON (${type})${text.trim() === '' ? ', empty body' : `: ${excerpt(text)}`}`,
      );
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      const issues = formatZodIssues(parsed.error);
      const shown = issues.slice(0, 5).join('; ');
      const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
      return fail(`${status} answer does not match the service's schema: ${shown}${more}`);
    }
    return { value: parsed.data };
  }
}
