/**
 * The command's options, generated from the declared inputs: each input of
 * the action is `--name` with the variable `DEPLOY_NAME`, its default and
 * its description, so that the action, the command and the help cannot
 * disagree (test/cli/options.test.ts and the contract test check them
 * against action.yml). The only hand-written part is how an input reaches
 * the command (`INPUT_SHAPES`), typed so that a new input without one does
 * not compile; the differences are all for secrets, which never sit on a
 * command line.
 */
import { INPUTS, INPUT_NAMES, type InputName } from '../declared-inputs.js';

export const COMMANDS = ['deploy', 'status'] as const;
export type Command = (typeof COMMANDS)[number];

/** How one of the action's inputs reaches the command. */
export type InputShape =
  /** `--input VALUE`, or `DEPLOY_INPUT`. */
  | { kind: 'value'; status?: boolean }
  /** `--option` (no value), or `DEPLOY_OPTION` with the action's boolean spellings. */
  | { kind: 'flag'; option?: string; status?: boolean }
  /** `DEPLOY_API_KEY`, or `--api-key-file FILE`: never `--api-key`. */
  | { kind: 'api-key' }
  /** `--header NAME` (repeatable), each value from the variable NAME, or `DEPLOY_HEADERS`. */
  | { kind: 'headers' }
  /** `--secrets-file FILE`, `--secret NAME` (repeatable), or `DEPLOY_SECRETS`. */
  | { kind: 'secrets' }
  /** The action's alone (a GitHub feature): not an option of the command. */
  | { kind: 'action-only' };

/**
 * Every input, and how the command takes it. `status: true` marks the
 * inputs `status` takes besides the service's (it looks a deployment up by
 * name: no source, no plan).
 */
export const INPUT_SHAPES: { readonly [K in InputName]: InputShape } = {
  'api-url': { kind: 'value', status: true },
  'api-key': { kind: 'api-key' },
  'api-key-header': { kind: 'value', status: true },
  headers: { kind: 'headers' },
  name: { kind: 'value', status: true },
  source: { kind: 'value' },
  config: { kind: 'value' },
  'integration-id': { kind: 'value' },
  repository: { kind: 'value' },
  'repo-ref': { kind: 'value' },
  'agent-config-path': { kind: 'value' },
  'image-uri': { kind: 'value' },
  secrets: { kind: 'secrets' },
  'wait-for-ready': { kind: 'flag', option: 'wait', status: true },
  'wait-timeout': { kind: 'value', status: true },
  commit: { kind: 'value' },
  'on-drift': { kind: 'value' },
  'dry-run': { kind: 'flag' },
};

/** The service options every command takes: where it is and how to sign in. */
const SERVICE_INPUTS: readonly InputName[] = ['api-url', 'api-key', 'api-key-header', 'headers'];

/** What the declared list says of an input, as far as the command needs it. */
export interface DeclaredInputText {
  /** Whether its raw text holds secret values (every declared input says). */
  sensitive: boolean;
  /** Its default as action.yml writes it; undefined for a required input. */
  default?: string | { run: string };
  description?: string;
}

export type OptionRole =
  | { kind: 'input'; input: InputName }
  | { kind: 'api-key-file' }
  | { kind: 'header' }
  | { kind: 'secrets-file' }
  | { kind: 'secret' }
  | { kind: 'output'; output: 'json' | 'dotenv' | 'summary' };

/** One option of the command line, generated or written here. */
export interface OptionSpec {
  /** Without the dashes: `name`, `wait`, `api-key-file`. */
  option: string;
  type: 'string' | 'boolean';
  multiple: boolean;
  /** What the value is, for the help: `VALUE`, `FILE`, `NAME`. */
  valueName?: string;
  /** The environment variable that gives it when the option is absent. */
  variable?: string;
  /** The default, as the help shows it. */
  defaultText?: string;
  description: string;
  commands: readonly Command[];
  role: OptionRole;
}

/** `DEPLOY_` + the name upper-cased with `-` as `_`: `wait-timeout` → `DEPLOY_WAIT_TIMEOUT`. */
export function variableOf(name: string): string {
  return `DEPLOY_${environmentName(name)}`;
}

/** A name as an environment variable's: upper-cased, `-` as `_` (`X-Tenant-Id` → `X_TENANT_ID`). */
export function environmentName(name: string): string {
  return name.toUpperCase().replaceAll('-', '_');
}

function shownDefault(declared: DeclaredInputText): string | undefined {
  const value = declared.default;
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  // `repository`'s `${{ github.repository }}`: here, the CI's project slug.
  return `the CI system's project (${value.run})`;
}

function commandsOf(input: InputName, shape: InputShape): readonly Command[] {
  const forStatus = SERVICE_INPUTS.includes(input) || ('status' in shape && shape.status === true);
  return forStatus ? COMMANDS : ['deploy'];
}

