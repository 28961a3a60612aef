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
import { buildDeploySpec } from './inputs/build-deploy-spec.js';
import { buildAgentsRequest } from './inputs/agents-request.js';
import { INPUTS } from './inputs/core-inputs.js';
import { deployAgents } from './run/flows/agents-run.js';
import { pipeline } from './run/flows/pipeline.js';

/** action.yml's inputs, in its order. */
export const DEPLOY_INPUTS = { ...INPUTS, ...GITHUB_INPUTS };

export function run(): Promise<void> {
  return runStep({
    inputs: DEPLOY_INPUTS,
    request: (inputs, run) => ({
      asked:
        inputs.agents === undefined
          ? ({ kind: 'one', spec: buildDeploySpec(inputs, run) } as const)
          : ({ kind: 'agents', agents: buildAgentsRequest(inputs, run) } as const),
      settings: gitHubSettings(inputs),
    }),
    run: ({ asked, settings }, step) =>
      asked.kind === 'one'
        ? pipeline(asked.spec, step.io(deployHooks(settings)))
        : deployAgents(
            asked.agents,
            step.io(deployHooks(settings, manifestOnGitHub(asked.agents))),
          ),
  });
}
