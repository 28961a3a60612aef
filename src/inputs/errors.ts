import { ActionError } from '../common/errors.js';

export interface InputProblem {
  input: string;
  problem: string;
}

/** What is wrong with a value, not naming the input: the declared list knows it. */
export class Invalid extends Error {
  override name = 'Invalid';
}

/** An empty value where one is needed, as a secret a fork's run was not given leaves: not reported after the run's problem. */
export class EmptyValue extends Invalid {
  override name = 'EmptyValue';
}

function problemLine({ input, problem }: InputProblem): string {
  return `input '${input}': ${problem}`;
}

/** A `lead` is a problem of the run rather than of a value: the message starts with it. */
export class InputError extends ActionError {
  override name = 'InputError';
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

export function fail(message: string): never {
  throw new Invalid(message);
}
