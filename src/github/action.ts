/**
 * The action's run, wired to the runner through @actions/core (the only
 * module that imports it): masks the sensitive inputs, runs the pipeline,
 * then fails the step or not, and writes the job summary.
 */
import * as core from '@actions/core';
import * as github from '@actions/github';
import { SENSITIVE_INPUT_NAMES } from '../inputs/declared.js';
import { describeError } from '../common/errors.js';
import { pipeline } from '../run/pipeline.js';
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
  const record = await pipeline({
    read: (name) => core.getInput(name),
    environment: {
      workspace: process.env.GITHUB_WORKSPACE ?? process.cwd(),
      repository: process.env.GITHUB_REPOSITORY,
      // The context reads GITHUB_EVENT_NAME, GITHUB_REF and GITHUB_SHA, unset outside a runner.
      event: {
        name: context.eventName ?? '',
        ref: context.ref ?? '',
        sha: context.sha ?? '',
        payload: context.payload,
      },
    },
    env: process.env,
    logger: log,
    clock: systemClock,
    signal: controller.signal,
    group: (name, phase) => core.group(name, phase),
    mask,
    redact: (text) => redactor.redact(text),
    setOutputs: outputWriter(),
  });
  stopListening();
  if (record.stack !== undefined) log.debug(record.stack);
  if (record.failure !== undefined) core.setFailed(record.failure);
  if (record.plan !== undefined) {
    const html = summaryHtml({
      plan: record.plan,
      result: record.result,
      deployment: record.deployment,
      liveness: record.liveness,
      target: record.goal?.target?.sha,
      drift: record.goal?.drift,
      failure: record.failure,
      commit: context.sha,
    });
    await writeSummary(redactor.redact(html));
  }
}
