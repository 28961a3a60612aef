/**
 * What a request to the service is (the service module spells each one) and
 * what the one client (client.ts) is given and gives back.
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock, Logger } from '../common/runtime.js';
import type { RemedyWords } from './answers.js';
import type { ServiceError } from './errors.js';
import type { RetryPolicy } from './retry.js';

export type QueryValue = string | number | boolean | undefined;

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** The path below the base address, as the service module spells it. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: z.ZodType<T>;
  /**
   * Whether sending it twice is harmless (default: GET only). A request that
   * is not idempotent is retried only after `reconcile` found that it did
   * not take effect.
   */
  idempotent?: boolean;
  /**
   * Asked when the request may have taken effect without an answer saying so
   * (a dropped connection, a timeout or a 5xx to a POST), or when the service
   * answered `409 Conflict`: finds the effect. A value is the request's result;
   * `undefined` means it did not take effect, and the request is tried again
   * within the same attempts. It may throw to end the request.
   */
  reconcile?: (failure: ServiceError) => Promise<T | undefined>;
  /** Remedies for statuses, in addition to the defaults. */
  remedies?: Partial<Record<number, string>>;
  /** Attempts for this request, instead of the policy's. */
  attempts?: number;
  /** How long this request may take, when shorter than the policy's per-request timeout. */
  timeoutMs?: number;
}

/** How a request ended well: with its own answer, or through the reconcile hook. */
export interface Answered<T> {
  value: T;
  via: 'answer' | 'ambiguous' | 'conflict';
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
  /** Removes secret values from the service's free text before it is shortened. */
  redact?: (text: string) => string;
  maxAnswerBytes?: number;
  /** Where connections go: a proxy agent, or undici's global dispatcher when absent. */
  dispatcher?: Dispatcher;
  /** How the entry names the key, headers and ids a remedy points to; the action's inputs when absent. */
  words?: RemedyWords;
}
