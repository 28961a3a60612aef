/** The plan step (plan/action.yml): what the deploy step would do, read-only. An entry like src/main.ts. */
import { manifestOnGitHub } from './github/deploy-hooks.js';
import { COMMENT_INPUTS } from './github/inputs.js';
import { planHooks } from './github/plan-hooks.js';
import { runStep } from './github/step.js';
import { PLAN_OWN_INPUTS, PLAN_SHARED_INPUTS, planAsked } from './inputs/plan-inputs.js';
import { runPlan } from './run/flows/plan-run.js';

export const PLAN_INPUTS = {
  ...PLAN_SHARED_INPUTS,
  ...COMMENT_INPUTS,
  ...PLAN_OWN_INPUTS,
};

export function run(): Promise<void> {
  return runStep({
    inputs: PLAN_INPUTS,
    request: (inputs, run) => ({
      asked: planAsked(inputs, run),
      settings: { token: inputs['github-token'], comment: inputs['pr-comment'] },
    }),
    run: ({ asked, settings }, step) =>
      runPlan(asked, step.io(planHooks(settings, manifestOnGitHub(asked)))),
    otherWarnings: "every one is in the step's log",
  });
}
