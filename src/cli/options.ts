/** The commands, what one option is, and the options refused on purpose (the table: option-table.ts). */
import type { InputName } from '../inputs/core-inputs.js';
import type { ListOwnInput } from '../inputs/fleet-inputs.js';
import type { PLAN_OWN_INPUTS } from '../inputs/plan-inputs.js';

export const COMMANDS = ['deploy', 'status', 'plan', 'list', 'repos'] as const;
export type Command = (typeof COMMANDS)[number];

export const RUN_COMMANDS = ['deploy', 'status', 'plan'] as const satisfies readonly Command[];
export type RunCommand = (typeof RUN_COMMANDS)[number];
export type FleetCommand = Exclude<Command, RunCommand>;

export function isRunCommand(command: Command): command is RunCommand {
  return (RUN_COMMANDS as readonly Command[]).includes(command);
}

export type PlanOwnInput = keyof typeof PLAN_OWN_INPUTS;
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
