/**
 * The inputs only the GitHub Action has (contract v1.2, "New inputs"),
 * declared as the core's are (src/inputs/declared.ts): each with its parser
 * and its default, in action.yml's order. They are read, and checked, before
 * any request; a bad one is an input error that names it, as the core's are.
 */
import { UNSAFE_IN_A_NAME } from '../common/characters.js';
import { input, type DeclaredInput } from '../inputs/declared.js';
import { fail, Invalid, type InputProblem } from '../inputs/errors.js';
import { parseBoolean, parseText } from '../inputs/parsers.js';
import type { RunDescription } from '../inputs/run-description.js';

/** GitHub refuses an environment name longer than this. */
export const ENVIRONMENT_NAME_LIMIT = 255;

/**
 * An environment name GitHub accepts: at most 255 characters, on one line,
 * with no control character (it shows in the Environments page and in URLs).
 */
export function parseEnvironment(raw: string): string {
  const length = [...raw].length;
  if (length > ENVIRONMENT_NAME_LIMIT) {
    fail(`is ${length} characters long; GitHub takes at most ${ENVIRONMENT_NAME_LIMIT}`);
  }
  if (UNSAFE_IN_A_NAME.test(raw)) {
    fail('holds a line break or another control character, which GitHub refuses in a name');
  }
  return raw;
}

/**
 * A token on one line (a line break would end the Authorization header).
 * An expression left as it is (`${{ github.token }}`, which only a runner
 * evaluates: a local run that reads action.yml's defaults) is no token.
 */
function parseToken(raw: string): string {
  if (/[\r\n]/.test(raw)) fail('holds a line break; a token is one line');
  return /^\$\{\{.*\}\}$/.test(raw) ? '' : parseText(raw);
}

export const GITHUB_INPUTS = {
  // `${{ github.token }}` is action.yml's default, which the runner fills in.
  'github-token': input(parseToken, { sensitive: true, default: '${{ github.token }}' }),
  environment: input(parseEnvironment, { default: '' }),
  'pr-comment': input(parseBoolean, { default: 'false' }),
} satisfies Record<string, DeclaredInput<unknown>>;

export type GitHubInputName = keyof typeof GITHUB_INPUTS;

/** The names of the GitHub inputs, in action.yml's order. */
export const GITHUB_INPUT_NAMES = Object.keys(GITHUB_INPUTS) as readonly GitHubInputName[];

/** Outputs only the GitHub Action sets. */
export const GITHUB_OUTPUT_NAMES = ['github-deployment-id'] as const;

/** What the GitHub inputs ask for. */
export interface GitHubSettings {
  /** `github-token`; empty: every feature that needs it is skipped. */
  token: string;
  /** `environment`: record a GitHub deployment there when not empty. */
  environment: string;
  /** `pr-comment`. */
  comment: boolean;
}

/**
 * Reads the GitHub inputs, each as `core.getInput` gives it (trimmed, `''`
 * when given empty), or undefined when not given (its default applies).
 * Returns the settings, or every problem, each naming its input, to report
 * in one `InputError` with the core's own.
 */
export function readGitHubInputs(
  read: (name: GitHubInputName) => string | undefined,
  run: RunDescription,
): { ok: true; settings: GitHubSettings } | { ok: false; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const parse = <N extends GitHubInputName>(
    name: N,
    fallback: ReturnType<(typeof GITHUB_INPUTS)[N]['parse']>,
  ) => {
    const declared = GITHUB_INPUTS[name].default;
    try {
      const raw = read(name) ?? (typeof declared === 'string' ? declared : '');
      return GITHUB_INPUTS[name].parse(raw, run) as typeof fallback;
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      problems.push({ input: name, problem: error.message });
      return fallback;
    }
  };
  const settings: GitHubSettings = {
    token: parse('github-token', ''),
    environment: parse('environment', ''),
    comment: parse('pr-comment', false),
  };
  return problems.length === 0 ? { ok: true, settings } : { ok: false, problems };
}
