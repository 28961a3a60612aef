/**
 * The command's options, generated from the declared inputs (`--name`, `DEPLOY_NAME`, its default
 * and action.yml's description), so the action, the command and the help cannot disagree.
 * Hand-written: the flags, the secrets' options (never a value on a command line), the commands,
 * what one option is, and the options refused on purpose.
 */
import type { InputDefault } from '../inputs/declare.js';
import { INPUTS, INPUT_NAMES, type InputName } from '../inputs/core-inputs.js';
import { LIST_OWN_INPUTS, type ListOwnInput } from '../inputs/fleet-inputs.js';
import { PLAN_OWN_INPUTS, PLAN_SHARED_INPUTS } from '../inputs/plan-inputs.js';
import { ACCESS_INPUT_NAMES } from '../inputs/service-access.js';
import { DOTENV_LIMIT_VARIABLES } from './dotenv.js';
import { STATUS_INPUTS } from '../inputs/status-inputs.js';
import {
  COMMAND_DESCRIPTIONS,
  LIST_OPTION_DESCRIPTIONS,
  PLAN_OPTION_DESCRIPTIONS,
} from './wording.js';

export const COMMANDS = ['deploy', 'status', 'plan', 'list', 'repos'] as const;
export type Command = (typeof COMMANDS)[number];

const RUN_COMMANDS = ['deploy', 'status', 'plan'] as const satisfies readonly Command[];
export type RunCommand = (typeof RUN_COMMANDS)[number];
export type FleetCommand = Exclude<Command, RunCommand>;

export function isRunCommand(command: Command): command is RunCommand {
  return (RUN_COMMANDS as readonly Command[]).includes(command);
}

type PlanOwnInput = keyof typeof PLAN_OWN_INPUTS;
export type CommandInput = InputName | PlanOwnInput | ListOwnInput;

export type HeaderInput = 'headers' | 'health-check-headers';

export type Descriptions = Readonly<Partial<Record<string, string>>>;

type OptionRole =
  | { kind: 'input'; input: InputName }
  | { kind: 'plan-input'; input: PlanOwnInput }
  | { kind: 'list-input'; input: ListOwnInput }
  | { kind: 'api-key-file' }
  | { kind: 'header'; input: HeaderInput }
  | { kind: 'secrets-file' }
  | { kind: 'secret' }
  | { kind: 'changed-since' }
  | { kind: 'output'; output: 'json' | 'events' | 'dotenv' | 'dotenv-max-keys' | 'summary' };

export interface OptionSpec {
  option: string;
  type: 'string' | 'boolean';
  multiple?: true;
  valueName?: string;
  variable?: string;
  /** Given together, a usage error; one as a flag, the other's variable is not read (`--limit 3` beats `DEPLOY_ALL`). */
  excludes?: readonly string[];
  defaultText?: string;
  description: string;
  commands: readonly Command[];
  role: OptionRole;
}

/** `wait-timeout` → `DEPLOY_WAIT_TIMEOUT`. */
export function variableOf(name: string): string {
  return `DEPLOY_${environmentName(name)}`;
}

/** `X-Tenant-Id` → `X_TENANT_ID`. */
export function environmentName(name: string): string {
  return name.toUpperCase().replaceAll('-', '_');
}

/** Options a person may try that the command refuses on purpose, and why. */
export const REFUSED_OPTIONS: Readonly<Record<string, string>> = {
  'api-key':
    'a key on the command line is visible in process lists, shell history and CI logs: set DEPLOY_API_KEY or pass --api-key-file FILE',
  headers:
    'header values may be secrets, which must not sit on a command line: pass --header NAME (the value comes from the environment variable NAME) or set DEPLOY_HEADERS',
  'health-check-headers':
    'header values may be secrets, which must not sit on a command line: pass --health-check-header NAME (the value comes from the environment variable NAME) or set DEPLOY_HEALTH_CHECK_HEADERS',
  secrets:
    'secret values must not sit on a command line: pass --secret NAME (the value comes from the environment variable NAME), --secrets-file FILE, or set DEPLOY_SECRETS',
};

/** The inputs given as a flag, and its name. */
const FLAGS: Readonly<Partial<Record<InputName, string>>> = {
  'wait-for-ready': 'wait',
  'dry-run': 'dry-run',
};

