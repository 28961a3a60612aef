/**
 * How a step reaches the service, from the inputs every entry shares
 * (`api-url`, `api-key`, `api-key-header`, `headers`): the base address, the
 * headers sent with each request, the values never to print, and the
 * problems of inputs that do not go together (an empty key on a fork's pull
 * request, a header that would replace the key's).
 */
import type { InputName, ParsedInputs } from './declared.js';
import type { InputProblem } from './errors.js';
import { isFromFork, type RunDescription } from './run-description.js';

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

/** An empty api key on a fork's pull request: it can never have one, so say so before any request. */
function forkProblem(run: RunDescription): InputProblem {
  const head = run.head?.kind === 'branch' ? run.head.repository : undefined;
  const from = head === null || head === undefined ? 'a deleted fork' : `the fork ${head}`;
  const skip =
    run.skipForks === undefined ? 'Skip runs from forks' : `Skip them with \`${run.skipForks}\``;
  return {
    input: 'api-key',
    problem: `is empty: this run is for a pull request from ${from}, and a fork's runs get no secrets, so the step cannot authenticate. ${skip} on the step or the job.`,
  };
}

/** Problems of the access inputs that are each valid but do not go together. */
export function accessProblems(inputs: AccessInputs, run: RunDescription): InputProblem[] {
  const problems: InputProblem[] = [];
  if (inputs['api-key'] === '' && isFromFork(run)) problems.push(forkProblem(run));
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
