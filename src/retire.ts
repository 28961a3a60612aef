/** The retire step (retire/action.yml): a closed pull request's previews marked inactive on GitHub, never deleted. An entry like src/main.ts. */
import { COMMENT_INPUTS, GITHUB_INPUTS } from './github/inputs.js';
import { retireHooks } from './github/retire-hooks.js';
import { runStep } from './github/step.js';
import { DASHBOARD_INPUT } from './inputs/core-inputs.js';
import { RETIRE_SERVICE_INPUTS, retireRequest } from './inputs/retire-inputs.js';
import { runRetire } from './run/flows/retire-run.js';

export const RETIRE_INPUTS = {
  ...RETIRE_SERVICE_INPUTS,
  environment: GITHUB_INPUTS.environment,
  ...COMMENT_INPUTS,
  ...DASHBOARD_INPUT,
};

export function run(): Promise<void> {
  return runStep({
    inputs: RETIRE_INPUTS,
    request: (inputs) => ({
      retire: retireRequest(inputs),
      settings: {
        token: inputs['github-token'],
        environment: inputs.environment,
        comment: inputs['pr-comment'],
      },
    }),
    run: ({ retire, settings }, step) => runRetire(retire, step.io(retireHooks(settings, retire))),
    otherWarnings: "every one is in the step's log",
  });
}
