/**
 * The sweep step (sweep/action.yml): previews of closed pull requests (orphans) reported and
 * retired on GitHub as retire does; nothing is deleted. An entry like src/main.ts.
 */
import { COMMENT_INPUTS } from './github/inputs.js';
import { runStep } from './github/step.js';
import { sweepHooks, sweepSettings } from './github/sweep-hooks.js';
import { DASHBOARD_INPUT } from './inputs/core-inputs.js';
import { SWEEP_OWN_INPUTS, SWEEP_SERVICE_INPUTS, sweepRequest } from './inputs/sweep-inputs.js';
import { runSweep } from './run/flows/sweep-run.js';

export const SWEEP_INPUTS = {
  ...SWEEP_SERVICE_INPUTS,
  ...COMMENT_INPUTS,
  ...DASHBOARD_INPUT,
  ...SWEEP_OWN_INPUTS,
};

export function run(): Promise<void> {
  return runStep({
    inputs: SWEEP_INPUTS,
    request: (inputs) => {
      const sweep = sweepRequest(inputs);
      return { sweep, settings: sweepSettings(inputs, sweep) };
    },
    run: ({ sweep, settings }, step) => runSweep(sweep, step.io(sweepHooks(settings))),
    otherWarnings:
      "every one is in the step's log; the orphans are also in the job summary and the step's `orphans` output",
  });
}
