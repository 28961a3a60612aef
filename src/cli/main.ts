/**
 * The command's run over the world it is given (never `process`, so tests run
 * it in-process too): the invocation, the CI's run, the core, the outputs.
 */
import { getSystemErrorMap } from 'node:util';
import { describeError } from '../common/errors.js';
import { lineSafeJson } from '../common/characters.js';
import { systemClock } from '../common/runtime.js';
import { MIB } from '../inputs/bounded-read.js';
import { InputError } from '../inputs/errors.js';
import { readInputs, type InputReader } from '../inputs/declare.js';
import { deployRequest, type DeployRequest } from '../inputs/deploy-request.js';
import { INPUTS } from '../inputs/core-inputs.js';
import {
  PLAN_OWN_INPUTS,
  PLAN_SHARED_INPUTS,
  planAsked,
  type PlanRequest,
} from '../inputs/plan-inputs.js';
import { readStatusRequest, type StatusAsked } from '../inputs/status-inputs.js';
import { runDeploy } from '../run/flows/deploy-run.js';
import { runStatus } from '../run/flows/status-run.js';
import { runPlan } from '../run/flows/plan-run.js';
import type { AskChangedFiles } from '../run/ports/changes.js';
import type { RunnerIO, RunOutcome } from '../run/ports/runner.js';
import type { RunDescription } from '../inputs/run-description.js';
import type { EventView } from '../run/ports/events.js';
import { paceFrom } from '../run/ports/pace.js';
import type { RunSummary } from '../run/ports/summaries.js';
import { loadUndici, proxySettingsFrom } from '../service/proxy.js';
import { renderSummary } from '../views/summary.js';
import { readInvocation, UsageError, wantsEvents, type CliRequest } from './arguments.js';
import { describeInputError } from './input-errors.js';
import { describeCiRun, describeRun, runDescription } from './ci.js';
import { askCheckoutChanges } from './changes.js';
import { checkoutCommitOrder } from './git.js';
import { runFleet } from './fleet.js';
import { EXIT, type CliWorld } from './world.js';
import { actionDescriptions, commandHelp, topHelp } from './help.js';
import { isRunCommand, type CommandInput, type RunCommand } from './option-table.js';
import { outputsJson, OutputsSeen } from './outputs.js';
import { eventStream, openSession, type Session } from './session.js';
import { commandWords } from './wording.js';

type CommandRequest =
  | { command: 'deploy'; asked: DeployRequest }
  | { command: 'status'; asked: StatusAsked }
  | { command: 'plan'; asked: PlanRequest };

const PLAN_INPUTS = { ...PLAN_SHARED_INPUTS, ...PLAN_OWN_INPUTS };

/** Reads and checks every input of `command` before any request; throws the core's `InputError`. */
function readCommandRequest(
  command: RunCommand,
  read: InputReader<CommandInput>,
  run: RunDescription,
): CommandRequest {
  switch (command) {
    case 'plan':
      return { command, asked: planAsked(readInputs(PLAN_INPUTS, read, run), run) };
    case 'status':
      return { command, asked: readStatusRequest(read, run) };
    case 'deploy':
      return { command, asked: deployRequest(readInputs(INPUTS, read, run), run) };
  }
}

/** Never throws: how it ended is in the outcome. */
function runCommandRequest({ command, asked }: CommandRequest, io: RunnerIO): Promise<RunOutcome> {
  if (command === 'plan') return runPlan(asked, io);
  return command === 'status' ? runStatus(asked, io) : runDeploy(asked, io);
}

/** Why a file could not be written: the system's reason (`illegal operation on a directory (EISDIR)`), no stack. */
function writeFailure(option: string, path: string, error: unknown): string {
  const { code, errno } = (error ?? {}) as NodeJS.ErrnoException;
  const known = typeof errno === 'number' ? getSystemErrorMap().get(errno)?.[1] : undefined;
  const reason = known ?? (error instanceof Error ? error.message : String(error));
  return `could not write the ${option} file ${path}: ${reason}${code === undefined ? '' : ` (${code})`}`;
}

/** Writes --dotenv and --summary; why each that could not be written could not (logged too). */
function writeFiles(
  request: CliRequest,
  seen: OutputsSeen,
  summary: RunSummary | undefined,
  world: CliWorld,
  { log, redact, warn }: Session,
): string[] {
  const failures: string[] = [];
  const write = (option: string, path: string | undefined, text: () => string) => {
    if (path === undefined) return;
    try {
      world.writeFile(path, text());
    } catch (error) {
      const failure = writeFailure(option, path, error);
      log.error(redact(failure));
      failures.push(failure);
    }
  };
  write('--dotenv', request.dotenv, () => {
    const { text, skipped } = seen.dotenv(request.dotenvMaxKeys);
    for (const { variable, reason } of skipped)
      warn(`${variable} is left out of --dotenv: ${reason}`);
    return text;
  });
  write('--summary', request.summary, () =>
    summary === undefined ? '' : redact(renderSummary(summary, redact)),
  );
  return failures;
}

