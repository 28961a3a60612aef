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
import { buildAgentsRequest, type AgentsRequest } from '../inputs/agents-request.js';
import { buildDeploySpec } from '../inputs/build-deploy-spec.js';
import { INPUTS } from '../inputs/core-inputs.js';
import type { DeploySpec } from '../inputs/deploy-spec.js';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planAsked,
  type PlanRequest,
} from '../inputs/plan-inputs.js';
import type { RunDescription } from '../inputs/run-description.js';
import {
  readStatusRequest,
  type StatusAgentsRequest,
  type StatusRequest,
} from '../inputs/status-inputs.js';
import { deployAgents } from '../run/flows/agents-run.js';
import { statusAgents } from '../run/flows/status-agents.js';
import { pipeline } from '../run/flows/pipeline.js';
import { status } from '../run/flows/status-run.js';
import type { RunnerIO, RunOutcome } from '../run/ports/runner.js';
import { runPlan } from '../run/flows/plan-run.js';
import type { CommandInput, RunCommand } from './options.js';

/** What a command is asked to do, its inputs read and checked. */
export type CommandRequest =
  | { command: 'deploy'; spec: DeploySpec }
  /** A deploy of every agent of a manifest (`--agents`), each as if alone. */
  | { command: 'deploy'; agents: AgentsRequest }
  | { command: 'status'; lookup: StatusRequest }
  /** `status` of every agent of a manifest, each as if alone. */
  | { command: 'status'; agents: StatusAgentsRequest }
  /** The plan of every agent of a manifest (or of one deployment), each as if alone. */
  | { command: 'plan'; plan: PlanRequest };

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
      return readPlan(read, run);
    case 'status':
      return { command, ...readStatusRequest(read, run) };
    case 'deploy':
      return readDeploy(read, run);
  }
}

/**
 * `deploy`'s inputs: with a manifest (`--agents`), one deploy an agent, its
 * name the `--name` template (if any) filled; else the one deploy.
 */
function readDeploy(read: InputReader<CommandInput>, run: RunDescription): CommandRequest {
  const inputs = readInputs(INPUTS, read, run);
  return inputs.agents === undefined
    ? { command: 'deploy', spec: buildDeploySpec(inputs, run) }
    : { command: 'deploy', agents: buildAgentsRequest(inputs, run) };
}

/** The plan's inputs (plan/action.yml's, the manifest among them: `name` is then a template). */
const PLAN_INPUTS = { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS };

/**
 * `plan`'s inputs: with a manifest (`--agents`), one plan an agent, each
 * the plan its deploy would have (the name template, if any, filled); else
 * the one plan.
 */
function readPlan(read: InputReader<CommandInput>, run: RunDescription): CommandRequest {
  return { command: 'plan', plan: planAsked(readInputs(PLAN_INPUTS, read, run), run) };
}

/** Runs a read request through the core; never throws: how it ended is in the outcome. */
export function runCommandRequest(asked: CommandRequest, io: RunnerIO): Promise<RunOutcome> {
  switch (asked.command) {
    case 'plan':
      return runPlan(asked.plan, io);
    case 'status':
      return 'agents' in asked ? statusAgents(asked.agents, io) : status(asked.lookup, io);
    case 'deploy':
      return 'agents' in asked ? deployAgents(asked.agents, io) : pipeline(asked.spec, io);
  }
}
