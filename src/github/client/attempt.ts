/** One attempt of a GitHub call: GitHub's answer, or why there was none. */
import { formatDuration, untrusted } from '../../common/runtime.js';

export interface Attempt {
  status?: number;
  data?: unknown;
  headers: Record<string, string | number | undefined>;
  error?: string;
  /** GitHub answered that the request itself is invalid (a GraphQL query it would not run). */
  invalid?: boolean;
}

export class NoAnswer extends Error {}

export function header(headers: Attempt['headers'], name: string): string | undefined {
  const value = headers[name];
  return value === undefined ? undefined : String(value);
}

export function toAttempt(error: unknown, signal: AbortSignal, timeoutMs: number): Attempt {
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
