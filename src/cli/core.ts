/**
 * The core as the command drives it: `deploy` is the action's pipeline, run
 * with a `RunDescription` from the CI system; `status` is a look-up by name
 * over the same service client, wait and outputs, that never creates; `plan`
 * is the plan sub-action's run (`runPlan`), read-only. All read their inputs
 * with the action's own reader and parsers.
 */
import { readInputs, type InputReader } from '../inputs/declare.js';
import type { InputName } from '../inputs/declared.js';
import type { Plan } from '../inputs/plan.js';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planRequest,
  type PlanRequest,
} from '../inputs/plan-inputs.js';
import { readPlan } from '../inputs/read-plan.js';
import type { RunDescription } from '../inputs/run-description.js';
import { pipeline } from '../run/flows/pipeline.js';
import { status } from '../run/flows/status-run.js';
import type { RunnerIO, RunOutcome } from '../run/ports/runner.js';
import { runPlan } from '../run/flows/plan-run.js';
import type { CommandInput, RunCommand } from './options.js';

/**
 * `status` takes only the service's inputs, the name and the wait's; the
 * plan still needs a source, and `internal_template` is the one that asks
 * for no other field. The deployment's own source is what is reported.
 */
function statusReader(read: InputReader<InputName>): InputReader<InputName> {
  return (name) => {
    if (name === 'source') return 'internal_template';
    if (name === 'commit') return 'none';
    return read(name);
  };
}

/** The plan of `deploy` or `status`; throws the core's `InputError`. */
function readCommandPlan(
  command: Exclude<RunCommand, 'plan'>,
  read: InputReader<InputName>,
  run: RunDescription,
): Plan {
  // `status` has no --repository: the CI's slug must not be parsed as one.
  return command === 'status'
    ? readPlan(statusReader(read), { ...run, repository: undefined })
    : readPlan(read, run);
}

/** Runs `command`'s plan through the core; never throws: how it ended is in the outcome. */
function runCommand(
  command: Exclude<RunCommand, 'plan'>,
  plan: Plan,
  io: RunnerIO,
): Promise<RunOutcome> {
  return command === 'deploy' ? pipeline(plan, io) : status(plan, io);
}

/** What a command is asked to do, its inputs read and checked. */
export type CommandRequest =
  { command: 'deploy' | 'status'; plan: Plan } | { command: 'plan'; request: PlanRequest };

/**
 * Reads and checks every input of `command` without a request; throws the
 * core's `InputError`. `plan` reads plan/action.yml's inputs (the core's it
 * shares, and `on-change`) into the plan sub-action's request.
 */
export function readCommandRequest(
  command: RunCommand,
  read: InputReader<CommandInput>,
  run: RunDescription,
): CommandRequest {
  if (command === 'plan') {
    const inputs = readInputs({ ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS }, read, run);
    return { command, request: planRequest(inputs, run) };
  }
  return { command, plan: readCommandPlan(command, read, run) };
}

/** Runs a read request through the core; never throws: how it ended is in the outcome. */
export function runCommandRequest(request: CommandRequest, io: RunnerIO): Promise<RunOutcome> {
  return request.command === 'plan'
    ? runPlan(request.request, io)
    : runCommand(request.command, request.plan, io);
}
