/**
 * A step on a GitHub runner, for every entry of the action: only
 * src/github/ imports @actions/*. @actions/core loads once the inputs are
 * read, Octokit on the first GitHub call, so a run that uses neither starts
 * without them.
 */
import type * as Core from '@actions/core';
import { ActionError, describeError } from '../common/errors.js';
import { Redactor } from '../common/redact.js';
import { neutraliseCommands, systemClock, type Logger } from '../common/runtime.js';
import { within } from '../common/summary.js';
import {
  isUnevaluated,
  readInputs,
  sensitiveNames,
  type Declarations,
  type InputValues,
} from '../inputs/declare.js';
import type { RunDescription } from '../inputs/run-description.js';
import { paceFrom, shortenedMs } from '../run/ports/pace.js';
import type { RunnerIO, RunOutcome } from '../run/ports/runner.js';
import { loadUndici, proxySettingsFrom, type ProxySettings } from '../service/proxy.js';
import { renderSummary } from '../views/summary.js';
import { stepLog } from './step-log.js';
import { WarningAnnotations } from './annotations.js';
import { RUN_BUDGET_MS } from './client/budget.js';
import { early, inputVariable } from './early-commands.js';
import { describeRun, gitHubRunContext } from './event.js';
import type { HookDependencies, MakeHooks } from './hooks.js';
import { readRunnerEvent } from './runner-event.js';
import { StepOutputs } from './step-outputs.js';

/** Where the warnings past GitHub's 10 annotations are, unless the entry says otherwise. */
const OTHER_WARNINGS =
  "every one is in the step's log; drift entries are also in the job summary and the step's `drift` output";

/** Each line through `redact`: the core's events are redacted where made, the step's own are not. */
function logger(
  core: typeof Core,
  annotations: WarningAnnotations,
  redact: (text: string) => string = (text) => text,
): Logger {
  return {
    info: (message) => core.info(neutraliseCommands(redact(message))),
    notice: (message) => core.notice(redact(message)),
    warning: (message) => annotations.warning(redact(message)),
    // Written only when the runner shows debug lines (RUNNER_DEBUG=1).
    debug: (message) => {
      if (core.isDebug()) core.debug(redact(message));
    },
  };
}

/** Cancels the run on SIGINT/SIGTERM (a cancelled workflow); a second signal ends the step at once. */
function onCancel(controller: AbortController, log: Logger): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(1);
    log.warning(`received ${signal}: cancelling`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

async function writeSummary(core: typeof Core, html: string, log: Logger): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    // Each summary is written within the budget; this holds it there after redaction too.
    await core.summary.addRaw(within(html)).write();
  } catch (error) {
    log.warning(`could not write the job summary: ${describeError(error)}`);
  }
}

/** Undefined when its variable is not set at all (`local-action`, an older action.yml): its default. */
function readInput(name: string): string | undefined {
  return process.env[inputVariable(name)] === undefined ? undefined : early.getInput(name);
}

/** One entry of the action (action.yml, and each sub-action's); `runStep` does the rest. */
interface GitHubEntry<D extends Declarations, Request> {
  /** The inputs its action.yml declares, in that order (the contract test checks them). */
  readonly inputs: D;
  /**
   * What the inputs, each read on its own, ask for; throws `InputError`
   * for inputs that do not fit each other. No request is sent before it.
   */
  readonly request: (inputs: InputValues<D>, run: RunDescription) => Request;
  readonly run: (request: Request, step: GitHubStep) => Promise<RunOutcome>;
  /**
   * Where its warnings beyond GitHub's annotations are, named by what this
   * entry writes (its own outputs); the deploy step's words when not given.
   */
  readonly otherWarnings?: string;
}

interface GitHubStep {
  /** What the core needs from the runner, with the entry's own GitHub hooks (deployHooks, ...). */
  io(hooks: MakeHooks): RunnerIO;
}

