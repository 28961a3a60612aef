/** The inputs only the GitHub Action has, declared as the core's are, in action.yml's order. */
import { UNSAFE_IN_A_NAME } from '../common/characters.js';
import { environmentHoldsAgentTwice } from '../inputs/manifest.js';
import {
  input,
  isUnevaluated,
  namesOf,
  type Declarations,
  type InputValues,
} from '../inputs/declare.js';
import { fail } from '../inputs/errors.js';
import { parseBoolean, parseText } from '../inputs/parsers.js';

export const ENVIRONMENT_NAME_LIMIT = 255;

/** GitHub shows the name in the Environments page and in URLs. */
function parseEnvironment(raw: string): string {
  const length = [...raw].length;
  if (length > ENVIRONMENT_NAME_LIMIT) {
    fail(`is ${length} characters long; GitHub takes at most ${ENVIRONMENT_NAME_LIMIT}`);
  }
  if (UNSAFE_IN_A_NAME.test(raw)) {
    fail('holds a line break or another control character, which GitHub refuses in a name');
  }
  return raw;
}

/** `environment` beside `agents`: `{agent}` at most once, as in `name`. */
function environmentBesideAgents(
  raw: string,
  set: Readonly<Record<string, string>>,
): string | undefined {
  return (set.agents ?? '') === '' ? undefined : environmentHoldsAgentTwice(raw);
}

/**
 * A token on one line (a line break would end the Authorization header).
 * An expression left as it is (`${{ github.token }}`) is no token.
 */
function parseToken(raw: string): string {
  if (/[\r\n]/.test(raw)) fail('holds a line break; a token is one line');
  return isUnevaluated(raw) ? '' : parseText(raw);
}

export const GITHUB_INPUTS = {
  // `${{ github.token }}` is action.yml's default, which the runner fills in.
  'github-token': input(parseToken, { sensitive: true, default: '${{ github.token }}' }),
  environment: input(parseEnvironment, { default: '', besides: environmentBesideAgents }),
  'pr-comment': input(parseBoolean, { default: 'false' }),
} satisfies Declarations;

/** The plan, retire and sweep steps' token and comment, which they write unless told not to. */
export const COMMENT_INPUTS = {
  'github-token': GITHUB_INPUTS['github-token'],
  'pr-comment': input(parseBoolean, { default: 'true' }),
} satisfies Declarations;

type GitHubInputName = keyof typeof GITHUB_INPUTS;

export const GITHUB_INPUT_NAMES: readonly GitHubInputName[] = namesOf(GITHUB_INPUTS);

export const GITHUB_OUTPUT_NAMES = ['github-deployment-id'] as const;

export interface GitHubSettings {
  /** `github-token`; empty: every feature that needs it is skipped. */
  token: string;
  environment: string;
  comment: boolean;
}

export function gitHubSettings(inputs: InputValues<typeof GITHUB_INPUTS>): GitHubSettings {
  return {
    token: inputs['github-token'],
    environment: inputs.environment,
    comment: inputs['pr-comment'],
  };
}
