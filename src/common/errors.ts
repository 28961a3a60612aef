/** An expected failure: its message is shown as it is, without a stack trace. */
export class ActionError extends Error {
  override name = 'ActionError';
}

/** SIGINT/SIGTERM. */
export class CancelledError extends ActionError {
  override name = 'CancelledError';
  constructor(message = 'The run was cancelled') {
    super(message);
  }
}

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
