/**
 * The inputs of the check of a deployment's own address: `health-check`,
 * `health-check-headers` and `health-check-expect`, read as one request, or none when
 * the check is off. Headers or an expected text without a
 * check would check nothing: an input error, before any request.
 */
import { ACTION_WORDS, type RemedyWords } from '../service/answers.js';
import type { HealthRequest } from './deploy-spec.js';
import type { InputProblem } from './errors.js';
import type { Manifest } from './manifest.js';
import { queryValues, type HealthCheck } from '../service/health-address.js';

/** The three inputs, in action.yml's order. */
export const HEALTH_INPUT_NAMES = [
  'health-check',
  'health-check-headers',
  'health-check-expect',
] as const;

/** The three inputs, parsed (core-inputs.ts declares them). */
interface HealthInputs {
  'health-check': HealthCheck | undefined;
  'health-check-headers': Record<string, string>;
  'health-check-expect': string | undefined;
}

/** The check the inputs ask for; undefined when `health-check` is empty (off). */
export function healthRequest(inputs: HealthInputs): HealthRequest | undefined {
  const check = inputs['health-check'];
  if (check === undefined) return undefined;
  const expect = inputs['health-check-expect'];
  return {
    check,
    headers: { ...inputs['health-check-headers'] },
    ...(expect === undefined ? {} : { expect }),
  };
}

/** The header values of the check and the values of its query string: never printed. */
export function healthSensitiveValues(inputs: HealthInputs): string[] {
  const check = inputs['health-check'];
  const address = check === undefined ? '' : check.kind === 'path' ? check.path : check.template;
  return [...Object.values(inputs['health-check-headers']), ...queryValues(address)];
}

/** Headers or an expected text given without a check. */
export function healthProblems(
  inputs: HealthInputs,
  { healthCheck }: Pick<RemedyWords, 'healthCheck'> = ACTION_WORDS,
): InputProblem[] {
  if (inputs['health-check'] !== undefined) return [];
  const problem = `is set but ${healthCheck} is empty: set ${healthCheck} (e.g. /ok) or remove it`;
  return [
    ...(Object.keys(inputs['health-check-headers']).length > 0
      ? [{ input: 'health-check-headers', problem }]
      : []),
    ...(inputs['health-check-expect'] === undefined
      ? []
      : [{ input: 'health-check-expect', problem }]),
  ];
}

/**
 * Headers or an expected text the step gives for a check nobody makes: neither the step
 * nor, with a manifest, any agent's entry sets `health-check` (the step's headers serve
 * the agents that do).
 */
export function unusedHealthProblems(
  inputs: HealthInputs,
  words: Pick<RemedyWords, 'healthCheck'>,
  manifest?: Manifest,
): InputProblem[] {
  const checked = manifest?.agents.some(({ entry }) => (entry['health-check'] ?? '').trim() !== '');
  return checked === true ? [] : healthProblems(inputs, words);
}
