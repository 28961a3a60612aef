/**
 * The command line and the environment, read into one request: the command,
 * each input's raw text (as `core.getInput` would give it), the secret
 * values to mask, and where the outputs go. Nothing is sent and nothing is
 * parsed by the core here: a usage error names the option before any
 * request, and the input parsers (the same as the action's) run next.
 */
import type { InputName } from '../inputs/declared.js';
import { Invalid } from '../inputs/errors.js';
import { parseSecrets } from '../inputs/secrets.js';
import { readTokens, type Given } from './argv.js';
import {
  COMMANDS,
  environmentName,
  optionTable,
  type Command,
  type OptionSpec,
} from './options.js';
import { Reading, type ArgumentSources } from './sources.js';

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
  inputs: Partial<Record<InputName, string>>;
  /** Where each given input came from, as a message names it: `--name`, `DEPLOY_NAME`. */
  origins: Partial<Record<InputName, string>>;
  /** Every secret value read (key, header values, secrets): masked before anything is written. */
  secretValues: string[];
  json: boolean;
  dotenv?: string;
  summary?: string;
}

export type Invocation =
  { kind: 'help'; command?: Command } | { kind: 'version' } | { kind: 'run'; request: CliRequest };

const HELP = ['--help', '-h', 'help'];
/** A header name as RFC 9110 allows one (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isCommand(word: string | undefined): word is Command {
  return COMMANDS.some((command) => command === word);
}

/** Drops one trailing line break, as `$(cat FILE)` would drop them all. */
function withoutTrailingLineBreak(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  if (text.endsWith('\n')) return text.slice(0, -1);
  return text;
}

function readInputs(
  given: Given,
  command: Command,
  table: readonly OptionSpec[],
  reading: Reading,
): void {
  const { env } = reading.sources;
  for (const spec of table) {
    if (!spec.commands.includes(command)) continue;
    const values = given.get(spec.option)?.values ?? [];
    const variable = spec.variable;
    const fromVariable = variable === undefined ? undefined : env[variable];
    const role = spec.role;
    switch (role.kind) {
      case 'input': {
        if (values.length > 0) reading.set(role.input, values[0] ?? '', `--${spec.option}`);
        else if (fromVariable !== undefined && variable !== undefined) {
          reading.set(role.input, fromVariable, variable);
        }
        break;
      }
      case 'api-key-file': {
        const path = values[0];
        if (path !== undefined) {
          const text = reading.file('api-key-file', path);
          if (text !== undefined) {
            const key = withoutTrailingLineBreak(text);
            reading.secret(key);
            reading.inputs['api-key'] = key;
            reading.origins['api-key'] = `--api-key-file ${path}`;
          }
        } else if (fromVariable !== undefined && variable !== undefined) {
          reading.secret(fromVariable);
          reading.set('api-key', fromVariable, variable);
        }
        break;
      }
      case 'header': {
        if (values.length > 0) readHeaderOptions(values, reading);
        else if (fromVariable !== undefined && variable !== undefined) {
          maskLines(fromVariable, reading, (line) => line.slice(line.indexOf(':') + 1));
          reading.set('headers', fromVariable, variable);
        }
        break;
      }
      case 'secrets-file':
        // Read with `--secret` below, as one list.
        break;
      case 'secret':
        readSecretOptions(given, table, reading);
        break;
      case 'output':
        break;
    }
  }
}

/**
 * Masks the raw text (the redactor registers each of its lines too, as for
 * the action's inputs) and each line's value, which may be printed alone.
 */
function maskLines(text: string, reading: Reading, valueOf: (line: string) => string): void {
  reading.secret(text.trim());
  for (const line of text.split(/\r?\n/)) reading.secret(valueOf(line).trim());
}

function readHeaderOptions(names: readonly string[], reading: Reading): void {
  const lines: string[] = [];
  for (const name of names) {
    if (!HEADER_NAME.test(name)) {
      reading.problems.push(`--header wants a header name (letters, digits and -), got '${name}'`);
      continue;
    }
    const variable = environmentName(name);
    const value = reading.sources.env[variable];
    if (value === undefined) {
      reading.problems.push(
        `--header ${name}: the environment variable ${variable} that holds its value is not set`,
      );
      continue;
    }
    reading.secret(value.trim());
    if (/[\r\n]/.test(value.trim())) {
      reading.problems.push(`--header ${name}: the value of ${variable} has a line break`);
      continue;
    }
    lines.push(`${name}: ${value.trim()}`);
  }
  reading.inputs.headers = lines.join('\n');
  reading.origins.headers = '--header';
}

/** `--secrets-file`, then each `--secret NAME`, as one JSON object; else `DEPLOY_SECRETS`. */
function readSecretOptions(given: Given, table: readonly OptionSpec[], reading: Reading): void {
  const fileSpec = table.find((spec) => spec.role.kind === 'secrets-file');
  const path = given.get('secrets-file')?.values[0];
  const names = given.get('secret')?.values ?? [];
  const variable = fileSpec?.variable;
  if (path === undefined && names.length === 0) {
    const text = variable === undefined ? undefined : reading.sources.env[variable];
    if (text !== undefined && variable !== undefined) {
      maskLines(text, reading, (line) => line.slice(line.indexOf('=') + 1));
      readSecretText(text, variable, reading);
      reading.set('secrets', text, variable);
    }
    return;
  }
  const secrets = new Map<string, string>();
  if (path !== undefined) {
    const text = reading.file('secrets-file', path);
    if (text === undefined) return;
    maskLines(text, reading, (line) => line.slice(line.indexOf('=') + 1));
    for (const secret of readSecretText(text, `--secrets-file ${path}`, reading)) {
      secrets.set(secret.name, secret.value);
    }
  }
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) {
      reading.problems.push(
        `--secret wants a secret name (letters, digits and _, not starting with a digit), got '${name}'`,
      );
      continue;
    }
    const value = reading.sources.env[name];
    if (value === undefined) {
      reading.problems.push(
        `--secret ${name}: the environment variable ${name} is not set (export it, or drop --secret ${name})`,
      );
      continue;
    }
    reading.secret(value);
    if (secrets.has(name)) {
      reading.problems.push(`--secret ${name}: the secret ${name} is given twice`);
      continue;
    }
    secrets.set(name, value);
  }
  reading.inputs.secrets = secrets.size === 0 ? '' : JSON.stringify(Object.fromEntries(secrets));
  reading.origins.secrets = path === undefined ? '--secret' : '--secrets-file/--secret';
}

/** The secrets of a text, their values masked; a problem names `origin` and the line, never a value. */
function readSecretText(
  text: string,
  origin: string,
  reading: Reading,
): { name: string; value: string }[] {
  try {
    const secrets = parseSecrets(text.trim());
    for (const secret of secrets) reading.secret(secret.value);
    return secrets;
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    reading.problems.push(`${origin}: ${error.message}`);
    return [];
  }
}

/**
 * Reads the command line (without `node` and the script) and the
 * environment. Throws a `UsageError` listing every problem found.
 */
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
      `a command comes first (deploy or status), not ${what}; see deploy-agent --help`,
    ]);
  }
  const table = optionTable();
  const reading = new Reading(sources);
  const given = readTokens(rest, first, table, reading.problems);
  if (given.has('help')) return { kind: 'help', command: first };
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
      dotenv: given.get('dotenv')?.values[0],
      summary: given.get('summary')?.values[0],
    },
  };
}
