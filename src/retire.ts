/**
 * The retire step (retire/action.yml): when a pull request closes, its
 * preview's GitHub deployments are marked inactive and its comment says it
 * is retired, with where to delete the deployment, which still exists in
 * the service: the action never deletes one; with a manifest (`agents`),
 * every agent's preview at once. An entry like src/main.ts.
 *
 * `run()` is what `@github/local-action` calls (`npx --yes @github/local-action retire ../src/retire.ts .env`);
 * src/index.ts runs it when the runner starts dist/retire.js.
 */
import { GITHUB_INPUTS } from './github/inputs.js';
import { retireHooks } from './github/retire-hooks.js';
import { runStep } from './github/step.js';
import { input } from './inputs/declare.js';
import { parseBoolean } from './inputs/parsers.js';
import {
  RETIRE_DASHBOARD_INPUT,
  RETIRE_SERVICE_INPUTS,
  retireRequest,
} from './inputs/retire-inputs.js';
import { runRetire } from './run/flows/retire-run.js';

/** retire/action.yml's inputs, in its order. */
export const RETIRE_INPUTS = {
  ...RETIRE_SERVICE_INPUTS,
  environment: GITHUB_INPUTS.environment,
  'github-token': GITHUB_INPUTS['github-token'],
  'pr-comment': input(parseBoolean, { default: 'true' }),
  ...RETIRE_DASHBOARD_INPUT,
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