/** The inputs and proxy variables, all checked before any request. */
function readRequest<D extends Declarations, Request>(
  entry: GitHubEntry<D, Request>,
  run: RunDescription,
): { request: Request; proxy: ProxySettings } | { failure: string } {
  try {
    const request = entry.request(readInputs(entry.inputs, readInput, run), run);
    return { request, proxy: proxySettingsFrom(process.env) };
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    return { failure: describeError(error) };
  }
}

function hookDependencies(
  core: typeof Core,
  log: Logger,
  redactor: Redactor,
  outputs: StepOutputs,
): HookDependencies {
  return {
    logger: log,
    clock: systemClock,
    redact: (text) => redactor.redact(text),
    // Shorter for tests of a hanging GitHub only; never more than the run's 15 s.
    budgetMs: shortenedMs(process.env.DEPLOY_AGENT_GITHUB_BUDGET_MS, RUN_BUDGET_MS),
    onRecorded: (id) => core.setOutput('github-deployment-id', String(id)),
    refreshOutputs: outputs.refresh,
  };
}

/** Before anything is parsed or logged: each sensitive input's raw text, and each of its lines. */
function maskSensitiveInputs(inputs: Declarations, mask: (value: string) => void): void {
  for (const name of sensitiveNames(inputs)) {
    const raw = early.getInput(name);
    if (!isUnevaluated(raw)) mask(raw);
  }
}

/** Loaded once the inputs are read: a run that fails on them loads neither. */
async function loadRunWork(): Promise<typeof Core> {
  const [core] = await Promise.all([
    import(/* webpackMode: "eager" */ '@actions/core'),
    loadUndici(),
  ]);
  return core;
}

export async function runStep<D extends Declarations, Request>(
  entry: GitHubEntry<D, Request>,
): Promise<void> {
  const redactor = new Redactor();
  const mask = (value: string) => {
    for (const fresh of redactor.add(value)) early.setSecret(fresh);
  };
  maskSensitiveInputs(entry.inputs, mask);
  const event = readRunnerEvent(process.env);
  if (event.problem !== undefined && early.isDebug()) early.debug(redactor.redact(event.problem));
  const description = describeRun(event, process.env, process.cwd());
  const read = readRequest(entry, description);
  if ('failure' in read) {
    early.setFailed(redactor.redact(read.failure));
    return;
  }
  const core = await loadRunWork();
  const annotations = new WarningAnnotations({
    annotate: (message) => core.warning(message),
    line: (message) => core.info(neutraliseCommands(message)),
  });
  const log = logger(core, annotations, (text) => redactor.redact(text));
  const controller = new AbortController();
  const stopListening = onCancel(controller, log);
  const io = (makeHooks: MakeHooks): RunnerIO => {
    const outputs = new StepOutputs((name, value) => core.setOutput(name, value));
    const hooks = makeHooks(
      gitHubRunContext(event, process.env, description),
      hookDependencies(core, log, redactor, outputs),
    );
    outputs.additions = hooks.outputs;
    return {
      run: description,
      proxy: read.proxy,
      pace: paceFrom(process.env),
      clock: systemClock,
      signal: controller.signal,
      mask,
      redact: (text) => redactor.redact(text),
      views: [
        stepLog(logger(core, annotations), core),
        outputs.view,
        ...(hooks.view === undefined ? [] : [hooks.view]),
      ],
      commitOrder: hooks.commitOrder,
      retired: hooks.retired,
      pullRequestStates: hooks.pullRequestStates,
      changedFiles: hooks.changedFiles,
    };
  };
  const outcome = await entry.run(read.request, { io });
  stopListening();
  if (outcome.stack !== undefined) log.debug(outcome.stack);
  if (outcome.failure !== undefined) core.setFailed(outcome.failure);
  if (outcome.summary !== undefined) {
    const redact = (text: string) => redactor.redact(text);
    await writeSummary(core, redact(renderSummary(outcome.summary, redact)), log);
  }
  annotations.flush(entry.otherWarnings ?? OTHER_WARNINGS);
}
