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

/**
 * Thrown by a parser for an empty value where one is needed: what a secret
 * the run was not given leaves (a fork's run gets none), so it is not
 * reported after the problem of the run that explains it.
 */
export class EmptyValue extends Invalid {
  override name = 'EmptyValue';
}

/** Each problem as a line: `input 'name': what is wrong`. */
export function problemLine({ input, problem }: InputProblem): string {
  return `input '${input}': ${problem}`;
}

/**
 * One or more bad inputs, found before any request is sent. A `lead` is a
 * problem of the run rather than of a value (an empty api key on a fork's
 * pull request): the message starts with it, and the other problems follow.
 */
export class InputError extends ActionError {
  override name = 'InputError';
  /** Every problem, the lead first. */
  readonly problems: readonly InputProblem[];
  readonly lead: InputProblem | undefined;

  constructor(problems: readonly InputProblem[], lead?: InputProblem) {
    const lines = problems.map(problemLine);
    const list = (heading: string) =>
      `${heading}\n${lines.map((line) => `  - ${line}`).join('\n')}`;
    let message: string;
    if (lead !== undefined) {
      message = `Invalid ${problemLine(lead)}`;
      if (lines.length > 0) message += `\n${list('Other invalid inputs:')}`;
    } else {
      message = lines.length === 1 ? `Invalid ${lines[0]}` : list('Invalid inputs:');
    }
    super(message);
    this.problems = lead === undefined ? problems : [lead, ...problems];
    this.lead = lead;
  }
}

/** Ends a parser with what is wrong with the value. */
export function fail(message: string): never {
  throw new Invalid(message);
}
