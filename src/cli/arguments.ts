/**
 * The command line and the environment, read into one request: each input's
 * raw text (as `core.getInput` gives it), the secrets to mask, where the
 * outputs go. A usage error names the option before the action's parsers run.
 */
import { Invalid } from '../inputs/errors.js';
import { parseBoolean } from '../inputs/parsers.js';
import { readTokens, type Given } from './argv.js';
import type { ChangedSince } from './changes.js';
import { DOTENV_LIMIT_VARIABLES } from './dotenv.js';
import {
  COMMANDS,
  isRunCommand,
  optionTable,
  variableOf,
  type Command,
  type CommandInput,
} from './option-table.js';
import { readInputs, Reading, type ArgumentSources, type Environment } from './option-values.js';

/** A mistake in how the command was called or in what it was given: exit 2, before any request. */
export class UsageError extends Error {
  override name = 'UsageError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      problems.length === 1
        ? (problems[0] ?? '')
        : `${problems.length} problems:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

export interface CliRequest {
  command: Command;
  /** Each given input's raw text; an input not given is absent (its declared default applies). */
  inputs: Partial<Record<CommandInput, string>>;
  /** Where each given input came from, as a message names it: `--name`, `DEPLOY_NAME`. */
  origins: Partial<Record<CommandInput, string>>;
  /** Masked before anything is written. */
  secretValues: string[];
  json: boolean;
  events: boolean;
  dotenv?: string;
  dotenvMaxKeys: number;
  summary?: string;
  /** deploy's `--changed-since REF` (or DEPLOY_CHANGED_SINCE): the base of the change `paths` are matched against. */
  changedSince?: ChangedSince;
}

type Invocation =
  { kind: 'help'; command?: Command } | { kind: 'version' } | { kind: 'run'; request: CliRequest };

const HELP = ['--help', '-h', 'help'];

const EVENTS_VARIABLE = variableOf('events');

function readEventsFlag(flag: boolean, env: Environment, problems: string[]): boolean {
  if (flag) return true;
  const text = env[EVENTS_VARIABLE] ?? '';
  if (text === '') return false;
  try {
    return parseBoolean(text);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    problems.push(`${EVENTS_VARIABLE}: ${error.message}`);
    return false;
  }
}

/** Whether a command line that could not be read asked for the stream (never `list` or `repos`): it still ends with a result line. */
export function wantsEvents(args: readonly string[], env: Environment): boolean {
  const command = args[0];
  if (isCommand(command) && !isRunCommand(command)) return false;
  const end = args.indexOf('--');
  const options = end < 0 ? args : args.slice(0, end);
  const flag = options.some((arg) => arg === '--events' || arg.startsWith('--events='));
  return readEventsFlag(flag, env, []);
}

/** More variables than any report holds. */
const DOTENV_MAX_KEYS_CAP = 10_000;

/** A bad value is not echoed: a value put where it does not belong may be a secret. */
function readDotenvMaxKeys(given: Given, problems: string[]): number {
  const text = given.get('dotenv-max-keys')?.values[0];
  if (text === undefined) return DOTENV_LIMIT_VARIABLES;
  const count = /^[1-9][0-9]*$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(count) && count <= DOTENV_MAX_KEYS_CAP) return count;
  problems.push(
    `--dotenv-max-keys takes a whole number of variables from 1 to ${DOTENV_MAX_KEYS_CAP.toLocaleString('en-US')} (GitLab's dotenv_variables limit; ${DOTENV_LIMIT_VARIABLES} by default)`,
  );
  return DOTENV_LIMIT_VARIABLES;
}

const CHANGED_SINCE_VARIABLE = variableOf('changed-since');

/** deploy's `--changed-since REF`, else its variable (empty: not given); a value git could take for an option, or spanning lines, is refused unechoed. */
function readChangedSince(
  command: Command,
  given: Given,
  env: Environment,
  problems: string[],
): ChangedSince | undefined {
  if (command !== 'deploy') return undefined;
  const flag = given.get('changed-since')?.values[0];
  const origin = flag === undefined ? CHANGED_SINCE_VARIABLE : '--changed-since';
  const ref = flag ?? env[CHANGED_SINCE_VARIABLE] ?? '';
  if (flag === undefined && ref === '') return undefined;
  if (ref !== '' && !ref.startsWith('-') && !/[\0\r\n]/.test(ref)) return { ref, origin };
  problems.push(
    `${origin} takes a git revision (a branch, a tag or a commit sha: main, origin/main, v1.4.0): not empty, not starting with -, on one line`,
  );
  return undefined;
}

function isCommand(word: string | undefined): word is Command {
  return COMMANDS.some((command) => command === word);
}

/** Reads the arguments (without `node` and the script); throws a `UsageError` listing every problem. */
export function readInvocation(args: readonly string[], sources: ArgumentSources): Invocation {
  const [first, ...rest] = args;
  if (first === undefined || HELP.includes(first)) {
    if (first === 'help' && isCommand(rest[0])) return { kind: 'help', command: rest[0] };
    return { kind: 'help' };
  }
  if (first === '--version' || first === '-v') {
    // Not echoed: a word put where it does not belong may be a secret.
    if (rest.length > 0) {
      throw new UsageError([
        `${first} takes no arguments (${rest.length} given); see deploy-agent --help`,
      ]);
    }
    return { kind: 'version' };
  }
  if (!isCommand(first)) {
    const what = first.startsWith('-')
      ? `the option ${first.split('=')[0] ?? first}`
      : `'${first}'`;
    throw new UsageError([
      `a command comes first (${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1) ?? ''}), not ${what}; see deploy-agent --help`,
    ]);
  }
  const table = optionTable();
  const reading = new Reading(sources);
  const given = readTokens(rest, first, table, reading.problems);
  if (given.has('help')) return { kind: 'help', command: first };
  const events = readEventsFlag(given.has('events'), sources.env, reading.problems);
  if (events && given.has('json')) {
    const origin = given.has('events') ? '--events' : `${EVENTS_VARIABLE} (true)`;
    reading.problems.push(
      `${origin} and --json exclude each other: both write stdout; the stream's result line holds the --json object`,
    );
  }
  if (given.has('all') && given.has('limit')) {
    reading.problems.push(
      '--limit and --all exclude each other: --all reads every page, up to 10,000',
    );
  }
  const dotenvMaxKeys = readDotenvMaxKeys(given, reading.problems);
  const changedSince = readChangedSince(first, given, sources.env, reading.problems);
  if (reading.problems.length > 0) throw new UsageError(reading.problems);
  readInputs(given, first, table, reading);
  if (reading.problems.length > 0) throw new UsageError(reading.problems);
  return {
    kind: 'run',
    request: {
      command: first,
      inputs: reading.inputs,
      origins: reading.origins,
      secretValues: reading.secretValues,
      json: given.has('json'),
      events,
      dotenv: given.get('dotenv')?.values[0],
      dotenvMaxKeys,
      summary: given.get('summary')?.values[0],
      changedSince,
    },
  };
}
