/**
 * The commands, the inputs they read, what one option is (`OptionSpec`) and
 * the variable that gives it, and the options refused on purpose. The table
 * of options is generated from the declared inputs in option-table.ts.
 */
import type { InputName } from '../inputs/core-inputs.js';
import type { ListOwnInput } from '../inputs/fleet-inputs.js';
import type { PLAN_OWN_INPUTS } from '../inputs/plan-inputs.js';

export const COMMANDS = ['deploy', 'status', 'plan', 'list', 'repos'] as const;
export type Command = (typeof COMMANDS)[number];

/** The commands that run the core on one deployment; the others list the fleet. */
export const RUN_COMMANDS = ['deploy', 'status', 'plan'] as const satisfies readonly Command[];
export type RunCommand = (typeof RUN_COMMANDS)[number];
/** The fleet's commands: they list, and write a table, lines or `--json`. */
export type FleetCommand = Exclude<Command, RunCommand>;

export function isRunCommand(command: Command): command is RunCommand {
  return (RUN_COMMANDS as readonly Command[]).includes(command);
}

/** The plan's own inputs (plan/action.yml's, not the core's): `on-change`. */
export type PlanOwnInput = keyof typeof PLAN_OWN_INPUTS;
/** Every input the command reads: the core's, the plan's own and the list's own. */
export type CommandInput = InputName | PlanOwnInput | ListOwnInput;

/** The inputs of `Name: value` lines whose values come from the variables their names give. */
export type HeaderInput = 'headers' | 'health-check-headers';

/** Each input's description, as action.yml words it (read at run time, for the help). */
export type Descriptions = Readonly<Partial<Record<string, string>>>;

type OptionRole =
  | { kind: 'input'; input: InputName }
  /** An input of plan/action.yml that is not the core's (`--on-change`). */
  | { kind: 'plan-input'; input: PlanOwnInput }
  /** A filter of `list`, or how many it shows (`--limit`, `--all`). */
  | { kind: 'list-input'; input: ListOwnInput }
  | { kind: 'api-key-file' }
  /** `--header NAME` for `headers`, `--health-check-header NAME` for `health-check-headers`. */
  | { kind: 'header'; input: HeaderInput }
  | { kind: 'secrets-file' }
  | { kind: 'secret' }
  | { kind: 'output'; output: 'json' | 'events' | 'dotenv' | 'dotenv-max-keys' | 'summary' };

/** One option of the command line, generated or written in option-table.ts. */
export interface OptionSpec {
  /** Without the dashes: `name`, `wait`, `api-key-file`. */
  option: string;
  type: 'string' | 'boolean';
  multiple?: true;
  /** What the value is, for the help: `VALUE`, `FILE`, `NAME`. */
  valueName?: string;
  /** The environment variable that gives it when the option is absent. */
  variable?: string;
  /**
   * Options it excludes (`--all` and `--limit`): given as flags together, a
   * usage error; one given as a flag, the other's variable is not read (a
   * flag wins over a variable, always: `DEPLOY_ALL=true` does not override
   * `--limit 3`).
   */
  excludes?: readonly string[];
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
