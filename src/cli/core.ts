/**
 * The core as the command drives it, its inputs read by the action's own
 * reader: `deploy` is the action's pipeline, `status` a look-up that never
 * creates, `plan` the plan sub-action's run; each per agent with `--agents`.
 */
import { readInputs, type InputReader } from '../inputs/declare.js';
import { deployRequest, type DeployRequest } from '../inputs/deploy-request.js';
import { INPUTS } from '../inputs/core-inputs.js';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planAsked,
  type PlanRequest,
} from '../inputs/plan-inputs.js';
import type { RunDescription } from '../inputs/run-description.js';
import { readStatusRequest, type StatusAsked } from '../inputs/status-inputs.js';
import { runDeploy } from '../run/flows/deploy-run.js';
import { runStatus } from '../run/flows/status-run.js';
import type { RunnerIO, RunOutcome } from '../run/ports/runner.js';
import { runPlan } from '../run/flows/plan-run.js';
import type { CommandInput, RunCommand } from './options.js';

export type CommandRequest =
  | { command: 'deploy'; deploy: DeployRequest }
  | { command: 'status'; status: StatusAsked }
  | { command: 'plan'; plan: PlanRequest };

const PLAN_INPUTS = { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS };

/** Reads and checks every input of `command` before any request; throws the core's `InputError`. */
export function readCommandRequest(
  command: RunCommand,
  read: InputReader<CommandInput>,
  run: RunDescription,
): CommandRequest {
  switch (command) {
    case 'plan':
      return { command, plan: planAsked(readInputs(PLAN_INPUTS, read, run), run) };
    case 'status':
      return { command, status: readStatusRequest(read, run) };
    case 'deploy':
      return { command, deploy: deployRequest(readInputs(INPUTS, read, run), run) };
  }
}

export function manifestOf(asked: CommandRequest): {
  layout: 'flat' | 'keyed';
  agents: readonly unknown[];
} {
  if (asked.command === 'plan') return asked.plan;
  return asked.command === 'status' ? asked.status : asked.deploy;
}

/** Never throws: how it ended is in the outcome. */
export function runCommandRequest(asked: CommandRequest, io: RunnerIO): Promise<RunOutcome> {
  switch (asked.command) {
    case 'plan':
      return runPlan(asked.plan, io);
    case 'status':
      return runStatus(asked.status, io);
    case 'deploy':
      return runDeploy(asked.deploy, io);
  }
}
