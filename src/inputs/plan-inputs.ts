/** A plan never waits, targets no commit, and is a dry run: the rest of the core's inputs are fixed. */
import { input, readInputs, type InputValues } from './declare.js';
import { pick, type InputName, type ParsedInputs } from './core-inputs.js';
import { deployRequest, type DeployRequest } from './deploy-request.js';
import { InputError } from './errors.js';
import { parseOnChange, type OnChange } from './parsers.js';
import type { DeploySpec } from './deploy-spec.js';
import type { RunDescription } from './run-description.js';
import { ACCESS_INPUT_NAMES } from './service-access.js';

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

export const PLAN_SHARED_INPUTS = pick(SHARED);

export const PLAN_OWN_INPUTS = { 'on-change': input(parseOnChange, { default: 'none' }) };

export interface PlanRequest extends DeployRequest {
  onChange: OnChange;
}

type PlanInputValues = InputValues<typeof PLAN_SHARED_INPUTS> & InputValues<typeof PLAN_OWN_INPUTS>;

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
