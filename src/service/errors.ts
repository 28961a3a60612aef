/** What a failed call to the service raises. */
import { ActionError } from '../common/errors.js';

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