function shownDefault(value: InputDefault | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  // `repository`'s `${{ github.repository }}`: here, the CI's project slug.
  return "the CI system's project slug";
}

/** Deploy takes every input; status, plan, list and repos theirs. */
function commandsOf(input: InputName): readonly Command[] {
  const access = (ACCESS_INPUT_NAMES as readonly InputName[]).includes(input);
  return COMMANDS.filter(
    (command) =>
      command === 'deploy' ||
      (command === 'status' && Object.hasOwn(STATUS_INPUTS, input)) ||
      (command === 'plan' && Object.hasOwn(PLAN_SHARED_INPUTS, input)) ||
      (command === 'list' && access) ||
      (command === 'repos' && (access || input === 'integration-id')),
  );
}

function valueOption(input: InputName, description: string): OptionSpec {
  const flag = FLAGS[input];
  const option = flag ?? input;
  return {
    option,
    type: flag === undefined ? 'string' : 'boolean',
    ...(flag === undefined ? { valueName: 'VALUE' } : {}),
    variable: variableOf(option),
    defaultText: shownDefault(INPUTS[input].default),
    description,
    commands: commandsOf(input),
    role: { kind: 'input', input },
  };
}

/** `--header NAME` and `--health-check-header NAME`: each value from the variable NAME. */
function headerOption(input: HeaderInput): Omit<OptionSpec, 'commands'> {
  const health = input === 'health-check-headers';
  const example = health
    ? '--health-check-header X-Api-Key reads X_API_KEY'
    : '--header X-Tenant-Id reads X_TENANT_ID';
  return {
    option: health ? 'health-check-header' : 'header',
    type: 'string',
    multiple: true,
    valueName: 'NAME',
    variable: variableOf(input),
    description: `${health ? 'The health check sends' : 'Sends'} the header NAME with the value of the environment variable NAME upper-cased, - as _ (${example}); repeatable. The variable holds "Name: value" lines instead. Values are masked.`,
    role: { kind: 'header', input },
  };
}

/** The options of the inputs whose values never sit on a command line: read from a file or the environment. */
const SECRET_OPTIONS: Readonly<
  Partial<Record<InputName, (description: string) => Omit<OptionSpec, 'commands'>[]>>
> = {
  'api-key': (description) => [
    {
      option: 'api-key-file',
      type: 'string',
      valueName: 'FILE',
      variable: variableOf('api-key'),
      description: `${description} Read from FILE (one trailing line break dropped) or from the variable; never an option's value.`,
      role: { kind: 'api-key-file' },
    },
  ],
  headers: () => [headerOption('headers')],
  'health-check-headers': () => [headerOption('health-check-headers')],
  secrets: () => [
    {
      option: 'secrets-file',
      type: 'string',
      valueName: 'FILE',
      variable: variableOf('secrets'),
      description:
        'Deployment secrets from FILE: NAME=value lines or a JSON object {"NAME": "value"}. The variable holds the same text. Every value is masked.',
      role: { kind: 'secrets-file' },
    },
    {
      option: 'secret',
      type: 'string',
      multiple: true,
      valueName: 'NAME',
      description:
        'The deployment secret NAME, its value from the environment variable NAME (as docker run -e NAME); repeatable.',
      role: { kind: 'secret' },
    },
  ],
};

function inputOptions(input: InputName, description: string): OptionSpec[] {
  const secret = SECRET_OPTIONS[input];
  if (secret === undefined) return [valueOption(input, description)];
  const commands = commandsOf(input);
  return secret(description).map((spec) => ({ ...spec, commands }));
}

const LIST_VALUE_NAMES: Readonly<Partial<Record<ListOwnInput, string>>> = {
  'tag-value-ids': 'ID,…',
  'deployment-ids': 'ID,…',
  limit: 'N',
  'remote-reconciled': 'BOOLEAN',
};

const LIST_EXCLUDES: Readonly<Partial<Record<ListOwnInput, readonly string[]>>> = {
  limit: ['all'],
  all: ['limit'],
};

