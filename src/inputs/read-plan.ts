/**
 * Every input of action.yml is read here, once, into one typed plan. Nothing
 * here sends a request: a bad input fails the step before the first one.
 *
 * The inputs, their parsers and defaults are listed in declared.ts; the plan
 * is assembled, and the inputs checked against each other, in build-plan.ts;
 * its types are in plan.ts.
 */
import { INPUT_NAMES, defaultText, inputsSchema, type InputName } from './declared.js';
import { InputError } from './errors.js';
import { buildPlan } from './build-plan.js';
import type { Plan } from './plan.js';
import type { RunDescription } from './run-description.js';

/**
 * Reads one input as `core.getInput` does: trimmed, `''` when given empty.
 * Undefined when the input is not given at all: its declared default is
 * used. (On GitHub the runner has already applied action.yml's defaults.)
 */
export type InputReader = (name: InputName) => string | undefined;

/**
 * Reads and validates every input. Throws an `InputError` naming each bad
 * one: first every input that is wrong on its own, else every input that
 * does not fit the others.
 */
export function readPlan(read: InputReader, run: RunDescription): Plan {
  const raw = Object.fromEntries(
    INPUT_NAMES.map((name) => [name, read(name) ?? defaultText(name, run)]),
  );
  const result = inputsSchema(run).safeParse(raw);
  if (!result.success) {
    throw new InputError(
      result.error.issues.map((issue) => ({
        input: String(issue.path[0] ?? 'inputs'),
        problem: issue.message,
      })),
    );
  }
  return buildPlan(result.data, run);
}
