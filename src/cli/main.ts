/**
 * The command's run, wired to the world it is given (arguments, environment,
 * streams, files, signals): reads the invocation, describes the run from the
 * CI system, runs the core, and writes the outputs and the exit status.
 * Only this folder and src/github/ read the environment or know where they
 * run; everything here takes the world as an argument, so tests can run it
 * in-process as well as through dist/cli.js.
 */
import { getSystemErrorMap } from 'node:util';
import { describeError } from '../common/errors.js';
import { lineSafeJson } from '../common/json-text.js';
import { Redactor } from '../common/redact.js';
import { systemClock } from '../common/runtime.js';
import { shortSha } from '../common/text.js';
import { MIB } from '../inputs/bounded-read.js';
import { InputError } from '../inputs/errors.js';
import { paceFrom } from '../run/ports/pace.js';
import type { RunSummary } from '../run/ports/summaries.js';
import type { Outputs } from '../run/steps/report.js';
import { proxySettingsFrom } from '../service/proxy.js';
import { renderSummary } from '../views/summary.js';
import { readInvocation, UsageError, wantsEvents, type CliRequest } from './arguments.js';
import { describeCiRun, runDescription, type CiRun } from './ci.js';
import { checkoutCommitOrder } from './commit-order.js';
import { readCommandRequest, runCommandRequest } from './core.js';
import { describeInputError } from './input-errors.js';
import { runFleet } from './fleet.js';
import { EXIT, type CliWorld } from './world.js';
import { EventStream, heartbeatMsFrom } from './events.js';
import { actionDescriptions, commandHelp, topHelp } from './help.js';
import { commandLog, type StderrLog } from './log.js';
import { isRunCommand, type RunCommand } from './options.js';
import { outputsDotenv, outputsJson } from './outputs.js';
import { commandWords } from './wording.js';

export { EXIT, type CliWorld } from './world.js';

/**
 * One line on where the run is, and the branch head it is for when known
 * (when not, the core says why nothing is targeted, where that matters).
 */
function describeRun(ci: CiRun): string {
  const { head } = ci;
  if (head.kind === 'none') return `run: ${ci.where}`;
  const from =
    head.pullRequest && head.repository !== undefined && head.repository !== ci.slug
      ? ` (a pull request from ${head.repository})`
      : head.pullRequest
        ? ' (a pull request)'
        : '';
  return `run: ${ci.where}, branch ${head.branch} at ${shortSha(head.sha)}${from}`;
}

interface Written {
  outputs: Outputs;
  error?: string;
}

/**
 * Why `option`'s file could not be written: its path and the system's reason
 * (`illegal operation on a directory (EISDIR)`), never a stack.
 */
function writeFailure(option: string, path: string, error: unknown): string {
  const { code, errno } = (error ?? {}) as NodeJS.ErrnoException;
  const known = typeof errno === 'number' ? getSystemErrorMap().get(errno)?.[1] : undefined;
  const reason = known ?? (error instanceof Error ? error.message : String(error));
  return `could not write the ${option} file ${path}: ${reason}${code === undefined ? '' : ` (${code})`}`;
}

/**
 * Writes --dotenv and --summary, then --json; false when a file could not be
 * written. A file that could not be written is a failure that says why in
 * every form: the log, `written.error` (so --json and the `result` event
 * carry it).
 */
function writeResults(
  request: CliRequest,
  written: Written,
  summary: RunSummary | undefined,
  world: CliWorld,
  log: StderrLog,
  redact: (text: string) => string,
  warn: (message: string) => void,
): boolean {
  const files: [string, string | undefined, () => string][] = [
    [
      '--dotenv',
      request.dotenv,
      () => {
        const { text, skipped } = outputsDotenv(written.outputs);
        for (const { variable, reason } of skipped)
          warn(`${variable} is left out of --dotenv: ${reason}`);
        return text;
      },
    ],
    [
      '--summary',
      request.summary,
      () => (summary === undefined ? '' : redact(renderSummary(summary, redact))),
    ],
  ];
  const failures: string[] = [];
  for (const [option, path, text] of files) {
    if (path === undefined) continue;
    try {
      world.writeFile(path, text());
    } catch (error) {
      const failure = writeFailure(option, path, error);
      log.error(redact(failure));
      failures.push(failure);
    }
  }
  if (failures.length > 0) {
    written.error = [written.error, ...failures].filter((each) => each !== undefined).join('; ');
  }
  if (request.json) {
    // Outputs are redacted by structure; the error is free text.
    const json = outputsJson(
      written.outputs,
      written.error === undefined ? undefined : redact(written.error),
    );
    world.stdout.write(`${lineSafeJson(json, 2)}\n`);
  }
  return failures.length === 0;
}

