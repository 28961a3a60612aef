/**
 * The deploy step (action.yml): find or create the deployment, wait if
 * asked, report. An entry of the action is this much: the inputs its
 * action.yml declares (the core's and its own), what they ask for, the core
 * run that does it and the GitHub hooks it passes in (its record, its
 * comment, the commit order); src/github/step.ts does the rest on the runner.
 * A new entry (a sub-action) is a file like this one.
 *
 * `run()` is where GitHub's `@github/local-action` looks for it
 * (`npx local-action . src/main.ts .env`); src/index.ts runs it.
 */
import { deployHooks, manifestOnGitHub } from './github/deploy-hooks.js';
import { GITHUB_INPUTS, gitHubSettings } from './github/inputs.js';
import { runStep } from './github/step.js';
import { deployRequest } from './inputs/deploy-request.js';
import { INPUTS } from './inputs/core-inputs.js';
import { runDeploy } from './run/flows/deploy-run.js';

/** action.yml's inputs, in its order. */
export const DEPLOY_INPUTS = { ...INPUTS, ...GITHUB_INPUTS };

export function run(): Promise<void> {
  return runStep({
    inputs: DEPLOY_INPUTS,
    request: (inputs, run) => ({
      asked: deployRequest(inputs, run),
      settings: gitHubSettings(inputs),
    }),
    run: ({ asked, settings }, step) =>
      runDeploy(asked, step.io(deployHooks(settings, manifestOnGitHub(asked)))),
  });
}
