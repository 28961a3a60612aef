/**
 * The core's inputs read into one typed plan. Nothing here sends a request:
 * a bad input fails the step before the first one.
 *
 * The inputs, their parsers and defaults are listed in declared.ts and read
 * by declare.ts's one reader; the plan is assembled, and the inputs checked
 * against each other, in build-plan.ts; its types are in plan.ts.
 */
import { readInputs, type InputReader } from './declare.js';
import { INPUTS, type InputName } from './declared.js';
import { buildPlan } from './build-plan.js';
import type { Plan } from './plan.js';
import type { RunDescription } from './run-description.js';

/**
 * Reads and validates every core input. Throws an `InputError` naming each
 * bad one: first every input that is wrong on its own, else every input
 * that does not fit the others.
 */
export function readPlan(read: InputReader<InputName>, run: RunDescription): Plan {
  return buildPlan(readInputs(INPUTS, read, run), run);
}