/** The `--events` stream on stdout, when asked for. */
function eventStream(
  wanted: boolean,
  world: CliWorld,
  redact: (text: string) => string,
): EventStream | undefined {
  if (!wanted) return undefined;
  return new EventStream({
    write: (text) => world.stdout.write(text),
    redact,
    heartbeatMs: heartbeatMsFrom(world.env),
  });
}

async function runCommand(
  request: CliRequest,
  command: RunCommand,
  world: CliWorld,
): Promise<number> {
  const redactor = new Redactor();
  for (const value of request.secretValues) redactor.add(value);
  const redact = (text: string) => redactor.redact(text);
  const events = eventStream(request.events, world, redact);
  const log = commandLog(world.stderr, world.env, redact);
  /** A warning of the command's own: in the log, and in the stream. */
  const warn = (message: string) => {
    log.warning(message);
    events?.warn(message);
  };
  const written: Written = { outputs: {} };
  /** The stream's last line: what --json would print, and how the run ended. */
  const end = (exitCode: number): number => {
    const error = written.error === undefined ? undefined : redact(written.error);
    events?.result({ exitCode, outputs: outputsJson(written.outputs, error), error });
    return exitCode;
  };
  try {
    return end(
      await runRequest(request, world, {
        command,
        log,
        warn,
        redact,
        redactor,
        written,
        events,
        end,
      }),
    );
  } catch (error) {
    // Not an expected failure (those are in the outcome): the stream still ends with a result.
    written.error ??= describeError(error);
    end(EXIT.failed);
    throw error;
  }
}

interface RunContext {
  command: RunCommand;
  log: StderrLog;
  warn: (message: string) => void;
  redact: (text: string) => string;
  redactor: Redactor;
  written: Written;
  events: EventStream | undefined;
  end: (exitCode: number) => number;
}

/** Reads the request's inputs and runs it; its exit status. */
async function runRequest(
  request: CliRequest,
  world: CliWorld,
  { command, log, warn, redact, redactor, written, events, end }: RunContext,
): Promise<number> {
  const ci = describeCiRun(world.env, world.cwd);
  const run = runDescription(ci, world.cwd);
  const read = (name: keyof CliRequest['inputs']) => request.inputs[name];
  let prepared;
  try {
    prepared = readCommandRequest(command, read, run);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    written.error = describeInputError(error, request, ci);
    log.error(written.error);
    writeResults(request, written, undefined, world, log, redact, warn);
    return EXIT.usage;
  }
  if (command === 'deploy') log.info(describeRun(ci));
  const controller = new AbortController();
  const stopListening = world.onSignal((signal) => {
    if (controller.signal.aborted) {
      log.close();
      written.error ??= `received ${signal} again: quit at once`;
      world.exit(end(EXIT.interrupted));
      return;
    }
    warn(`received ${signal}: stopping (again to quit at once)`);
    controller.abort();
  });
  let outcome;
  try {
    outcome = await runCommandRequest(prepared, {
      run,
      proxy: proxySettingsFrom(world.env),
      pace: paceFrom(world.env),
      words: commandWords(world.env.GITLAB_CI === 'true'),
      commitOrder: checkoutCommitOrder({ cwd: world.cwd, env: world.env }),
      clock: systemClock,
      signal: controller.signal,
      mask: (value) => redactor.add(value),
      redact,
      views: [
        log.view,
        (event) => {
          if (event.kind === 'outputs') written.outputs = { ...written.outputs, ...event.outputs };
        },
        ...(events === undefined ? [] : [events.sink]),
      ],
    });
  } finally {
    stopListening();
    log.close();
  }
  if (outcome.stack !== undefined) log.debug(outcome.stack);
  written.error = outcome.failure;
  const interrupted = controller.signal.aborted;
  if (outcome.failure !== undefined) log.error(outcome.failure);
  const filesWritten = writeResults(request, written, outcome.summary, world, log, redact, warn);
  if (interrupted) return EXIT.interrupted;
  // The inputs were checked above: a failure now is the deploy's.
  if (outcome.failure !== undefined) return EXIT.failed;
  return filesWritten ? EXIT.done : EXIT.failed;
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
      return isRunCommand(command)
        ? runCommand(request, command, world)
        : runFleet(command, request, world);
    }
  }
}