/** The options of `plan`'s and `list`'s own inputs; `all` is a flag. */
function ownOptions<K extends PlanOwnInput | ListOwnInput>(
  command: 'plan' | 'list',
  inputs: Readonly<Record<K, { default?: InputDefault }>>,
  descriptions: Readonly<Record<K, string>>,
): OptionSpec[] {
  return (Object.keys(inputs) as K[]).map((input) => {
    const flag = input === 'all';
    return {
      option: input,
      type: flag ? 'boolean' : 'string',
      ...(flag ? {} : { valueName: LIST_VALUE_NAMES[input as ListOwnInput] ?? 'VALUE' }),
      variable: variableOf(input),
      excludes: LIST_EXCLUDES[input as ListOwnInput],
      defaultText: shownDefault(inputs[input].default),
      description: descriptions[input],
      commands: [command],
      role:
        command === 'plan'
          ? { kind: 'plan-input', input: input as PlanOwnInput }
          : { kind: 'list-input', input: input as ListOwnInput },
    };
  });
}

/** deploy's base of the change that each agent's `paths` are matched against (read in arguments.ts). */
const CHANGED_SINCE: OptionSpec = {
  option: 'changed-since',
  type: 'string',
  valueName: 'REF',
  variable: variableOf('changed-since'),
  description:
    "Deploys only the agents of --agents whose paths match a file changed since REF (git diff REF...HEAD of the checkout: from where the two histories meet), in any run; on a merge request pipeline REF is by default its target (GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA). A checkout without that history (a shallow clone) deploys every agent, with a notice.",
  commands: ['deploy'],
  role: { kind: 'changed-since' },
};

const OUTPUT_OPTIONS: readonly OptionSpec[] = [
  {
    option: 'json',
    type: 'boolean',
    description:
      'Writes the outputs to stdout as one JSON object (created and live as booleans, drift as an array, deployment and plan as objects; error when it failed), on failure and interrupt too. list and repos: one JSON array of what the service answered, every secret value ***.',
    commands: COMMANDS,
    role: { kind: 'output', output: 'json' },
  },
  {
    option: 'events',
    type: 'boolean',
    variable: variableOf('events'),
    defaultText: 'false',
    description:
      'Writes a stream of events to stdout for tools, one JSON object a line (step, status_change, heartbeat, warn), the last always a result line with the status, the exit code and the outputs; not with --json.',
    commands: RUN_COMMANDS,
    role: { kind: 'output', output: 'events' },
  },
  {
    option: 'dotenv',
    type: 'string',
    valueName: 'FILE',
    description:
      "Writes the outputs to FILE as DEPLOYMENT_ID=..., DEPLOYMENT_STATUS=..., DEPLOYMENT_URL=... lines (plan: DEPLOYMENT_PLAN_ACTION=..., DEPLOYMENT_CHANGES=...; GitLab's dotenv report, never named like a DEPLOY_ input), on failure and interrupt too.",
    commands: RUN_COMMANDS,
    role: { kind: 'output', output: 'dotenv' },
  },
  {
    option: 'dotenv-max-keys',
    type: 'string',
    valueName: 'N',
    defaultText: String(DOTENV_LIMIT_VARIABLES),
    description:
      "Writes at most N variables to the --dotenv file (GitLab's dotenv_variables limit: a report over it is lost whole), each one left out named in a warning; with --agents, DEPLOYMENT_LIVE first, then each agent's _ID and _URL, then its _STATUS and _LIVE.",
    commands: RUN_COMMANDS,
    role: { kind: 'output', output: 'dotenv-max-keys' },
  },
  {
    option: 'summary',
    type: 'string',
    valueName: 'FILE',
    description:
      'Writes the run summary (what the action writes to the job summary; for plan, the plan) to FILE.',
    commands: RUN_COMMANDS,
    role: { kind: 'output', output: 'summary' },
  },
];

/** Every option, in the declared inputs' order; `descriptions` are action.yml's but where the command has its own. */
export function optionTable(descriptions: Descriptions = {}): OptionSpec[] {
  return [
    ...INPUT_NAMES.flatMap((input) =>
      inputOptions(input, COMMAND_DESCRIPTIONS[input] ?? descriptions[input] ?? ''),
    ),
    CHANGED_SINCE,
    ...ownOptions('plan', PLAN_OWN_INPUTS, PLAN_OPTION_DESCRIPTIONS),
    ...ownOptions('list', LIST_OWN_INPUTS, LIST_OPTION_DESCRIPTIONS),
    ...OUTPUT_OPTIONS,
  ];
}
