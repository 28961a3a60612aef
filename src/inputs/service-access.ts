import type { InputName, ParsedInputs } from './core-inputs.js';
import { InputError, type InputProblem } from './errors.js';

export const ACCESS_INPUT_NAMES = [
  'api-url',
  'api-key',
  'api-key-header',
  'headers',
] as const satisfies readonly InputName[];

type AccessInputs = Pick<ParsedInputs, (typeof ACCESS_INPUT_NAMES)[number]>;

export interface ServiceAccess {
  /** Without a trailing slash. */
  apiUrl: string;
  headers: Record<string, string>;
  /** The key and the header values: never printed. */
  sensitiveValues: string[];
}

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

export function accessProblems(inputs: AccessInputs): InputProblem[] {
  const apiKeyHeader = inputs['api-key-header'].toLowerCase();
  const clash = Object.keys(inputs.headers).find((name) => name.toLowerCase() === apiKeyHeader);
  if (inputs['api-key'] === '' || clash === undefined) return [];
  return [{ input: 'headers', problem: `header '${clash}' would replace the api-key header` }];
}

export function checkedAccess(inputs: AccessInputs): ServiceAccess {
  const problems = accessProblems(inputs);
  if (problems.length > 0) throw new InputError(problems);
  return serviceAccess(inputs);
}
