/**
 * How a step reaches the service, from the inputs every entry shares
 * (`api-url`, `api-key`, `api-key-header`, `headers`): the base address, the
 * headers sent with each request, the values never to print, and the
 * problems of inputs that do not go together (a header that would replace
 * the key's). An empty key on a fork's pull request is the run's problem,
 * found before the inputs are parsed (fork.ts).
 */
import type { InputName, ParsedInputs } from './core-inputs.js';
import { InputError, type InputProblem } from './errors.js';

/** The inputs that say where the service is and how to sign in, in action.yml's order. */
export const ACCESS_INPUT_NAMES = [
  'api-url',
  'api-key',
  'api-key-header',
  'headers',
] as const satisfies readonly InputName[];

export type AccessInputs = Pick<ParsedInputs, (typeof ACCESS_INPUT_NAMES)[number]>;

export interface ServiceAccess {
  /** Base address without a trailing slash. */
  apiUrl: string;
  /** Every header sent with each request: the api key and the extra headers. */
  headers: Record<string, string>;
  /** The key and the header values: never printed. */
  sensitiveValues: string[];
}

/** The extra headers, and the api key under `api-key-header` when one is given. */
export function serviceAccess(inputs: AccessInputs): ServiceAccess {
  const apiKey = inputs['api-key'];
  return {
    apiUrl: inputs['api-url'],
    headers:
      apiKey === ''
        ? { ...inputs.headers }
        : { ...inputs.headers, [inputs['api-key-header']]: apiKey },
    sensitiveValues: [apiKey, ...Object.values(inputs.headers)],
  };
}

/** Problems of the access inputs that are each valid but do not go together. */
export function accessProblems(inputs: AccessInputs): InputProblem[] {
  const problems: InputProblem[] = [];
  const apiKeyHeader = inputs['api-key-header'].toLowerCase();
  const clash = Object.keys(inputs.headers).find((name) => name.toLowerCase() === apiKeyHeader);
  if (inputs['api-key'] !== '' && clash !== undefined) {
    problems.push({
      input: 'headers',
      problem: `header '${clash}' would replace the api-key header`,
    });
  }
  return problems;
}

/** The service's access, or an `InputError` when its inputs do not go together. */
export function checkedAccess(inputs: AccessInputs): ServiceAccess {
  const problems = accessProblems(inputs);
  if (problems.length > 0) throw new InputError(problems);
  return serviceAccess(inputs);
}
