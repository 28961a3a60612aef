/**
 * The errors every part of the action shares. An `ActionError` is an
 * expected failure: its message is shown as it is, without a stack trace.
 * An error only one folder throws lives in that folder (inputs/errors.ts,
 * service/errors.ts, run/decisions/wait.ts).
 */
export class ActionError extends Error {
  override name = 'ActionError';
}

/** The workflow was cancelled (SIGINT/SIGTERM) while the action was running. */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
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