/** Writes the files, --json, then the result line; a file not written fails the run in all three. */
async function runCommand(
  request: CliRequest,
  command: RunCommand,
  world: CliWorld,
): Promise<number> {
  const session = openSession(request.secretValues, world, { events: request.events });
  const { redact } = session;
  const seen = new OutputsSeen();
  // Outputs are redacted by structure; the error is free text.
  const redactError = (error?: string) => (error === undefined ? undefined : redact(error));
  const end = (exitCode: number, error?: string): number => {
    const redacted = redactError(error);
    session.events?.result({ exitCode, outputs: seen.json(redacted), error: redacted });
    return exitCode;
  };
  const quitting = (signal: string) => {
    end(EXIT.interrupted, `received ${signal} again: quit at once`);
  };
  try {
    const ran = await runRequest(request, command, world, session, { seen, quitting });
    const failures = writeFiles(request, seen, ran.summary, world, session);
    const errors = [ran.error, ...failures].filter((each) => each !== undefined);
    const error = errors.length === 0 ? undefined : errors.join('; ');
    if (request.json) world.stdout.write(`${lineSafeJson(seen.json(redactError(error)), 2)}\n`);
    const failed = failures.length > 0 && ran.exitCode === EXIT.done;
    return end(failed ? EXIT.failed : ran.exitCode, error);
  } catch (error) {
    // Not an expected failure (those are in the outcome): the stream still ends with a result.
    end(EXIT.failed, describeError(error));
    throw error;
  }
}

function runnerIO(
  world: CliWorld,
  { log, events, redactor, redact, signal }: Session,
  run: RunDescription,
  view: EventView,
  changedFiles: AskChangedFiles | undefined,
): RunnerIO {
  return {
    run,
    proxy: proxySettingsFrom(world.env),
    pace: paceFrom(world.env),
    commitOrder: checkoutCommitOrder({ cwd: world.cwd, env: world.env }),
    clock: systemClock,
    signal,
    mask: (value) => redactor.add(value),
    redact,
    views: [log.view, view, ...(events === undefined ? [] : [events.sink])],
    ...(changedFiles === undefined ? {} : { changedFiles }),
  };
}

/** Reads the request's inputs and runs it; `quitting` is called on a second signal. */
async function runRequest(
  request: CliRequest,
  command: RunCommand,
  world: CliWorld,
  session: Session,
  { seen, quitting }: { seen: OutputsSeen; quitting: (signal: string) => void },
) {
  const { log } = session;
  const ci = describeCiRun(world.env, world.cwd);
  const words = commandWords(world.env, request.origins['api-url']);
  const run = runDescription(ci, world.cwd, words);
  let prepared: CommandRequest;
  try {
    prepared = readCommandRequest(command, (name) => request.inputs[name], run);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const message = describeInputError(error, request, ci);
    log.error(message);
    return { exitCode: EXIT.usage, error: message };
  }
  const manifest = prepared.asked;
  if (manifest.layout === 'keyed') {
    if (prepared.command !== 'plan') seen.expectAgents();
    log.expectAgents(manifest.agents.length);
  }
  if (prepared.command === 'deploy') {
    // A commit given (`--commit SHA`) is the target whatever the checkout's head.
    const commit = prepared.asked.agents[0]?.spec.commit;
    log.info(describeRun(ci, commit?.kind === 'sha' ? commit.sha : undefined));
  }
  // Only deploy reads `paths`: the changed files of the checkout, when a base is known.
  const changedFiles =
    prepared.command === 'deploy'
      ? askCheckoutChanges(request.changedSince, ci, { cwd: world.cwd, env: world.env })
      : undefined;
  const io = runnerIO(world, session, run, seen.view, changedFiles);
  const outcome = await session.interruptible(() => runCommandRequest(prepared, io), quitting);
  if (outcome.stack !== undefined) log.debug(outcome.stack);
  if (outcome.failure !== undefined) log.error(outcome.failure);
  // The inputs were checked above: a failure now is the deploy's.
  const failed = outcome.failure === undefined ? EXIT.done : EXIT.failed;
  const exitCode = session.signal.aborted ? EXIT.interrupted : failed;
  return { exitCode, error: outcome.failure, summary: outcome.summary };
}

/** action.yml's descriptions of the inputs; none when it cannot be read (the help still lists every option). */
function readDescriptions(world: CliWorld) {
  try {
    return actionDescriptions(world.readFile(`${world.packageDir}/action.yml`, MIB));
  } catch {
    return {};
  }
}

/** Runs the command; resolves to its exit status. Never throws for an expected failure. */
export async function main(world: CliWorld): Promise<number> {
  let invocation;
  try {
    invocation = readInvocation(world.args, { env: world.env, readFile: world.readFile });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    world.stderr.write(`deploy-agent: ${error.message}\n`);
    // Nothing was read, so no secret is known: a usage message never echoes a value.
    eventStream(wantsEvents(world.args, world.env), world, (text) => text)?.result({
      exitCode: EXIT.usage,
      outputs: outputsJson({}, error.message),
      error: error.message,
    });
    return EXIT.usage;
  }
  switch (invocation.kind) {
    case 'help':
      world.stdout.write(
        invocation.command === undefined
          ? topHelp(world.version())
          : commandHelp(invocation.command, readDescriptions(world)),
      );
      return EXIT.done;
    case 'version':
      world.stdout.write(`${world.version()}\n`);
      return EXIT.done;
    case 'run': {
      const { request } = invocation;
      const { command } = request;
      // Loaded only for a command that may send a request (src/service/proxy.ts).
      await loadUndici();
      return isRunCommand(command)
        ? runCommand(request, command, world)
        : runFleet(command, request, world);
    }
  }
}
