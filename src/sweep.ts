/**
 * The sweep step (sweep/action.yml): on a schedule, the previews whose
 * pull request is closed or merged (orphans) found through the service's
 * listing and GitHub's pull request states, reported loudly, and retired on
 * GitHub as retire does; nothing is deleted, and a second sweep writes
 * nothing. An entry like src/main.ts.
 *
 * `run()` is what `@github/local-action` calls (`npx --yes @github/local-action sweep ../src/sweep.ts .env`);
 * src/index.ts runs it when the runner starts dist/sweep.js.
 */
import { GITHUB_INPUTS } from './github/inputs.js';
import { runStep } from './github/step.js';
import { sweepHooks, sweepSettings } from './github/sweep-hooks.js';
import { input } from './inputs/declare.js';
import { parseBoolean } from './inputs/parsers.js';
import {
  SWEEP_DASHBOARD_INPUT,
  SWEEP_OWN_INPUTS,
  SWEEP_SERVICE_INPUTS,
  sweepRequest,
} from './inputs/sweep-inputs.js';
import { runSweep } from './run/flows/sweep-run.js';

/** sweep/action.yml's inputs, in its order. */
export const SWEEP_INPUTS = {
  ...SWEEP_SERVICE_INPUTS,
  'github-token': GITHUB_INPUTS['github-token'],
  'pr-comment': input(parseBoolean, { default: 'true' }),
  ...SWEEP_DASHBOARD_INPUT,
  ...SWEEP_OWN_INPUTS,
};

export function run(): Promise<void> {
  return runStep({
    inputs: SWEEP_INPUTS,
    request: (inputs) => {
      const sweep = sweepRequest(inputs);
      // Each orphan's environment comes from environment-pattern.
      return { sweep, settings: sweepSettings(inputs, sweep) };
    },
    run: ({ sweep, settings }, step) => runSweep(sweep, step.io(sweepHooks(settings))),
    otherWarnings:
      "every one is in the step's log; the orphans are also in the job summary and the step's `orphans` output",
  });
}
