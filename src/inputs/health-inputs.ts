import { given } from './declare.js';
import { ACTION_WORDS, type RemedyWords } from '../service/answers.js';
import type { HealthRequest } from './deploy-spec.js';
import { fail, type InputProblem } from './errors.js';
import type { Manifest } from './manifest.js';
import { fillPlaceholder } from '../common/text.js';
import { parseWebAddress } from './parsers.js';
import { queryValues, URL_PLACEHOLDER, type HealthCheck } from '../service/health-address.js';

const EXAMPLES = "'/ok', '{url}/ok?check_db=1' or 'https://agent.example.com/ok'";

export function parseHealthCheck(raw: string): HealthCheck | undefined {
  const text = raw.trim();
  if (text === '') return undefined;
  const placeholder = /\{[^{}]*\}|[{}]/.exec(fillPlaceholder(text, URL_PLACEHOLDER, ''));
  if (placeholder !== null) {
    fail(`may hold only the placeholder {url}, got '${placeholder[0]}' (e.g. ${EXAMPLES})`);
  }
  if (/\s/.test(text)) fail(`must not contain white space (e.g. ${EXAMPLES})`);
  if (text.startsWith('/')) {
    if (text.startsWith('//')) fail(`must be a path ('/ok') or a full address (e.g. ${EXAMPLES})`);
    return { kind: 'path', path: text };
  }
  if (text.startsWith(URL_PLACEHOLDER)) {
    const rest = text.slice(URL_PLACEHOLDER.length);
    if (rest !== '' && !/^[/?#]/.test(rest)) {
      fail(`must have '/', '?' or '#' right after {url} (e.g. ${EXAMPLES})`);
    }
    return { kind: 'address', template: text };
  }
  // An address holding {url} elsewhere (in its query) is checked with a stand-in for it.
  parseWebAddress(fillPlaceholder(text, URL_PLACEHOLDER, 'url'), {
    example: EXAMPLES,
    credentials: "pass them in the health check's headers instead",
  });
  return { kind: 'address', template: text };
}

export const HEALTH_INPUT_NAMES = [
  'health-check',
  'health-check-headers',
  'health-check-expect',
] as const;

interface HealthInputs {
  'health-check': HealthCheck | undefined;
  'health-check-headers': Record<string, string>;
  'health-check-expect': string | undefined;
}

export function healthRequest(inputs: HealthInputs): HealthRequest | undefined {
  const check = inputs['health-check'];
  if (check === undefined) return undefined;
  return {
    check,
    headers: { ...inputs['health-check-headers'] },
    ...given({ expect: inputs['health-check-expect'] }),
  };
}

/** The header values of the check and the values of its query string: never printed. */
export function healthSensitiveValues(inputs: HealthInputs): string[] {
  const check = inputs['health-check'];
  const address = check === undefined ? '' : check.kind === 'path' ? check.path : check.template;
  return [...Object.values(inputs['health-check-headers']), ...queryValues(address)];
}

/** Headers or an expected text without a check would check nothing. */
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

/** The step's headers serve the agents whose entry sets `health-check`. */
export function unusedHealthProblems(
  inputs: HealthInputs,
  words: Pick<RemedyWords, 'healthCheck'>,
  manifest?: Manifest,
): InputProblem[] {
  const checked = manifest?.agents.some(({ entry }) => (entry['health-check'] ?? '').trim() !== '');
  return checked === true ? [] : healthProblems(inputs, words);
}
