/**
 * Errors a workflow author is meant to read. Anything that is an `ActionError`
 * is an expected failure: its message is shown as it is, without a stack trace.
 */
export class ActionError extends Error {
  override name = 'ActionError';
}

export interface InputProblem {
  input: string;
  problem: string;
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
