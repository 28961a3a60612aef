/**
 * The core as the command drives it: `deploy` is the action's pipeline, run
 * with a `RunDescription` from the CI system (with `--agents`, once for each
 * agent of the manifest, as the action's step of several agents); `status`
 * is a look-up by name over the same service client, wait and outputs, that
 * never creates (its own request: no plan); `plan` is the plan sub-action's
 * run (`runPlan`), read-only. With `--agents`, `status` and `plan` too run
 * once for each agent of the manifest. All read their inputs with the
 * action's own reader and parsers.
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

/**
 * What a command is asked to do, its inputs read and checked: of every agent of a manifest
 * (`--agents`), each as if alone, or of one deployment (a manifest of one).
 */
export type CommandRequest =
  | { command: 'deploy'; deploy: DeployRequest }
  | { command: 'status'; status: StatusAsked }
  | { command: 'plan'; plan: PlanRequest };

/** The plan's inputs (plan/action.yml's, the manifest among them: `name` is then a template). */
const PLAN_INPUTS = { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS };

/**
 * Reads and checks every input of `command` without a request; throws the
 * core's `InputError`. `plan` reads plan/action.yml's inputs (the core's it
 * shares, and `on-change`) into the plan sub-action's request; `status` its
 * few (the service's, the name, the wait's, the dashboard's) into its own.
 */
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

/** What a command runs over: one deployment (flat) or a manifest's agents (keyed). */
export function manifestOf(asked: CommandRequest): {
  layout: 'flat' | 'keyed';
  agents: readonly unknown[];
} {
  if (asked.command === 'plan') return asked.plan;
  return asked.command === 'status' ? asked.status : asked.deploy;
}

/** Runs a read request through the core; never throws: how it ended is in the outcome. */
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
