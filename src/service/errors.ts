/** What a failed call to the service raises. */
import { ActionError } from '../common/errors.js';

interface ServiceErrorDetails {
  method: string;
  path: string;
  /** Absent when no answer came. */
  status?: number;
  /** `503 Service Unavailable`, `connection reset`. */
  problem: string;
  /** Already redacted and shortened. */
  serviceMessage?: string;
  requestId?: string;
  remedy?: string;
  attempts?: number;
  /** It may or may not have taken effect (no answer, or a 5xx to a request not idempotent). */
  ambiguous?: boolean;
  /** Network, 408, 429, 5xx: trying again later may succeed. */
  transient?: boolean;
  retryAfterMs?: number;
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
