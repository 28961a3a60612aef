/**
 * Every input of action.yml is read here, once, into one typed plan. Nothing
 * here sends a request: a bad input fails the step before the first one.
 *
 * The inputs and their parsers are listed in src/declared-inputs.ts; the plan
 * is assembled, and the inputs checked against each other, in
 * src/plan-builder.ts; its types are in src/plan.ts.
 */
import { INPUT_NAMES, inputsSchema, type InputName } from './declared.js';
import { InputError } from './errors.js';
import { buildPlan } from './build-plan.js';
import type { Plan, RunEnvironment } from './plan.js';

/** Reads one input as `core.getInput` does: trimmed, `''` when not given. */
export type InputReader = (name: InputName) => string;

/**
 * Reads and validates every input. Throws an `InputError` naming each bad
 * one: first every input that is wrong on its own, else every input that
 * does not fit the others.
 */
export function readPlan(read: InputReader, environment: RunEnvironment): Plan {
  const raw = Object.fromEntries(INPUT_NAMES.map((name) => [name, read(name)]));
  const result = inputsSchema(environment).safeParse(raw);
  if (!result.success) {
    throw new InputError(
      result.error.issues.map((issue) => ({
        input: String(issue.path[0] ?? 'inputs'),
        problem: issue.message,
      })),
    );
  }
  return buildPlan(result.data, environment);
}
