/**
 * The options given, else their DEPLOY_ variables, read into each input's raw
 * text: the API key from its file, headers and secrets from the variables
 * they name, every secret value kept to be masked; every problem gathered
 * in one `Reading`.
 */
import { BoundedReadError, KIB, MIB } from '../inputs/bounded-read.js';
import { EmptyValue, Invalid } from '../inputs/errors.js';
import { parseSecrets } from '../inputs/secrets.js';
import type { Given } from './argv.js';
import {
  environmentName,
  type Command,
  type CommandInput,
  type HeaderInput,
  type OptionSpec,
} from './option-table.js';

export type Environment = Readonly<Record<string, string | undefined>>;

export interface ArgumentSources {
  env: Environment;
  /** At most `cap` bytes; a `BoundedReadError` when it is larger or never ends. */
  readFile: (path: string, cap: number) => string;
}

/** The most an option's file may hold: a key is short; secrets are lines of NAME=value. */
const FILE_CAPS = { 'api-key-file': 64 * KIB, 'secrets-file': MIB } as const;

/** Every problem found, to report them all at once. */
export class Reading {
  readonly problems: string[] = [];
  readonly inputs: Partial<Record<CommandInput, string>> = {};
  readonly origins: Partial<Record<CommandInput, string>> = {};
  readonly secretValues: string[] = [];

  readonly sources: ArgumentSources;

  constructor(sources: ArgumentSources) {
    this.sources = sources;
  }

  set(input: CommandInput, raw: string, origin: string): void {
    // As `core.getInput` gives it: trimmed (a key from a file keeps its inner text).
    this.inputs[input] = raw.trim();
    this.origins[input] = origin;
  }

  secret(value: string): void {
    if (value !== '') this.secretValues.push(value);
  }

  file(option: keyof typeof FILE_CAPS, path: string): string | undefined {
    const cap = FILE_CAPS[option];
    try {
      return this.sources.readFile(path, cap);
    } catch (error) {
      // Its message names the cap ("it is larger than 1 MiB") or the deadline.
      if (error instanceof BoundedReadError) {
        this.problems.push(`--${option} ${path}: cannot read it: ${error.message}`);
        return undefined;
      }
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      const why =
        { ENOENT: 'no such file', EISDIR: 'it is a directory' }[code ?? ''] ?? code ?? 'unreadable';
      this.problems.push(`--${option} ${path}: cannot read it (${why})`);
      return undefined;
    }
  }
}

/** An RFC 9110 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function readInputs(
  given: Given,
  command: Command,
  table: readonly OptionSpec[],
  reading: Reading,
): void {
  const { env } = reading.sources;
  for (const spec of table) {
    if (!spec.commands.includes(command)) continue;
    const values = given.get(spec.option)?.values ?? [];
    // A flag wins over a variable: an excluded option's variable is not read beside its flag.
    const excluded = spec.excludes?.some((other) => given.has(other)) === true;
    const variable = excluded ? undefined : spec.variable;
    const fromVariable = variable === undefined ? undefined : env[variable];
    const role = spec.role;
    switch (role.kind) {
      case 'input':
      case 'plan-input':
      case 'list-input': {
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
            const key = text.replace(/\r?\n$/, ''); // One trailing line break dropped; `$(cat FILE)` drops them all.
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
        if (values.length > 0) readHeaderOptions(values, `--${spec.option}`, role.input, reading);
        else if (fromVariable !== undefined && variable !== undefined) {
          maskLines(fromVariable, reading, (line) => line.slice(line.indexOf(':') + 1));
          reading.set(role.input, fromVariable, variable);
        }
        break;
      }
      case 'secrets-file':
        readSecretOptions(given, variable, reading);
        break;
      case 'secret': // Read with `--secrets-file`, as one list.
      case 'changed-since': // Read in arguments.ts.
      case 'output':
        break;
    }
  }
}

/** Masks the raw text (and so each line, as the action's inputs) and each line's value, which may be printed alone. */
function maskLines(text: string, reading: Reading, valueOf: (line: string) => string): void {
  reading.secret(text.trim());
  for (const line of text.split(/\r?\n/)) reading.secret(valueOf(line).trim());
}

function readHeaderOptions(
  names: readonly string[],
  option: string,
  input: HeaderInput,
  reading: Reading,
): void {
  const lines: string[] = [];
  for (const name of names) {
    if (!HEADER_NAME.test(name)) {
      reading.problems.push(`${option} wants a header name (letters, digits and -), got '${name}'`);
      continue;
    }
    const variable = environmentName(name);
    const value = reading.sources.env[variable];
    if (value === undefined) {
      reading.problems.push(
        `${option} ${name}: the environment variable ${variable} that holds its value is not set`,
      );
      continue;
    }
    reading.secret(value.trim());
    if (/[\r\n]/.test(value.trim())) {
      reading.problems.push(`${option} ${name}: the value of ${variable} has a line break`);
      continue;
    }
    lines.push(`${name}: ${value.trim()}`);
  }
  reading.inputs[input] = lines.join('\n');
  reading.origins[input] = option;
}

/** `--secrets-file`, then each `--secret NAME`, as one JSON object; else `DEPLOY_SECRETS`. */
function readSecretOptions(given: Given, variable: string | undefined, reading: Reading): void {
  const path = given.get('secrets-file')?.values[0];
  const names = given.get('secret')?.values ?? [];
  if (path === undefined && names.length === 0) {
    const text = variable === undefined ? undefined : reading.sources.env[variable];
    if (text !== undefined && variable !== undefined) {
      maskLines(text, reading, (line) => line.slice(line.indexOf('=') + 1));
      // An empty value is left to the inputs' reader, which reads this same text: on a
      // fork's pull request it is explained by the missing api key, not reported alone.
      readSecretText(text, variable, reading, { deferEmpty: true });
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
      reading.problems.push(notASecretName(name, reading));
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

/** Never shows `given`: what is not a name may be a value (`--secret "$OPENAI_API_KEY"`, `NAME=VALUE`). */
function notASecretName(given: string, reading: Reading): string {
  const equals = given.indexOf('=');
  const name = given.slice(0, equals);
  if (equals > 0 && VARIABLE_NAME.test(name)) {
    reading.secret(given.slice(equals + 1));
    return `--secret takes a name, not NAME=VALUE: export ${name}, then pass --secret ${name} (the value given is not shown)`;
  }
  return `--secret wants a secret name (letters, digits and _, not starting with a digit); the text given, ${[...given].length} characters, is not one (not shown: it may be a value)`;
}

/** A problem names `origin` and the line, never a value. */
function readSecretText(
  text: string,
  origin: string,
  reading: Reading,
  options: { deferEmpty?: boolean } = {},
): { name: string; value: string }[] {
  try {
    const secrets = parseSecrets(text.trim());
    for (const secret of secrets) reading.secret(secret.value);
    return secrets;
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    if (!(options.deferEmpty === true && error instanceof EmptyValue)) {
      reading.problems.push(`${origin}: ${error.message}`);
    }
    return [];
  }
}
