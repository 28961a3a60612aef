/**
 * What a bad input raises: a parser's `Invalid` (what is wrong with one
 * value), turned into one `InputError` naming every bad input.
 */
import { ActionError } from '../common/errors.js';

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

/** Ends a parser with what is wrong with the value. */
export function fail(message: string): never {
  throw new Invalid(message);
}
