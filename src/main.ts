/**
 * The action's run: read the plan, deploy, wait, report. Wires the flow to
 * @actions/core; all the logic lives in the modules it calls.
 */
import * as core from '@actions/core';
import { ServiceClient, systemClock, type Logger } from './client.js';
import { deploy, type DeployResult } from './deploy.js';
import { ActionError, CancelledError, describeError } from './errors.js';
import { readPlan, type Plan } from './inputs.js';
import { Redactor } from './redact.js';
import { dryRunReport, outputsOf, summaryHtml, type OutputName, type Outputs } from './report.js';
import type { Deployment } from './schemas.js';
import { DEFAULT_WAIT, WaitError, waitForReady } from './wait.js';

/*
 * The run's context is read from GITHUB_REPOSITORY and GITHUB_SHA directly:
 * @actions/github would give the same two values, but loads Octokit and a
 * second HTTP client at start-up, about 7 ms (bench/README.md).
 */

/** Inputs whose raw text is masked before it is even parsed. */
const SENSITIVE_INPUTS = ['api-key', 'headers', 'secrets'] as const;

/** Sets each output once it is known, again only when its value changes. */
class OutputWriter {
  readonly #written = new Map<OutputName, string>();
  readonly #redactor: Redactor;

  constructor(redactor: Redactor) {
    this.#redactor = redactor;
  }

  set(outputs: Outputs): void {
    for (const [name, value] of Object.entries(outputs) as [OutputName, string][]) {
      const safe = this.#redactor.redact(value);
      if (this.#written.get(name) === safe) continue;
      this.#written.set(name, safe);
      core.setOutput(name, safe);
    }
  }
}

function logger(redactor: Redactor): Logger {
  return {
    info: (message) => core.info(redactor.redact(message)),
    warning: (message) => core.warning(redactor.redact(message)),
    // Formatted and written only when the runner shows debug lines (RUNNER_DEBUG=1).
    debug: (message) => {
      if (core.isDebug()) core.debug(redactor.redact(message));
    },
  };
}

/** Masks a value for the runner and for this action's own redaction. */
function mask(redactor: Redactor, value: string): void {
  for (const fresh of redactor.add(value)) core.setSecret(fresh);
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
  // Before anything is parsed or logged: the raw text, and each of its lines.
  for (const name of SENSITIVE_INPUTS) mask(redactor, core.getInput(name));
  const log = logger(redactor);
  const outputs = new OutputWriter(redactor);
  const controller = new AbortController();
  const stopListening = onCancel(controller);
  const clock = systemClock;
  let plan: Plan | undefined;
  let result: DeployResult | undefined;
  let latest: Deployment | undefined;
  let failure: string | undefined;
  try {
    const current = readPlan((name) => core.getInput(name), {
      workspace: process.env.GITHUB_WORKSPACE ?? process.cwd(),
      repository: process.env.GITHUB_REPOSITORY,
    });
    plan = current;
    for (const value of current.sensitiveValues) mask(redactor, value);
    const client = new ServiceClient({
      baseUrl: plan.apiUrl,
      headers: plan.headers,
      clock,
      logger: log,
      signal: controller.signal,
    });
    const dependencies = { client, clock, logger: log, signal: controller.signal };
    result = await deploy(plan, dependencies, {
      group: (name, phase) => core.group(name, phase),
      onDeployment: (known) => outputs.set(outputsOf(known)),
    });
    latest = result.deployment;

    if (plan.dryRun) log.info(dryRunReport(result));
    const known = result;
    const { deployment } = known;
    if (plan.waitForReady && plan.dryRun) {
      log.info('dry run: not waiting for READY');
    } else if (plan.waitForReady && deployment !== undefined) {
      latest = await core.group(`Waiting for '${plan.name}' to be READY`, () =>
        waitForReady(
          deployment,
          { ...DEFAULT_WAIT, timeoutMs: current.waitTimeoutSeconds * 1000 },
          {
            ...dependencies,
            onPoll: (seen) => {
              latest = seen;
              outputs.set(outputsOf(known, seen));
            },
          },
        ),
      );
      log.info(`'${plan.name}' is READY`);
    }
    if (latest !== undefined) {
      log.info(
        `${result.created ? 'created' : 'reused'} deployment '${plan.name}': ${latest.id} (${latest.status})`,
      );
    }
  } catch (error) {
    if (error instanceof WaitError) latest = error.deployment;
    if (result !== undefined) outputs.set(outputsOf(result, latest));
    const message =
      error instanceof CancelledError
        ? `The run was cancelled${latest !== undefined ? ` while deployment ${latest.id} was ${latest.status}` : ''}; the outputs hold what was known.`
        : redactor.redact(describeError(error));
    if (!(error instanceof ActionError) && error instanceof Error && error.stack) {
      log.debug(error.stack);
    }
    core.setFailed(message);
    failure = message;
  } finally {
    stopListening();
  }
  if (plan !== undefined) {
    const html = summaryHtml({
      plan,
      result,
      deployment: latest,
      failure,
      commit: process.env.GITHUB_SHA,
    });
    await writeSummary(redactor.redact(html));
  }
}
