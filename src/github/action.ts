/**
 * The action's run on a GitHub runner, wired through @actions/core and
 * @actions/github (only src/github/ imports them): masks the sensitive
 * inputs, describes the run from the event, runs the pipeline, then fails
 * the step or not, and writes the job summary the pipeline returns.
 */
import * as core from '@actions/core';
import * as github from '@actions/github';
import { SENSITIVE_INPUT_NAMES } from '../inputs/declared.js';
import { describeError } from '../common/errors.js';
import { pipeline } from '../run/pipeline.js';
import type { ProxySettings } from '../service/proxy.js';
import { describeRun } from './event.js';
import type { OutputName, Outputs } from '../run/report.js';
import { summaryHtml } from '../run/report.js';
import { Redactor } from '../common/redact.js';
import { neutraliseCommands, systemClock, type Logger } from '../common/runtime.js';

/** Sets each output, again only when its value changes. Outputs are data: no substring redaction. */
function outputWriter(): (outputs: Outputs) => void {
  const written = new Map<OutputName, string>();
  return (outputs) => {
    for (const [name, value] of Object.entries(outputs) as [OutputName, string][]) {
      if (written.get(name) === value) continue;
      written.set(name, value);
      core.setOutput(name, value);
    }
  };
}

function logger(redactor: Redactor): Logger {
  return {
    info: (message) => core.info(neutraliseCommands(redactor.redact(message))),
    notice: (message) => core.notice(redactor.redact(message)),
    warning: (message) => core.warning(redactor.redact(message)),
    // Formatted and written only when the runner shows debug lines (RUNNER_DEBUG=1).
    debug: (message) => {
      if (core.isDebug()) core.debug(redactor.redact(message));
    },
  };
}

/** The proxy variables as undici reads them: the lower-case name first. */
function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  return {
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
}

/** Cancels the run on SIGINT/SIGTERM (a cancelled workflow); a second signal ends it at once. */
function onCancel(controller: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(1);
    core.warning(`received ${signal}: cancelling`);
    controller.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

async function writeSummary(html: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary.addRaw(html).write();
  } catch (error) {
    core.warning(`could not write the job summary: ${describeError(error)}`);
  }
}

export async function run(): Promise<void> {
  const redactor = new Redactor();
  const mask = (value: string) => {
    for (const fresh of redactor.add(value)) core.setSecret(fresh);
  };
  // Before anything is parsed or logged: the raw text, and each of its lines.
  for (const name of SENSITIVE_INPUT_NAMES) mask(core.getInput(name));
  const log = logger(redactor);
  const controller = new AbortController();
  const stopListening = onCancel(controller);
  const { context } = github;
  // The context reads GITHUB_EVENT_NAME, GITHUB_REF and GITHUB_SHA, unset outside a runner.
  const event = {
    name: context.eventName ?? '',
    ref: context.ref ?? '',
    sha: context.sha ?? '',
    payload: context.payload,
  };
  const outcome = await pipeline({
    read: (name) => core.getInput(name),
    run: describeRun(event, process.env, process.cwd()),
    proxy: proxySettings(process.env),
    logger: log,
    clock: systemClock,
    signal: controller.signal,
    group: (name, phase) => core.group(name, phase),
    mask,
    redact: (text) => redactor.redact(text),
    setOutputs: outputWriter(),
  });
  stopListening();
  if (outcome.stack !== undefined) log.debug(outcome.stack);
  if (outcome.failure !== undefined) core.setFailed(outcome.failure);
  if (outcome.summary !== undefined) {
    await writeSummary(redactor.redact(summaryHtml(outcome.summary)));
  }
}