/** The options of one input, from its shape and its declaration. */
function inputOptions(
  input: InputName,
  shape: InputShape,
  declared: DeclaredInputText,
): OptionSpec[] {
  const description = declared.description ?? '';
  const commands = commandsOf(input, shape);
  const role: OptionRole = { kind: 'input', input };
  switch (shape.kind) {
    case 'value':
      return [
        {
          option: input,
          type: 'string',
          multiple: false,
          valueName: 'VALUE',
          variable: variableOf(input),
          defaultText: shownDefault(declared),
          description,
          commands,
          role,
        },
      ];
    case 'flag': {
      const option = shape.option ?? input;
      return [
        {
          option,
          type: 'boolean',
          multiple: false,
          variable: variableOf(option),
          defaultText: shownDefault(declared),
          description,
          commands,
          role,
        },
      ];
    }
    case 'api-key':
      return [
        {
          option: 'api-key-file',
          type: 'string',
          multiple: false,
          valueName: 'FILE',
          variable: variableOf(input),
          description: `${description} Read from FILE (one trailing line break dropped) or from the variable; never an option's value.`,
          commands,
          role: { kind: 'api-key-file' },
        },
      ];
    case 'headers':
      return [
        {
          option: 'header',
          type: 'string',
          multiple: true,
          valueName: 'NAME',
          variable: variableOf(input),
          description:
            'Sends the header NAME with the value of the environment variable NAME upper-cased, - as _ (--header X-Tenant-Id reads X_TENANT_ID); repeatable. The variable holds "Name: value" lines instead. Values are masked.',
          commands,
          role: { kind: 'header' },
        },
      ];
    case 'secrets':
      return [
        {
          option: 'secrets-file',
          type: 'string',
          multiple: false,
          valueName: 'FILE',
          variable: variableOf(input),
          description:
            'Deployment secrets from FILE: NAME=value lines or a JSON object {"NAME": "value"}. The variable holds the same text. Every value is masked.',
          commands,
          role: { kind: 'secrets-file' },
        },
        {
          option: 'secret',
          type: 'string',
          multiple: true,
          valueName: 'NAME',
          description:
            'The deployment secret NAME, its value from the environment variable NAME (as docker run -e NAME); repeatable.',
          commands,
          role: { kind: 'secret' },
        },
      ];
    case 'action-only':
      return [];
  }
}

const OUTPUT_OPTIONS: readonly OptionSpec[] = [
  {
    option: 'json',
    type: 'boolean',
    multiple: false,
    description:
      'Writes the outputs to stdout as one JSON object (created and live as booleans, drift as an array, deployment as an object; error when it failed), on failure and interrupt too.',
    commands: COMMANDS,
    role: { kind: 'output', output: 'json' },
  },
  {
    option: 'dotenv',
    type: 'string',
    multiple: false,
    valueName: 'FILE',
    description:
      "Writes the outputs to FILE as DEPLOY_ID=..., DEPLOY_STATUS=..., DEPLOY_URL=... lines (GitLab's dotenv report), on failure and interrupt too.",
    commands: COMMANDS,
    role: { kind: 'output', output: 'dotenv' },
  },
  {
    option: 'summary',
    type: 'string',
    multiple: false,
    valueName: 'FILE',
    description: 'Writes the run summary (what the action writes to the job summary) to FILE.',
    commands: COMMANDS,
    role: { kind: 'output', output: 'summary' },
  },
];

/**
 * Every option, in the declared inputs' order, then the output options.
 * `declared` is the declared inputs list (its defaults and descriptions).
 */
export function optionTable(
  declared: { readonly [K in InputName]: DeclaredInputText } = INPUTS,
): OptionSpec[] {
  return [
    ...INPUT_NAMES.flatMap((input) => inputOptions(input, INPUT_SHAPES[input], declared[input])),
    ...OUTPUT_OPTIONS,
  ];
}

/** Options a person may try that the command refuses on purpose, and why. */
export const REFUSED_OPTIONS: Readonly<Record<string, string>> = {
  'api-key':
    'a key on the command line is visible in process lists, shell history and CI logs: set DEPLOY_API_KEY or pass --api-key-file FILE',
  headers:
    'header values may be secrets, which must not sit on a command line: pass --header NAME (the value comes from the environment variable NAME) or set DEPLOY_HEADERS',
  secrets:
    'secret values must not sit on a command line: pass --secret NAME (the value comes from the environment variable NAME), --secrets-file FILE, or set DEPLOY_SECRETS',
};

/** The inputs that have an option or a variable of the command. */
export function commandInputs(): InputName[] {
  return INPUT_NAMES.filter((input) => INPUT_SHAPES[input].kind !== 'action-only');
}
