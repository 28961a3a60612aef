/**
 * The plan step's inputs (plan/action.yml): the deploy step's inputs
 * that describe the deployment or reach the service (a manifest of agents,
 * `agents`, among them), and `on-change`. The
 * GitHub ones (`github-token`, `pr-comment` defaulting to `true`) are the
 * GitHub adapter's to add. The rest of the core's inputs are fixed: a plan
 * never waits, targets no commit, and is a dry run.
 */
import { input, readInputs, type InputValues } from './declare.js';
import { pick, type InputName, type ParsedInputs } from './core-inputs.js';
import { deployRequest, type DeployRequest } from './deploy-request.js';
import { InputError } from './errors.js';
import { parseOnChange, type OnChange } from './parsers.js';
import type { DeploySpec } from './deploy-spec.js';
import type { RunDescription } from './run-description.js';
import { ACCESS_INPUT_NAMES } from './service-access.js';

/** The core's inputs a plan takes, in plan/action.yml's order. */
const SHARED = [
  ...ACCESS_INPUT_NAMES,
  'name',
  'agents',
  'source',
  'config',
  'integration-id',
  'repository',
  'repo-ref',
  'agent-config-path',
  'image-uri',
  'secrets',
  'dashboard-url',
] as const satisfies readonly InputName[];

/** The core's inputs a plan does not take, and the text each reads as. */
const FIXED = {
  'wait-for-ready': 'false',
  'wait-timeout': '900',
  'health-check': '',
  'health-check-headers': '',
  'health-check-expect': '',
  commit: 'none',
  'on-drift': 'warn',
  'dry-run': 'true',
} as const satisfies Record<Exclude<InputName, (typeof SHARED)[number]>, string>;

/** The core's inputs a plan shares with the deploy step, in plan/action.yml's order. */
export const PLAN_SHARED_INPUTS = pick(SHARED);

/** The plan's own: `on-change`. */
export const PLAN_OWN_INPUTS = { 'on-change': input(parseOnChange, { default: 'none' }) };

/** The plan of every agent of a manifest (or of one deployment), each as the deploy step would run it. */
export interface PlanRequest extends DeployRequest {
  onChange: OnChange;
}

type PlanInputValues = InputValues<typeof PLAN_SHARED_INPUTS> & InputValues<typeof PLAN_OWN_INPUTS>;

/**
 * The plan the deploy step would run with these inputs, checked against
 * each other before any request: with `agents`, every agent's (`name`
 * empty or a template holding `{agent}`), else the one deployment's.
 */
export function planAsked(inputs: PlanInputValues, run: RunDescription): PlanRequest {
  const fixed = readInputs(
    pick(Object.keys(FIXED) as (keyof typeof FIXED)[]),
    (name) => FIXED[name],
    run,
  );
  const { 'on-change': onChange, ...shared } = inputs;
  const core: ParsedInputs = { ...fixed, ...shared };
  return { ...deployRequest(core, run), onChange };
}

/** The plan of one deployment these inputs ask for; a manifest is `planAsked`'s. */
export function planRequest(
  inputs: PlanInputValues,
  run: RunDescription,
): { spec: DeploySpec; onChange: OnChange } {
  const { layout, agents, onChange } = planAsked(inputs, run);
  const [one] = agents;
  if (layout === 'flat' && one !== undefined) return { spec: one.spec, onChange };
  throw new InputError([
    { input: 'agents', problem: 'plans several agents: this plan takes one deployment' },
  ]);
}
