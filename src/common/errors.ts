/**
 * Every error the action throws on purpose. An `ActionError` is an expected
 * failure: its message is shown as it is, without a stack trace.
 */
import type { Deployment } from '../service/schemas.js';

export class ActionError extends Error {
  override name = 'ActionError';
}

export interface InputProblem {
  input: string;
  problem: string;
}

/**
 * Thrown by an input's parser: what is wrong with the value, without naming
 * the input (the declared list knows which input it parses, and turns it
 * into an `InputError`).
 */
export class Invalid extends Error {
  override name = 'Invalid';
}

/** One or more bad inputs, found before any request is sent. */
export class InputError extends ActionError {
  override name = 'InputError';
  readonly problems: readonly InputProblem[];

  constructor(problems: readonly InputProblem[]) {
    const lines = problems.map(({ input, problem }) => `input '${input}': ${problem}`);
    super(
      lines.length === 1
        ? `Invalid ${lines[0]}`
        : `Invalid inputs:\n${lines.map((line) => `  - ${line}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

/** The workflow was cancelled (SIGINT/SIGTERM) while the action was running. */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
}

export interface ServiceErrorDetails {
  method: string;
  path: string;
  /** HTTP status, absent when no answer came (network error, timeout). */
  status?: number;
  /** What went wrong, e.g. `503 Service Unavailable` or `connection reset`. */
  problem: string;
  /** The service's own message, already redacted and shortened, when it gave one. */
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
  /** The service's `Retry-After`, in milliseconds, when it sent one. */
  retryAfterMs?: number;
}

/** A call to the service failed: names the call, the status and the service's message. */
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

  /** The same failure, counted over `attempts`. */
  after(attempts: number): ServiceError {
    return attempts > 1 ? new ServiceError({ ...this.details, attempts }) : this;
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

/** A wait ended without the deployment being live; carries the last deployment seen. */
export class WaitError extends ActionError {
  override name = 'WaitError';
  readonly deployment: Deployment;

  constructor(message: string, deployment: Deployment) {
    super(message);
    this.deployment = deployment;
  }
}

/** Turns any thrown value into one readable sentence. */
export function describeError(error: unknown): string {
  if (error instanceof ActionError) return error.message;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `Unexpected error: ${error.message}${cause}`;
  }
  if (typeof error === 'string') return `Unexpected error: ${error}`;
  try {
    return `Unexpected error: ${JSON.stringify(error)}`;
  } catch {
    return `Unexpected error: ${String(error)}`;
  }
}
