/**
 * The deploy step (action.yml). An entry (a sub-action) is this much: its action.yml's inputs,
 * what they ask for, the core run and the GitHub hooks it passes in; src/github/step.ts does the
 * rest. `run()` is where `@github/local-action` looks (`npx local-action . src/main.ts .env`).
 */
import { deployHooks, manifestOnGitHub } from './github/deploy-hooks.js';
import { GITHUB_INPUTS, gitHubSettings } from './github/inputs.js';
import { runStep } from './github/step.js';
import { deployRequest } from './inputs/deploy-request.js';
import { INPUTS } from './inputs/core-inputs.js';
import { runDeploy } from './run/flows/deploy-run.js';

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
