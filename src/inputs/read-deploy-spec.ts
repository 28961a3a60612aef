/**
 * The core's inputs read into one typed deploy spec. Nothing here sends a request:
 * a bad input fails the step before the first one.
 *
 * The inputs, their parsers and defaults are listed in declared.ts and read
 * by declare.ts's one reader; the spec is assembled, and the inputs checked
 * against each other, in build-deploy-spec.ts; its types are in deploy-spec.ts.
 */
import { readInputs, type InputReader } from './declare.js';
import { INPUTS, type InputName } from './core-inputs.js';
import { buildDeploySpec } from './build-deploy-spec.js';
import type { DeploySpec } from './deploy-spec.js';
import type { RunDescription } from './run-description.js';

/**
 * Reads and validates every core input. Throws an `InputError` naming each
 * bad one: first every input that is wrong on its own, else every input
 * that does not fit the others.
 */
export function readDeploySpec(read: InputReader<InputName>, run: RunDescription): DeploySpec {
  return buildDeploySpec(readInputs(INPUTS, read, run), run);
}
