/**
 * The run as a pipeline: inputs → plan → deploy → wait → report. Each step is
 * a function that returns a value; what is known so far is kept in one
 * `RunRecord`, which sets the outputs as soon as they are known and is what
 * the job summary is written from, whether the run succeeded or not.
 */
import { ServiceClient } from '../service/client.js';
import { proxyDispatcher, type ProxySettings } from '../service/proxy.js';
import { deploy, type DeployResult, type FlowDependencies } from './deploy.js';
import { findDrift, showValue, type DriftEntry } from './drift.js';
import { ActionError, CancelledError, describeError } from '../common/errors.js';
import { readPlan, type InputReader } from '../inputs/read-plan.js';
import {
  chooseTarget,
  latestCommit,
  liveness,
  trackedRef,
  type Liveness,
  type Target,
} from './live.js';
import type { Plan } from '../inputs/plan.js';
import type { RunDescription } from '../inputs/run-description.js';
import { isRedactable } from '../common/redact.js';
import { dryRunReport, outputsOf, type Outputs, type SummaryInput } from './report.js';
import type { Clock, Logger } from '../common/runtime.js';
import { shortSha } from '../common/text.js';
import type { Deployment } from '../service/schemas.js';
import { Service } from '../service/endpoints.js';
import { DEFAULT_WAIT, WaitError, waitUntilLive } from './wait.js';

/** What the pipeline needs from where it runs, passed in by the adapter (src/github/). */
export interface RunnerIO {
  read: InputReader;
  /** The run the inputs are read for: workspace, repository, the head it is for. */
  run: RunDescription;
  /** The proxy the requests go through, if any. */
  proxy: ProxySettings;
  logger: Logger;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  group: <T>(name: string, phase: () => Promise<T>) => Promise<T>;
  /** Masks a value for the runner and for the action's own redaction. */
  mask: (value: string) => void;
  redact: (text: string) => string;
  setOutputs: (outputs: Outputs) => void;
}

/** What the step asks of a deployment it found or created: the commit, and what it saw. */
export interface Goal {
  target?: Target;
  /** Revision ids the step saw when it found the deployment (none on create). */
  seenRevisions: ReadonlySet<string>;
  /** Differences from what the step asks for (reuse only). */
  drift: DriftEntry[];
}

/** What the run knows at any point, for the outputs and the summary. */
export class RunRecord {
  plan?: Plan;
  result?: DeployResult;
  goal?: Goal;
  /** The deployment's latest state (after waiting, when the run waited). */
  deployment?: Deployment;
  /** Why the run failed, already redacted. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  readonly #setOutputs: (outputs: Outputs) => void;

  constructor(setOutputs: (outputs: Outputs) => void) {
    this.#setOutputs = setOutputs;
  }

  /** Whether the deployment is live now, and how. */
  get liveness(): Liveness | undefined {
    if (this.deployment === undefined || this.goal === undefined) return undefined;
    return liveness(this.deployment, this.goal.target, this.goal.seenRevisions);
  }

  deployed(result: DeployResult, goal: Goal): void {
    this.result = result;
    this.goal = goal;
    this.seen(result.deployment);
  }

  seen(deployment: Deployment | undefined): void {
    if (this.result === undefined) return;
    this.deployment = deployment ?? this.deployment;
    this.#setOutputs(
      outputsOf(this.result, this.deployment, {
        live: this.liveness?.live === true,
        drift: this.goal?.drift ?? [],
      }),
    );
  }

  failed(error: unknown, redact: (text: string) => string): void {
    if (error instanceof WaitError) this.seen(error.deployment);
    const state =
      this.deployment === undefined
        ? ''
        : ` while deployment ${this.deployment.id} was ${this.deployment.status}`;
    this.failure =
      error instanceof CancelledError
        ? `The run was cancelled${state}; the outputs hold what was known.`
        : redact(describeError(error));
    if (!(error instanceof ActionError) && error instanceof Error) this.stack = error.stack;
  }

  /** What the job summary shows; undefined when the inputs could not be read. */
  summary(commit: string | undefined): SummaryInput | undefined {
    if (this.plan === undefined) return undefined;
    return {
      plan: this.plan,
      result: this.result,
      deployment: this.deployment,
      liveness: this.liveness,
      target: this.goal?.target?.sha,
      drift: this.goal?.drift,
      failure: this.failure,
      commit,
    };
  }
}

/** How a run ended: all the adapter reports, and all the summary shows. */
export interface RunOutcome {
  /** Why the run failed, already redacted; undefined when it succeeded. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  /** What the job summary shows; undefined when the inputs could not be read. */
  summary?: SummaryInput;
}

function dependencies(plan: Plan, io: RunnerIO): FlowDependencies {
  const { logger, clock, signal, group } = io;
  const client = new ServiceClient({
    baseUrl: plan.apiUrl,
    headers: plan.headers,
    clock,
    logger,
    signal,
    redact: io.redact,
    dispatcher: proxyDispatcher(io.proxy),
  });
  return { service: new Service(client, logger), logger, clock, signal, group };
}

/**
 * The commit target and the drift of what `deploy` found or created. A
 * reused deployment that will not build the target (`build_on_push` off,
 * another commit live) is drift, and the target is dropped.
 */
function assess(plan: Plan, result: DeployResult, logger: Logger): Goal {
  const { deployment, created, request } = result;
  const reused = !created && deployment !== undefined;
  const seenRevisions = new Set(
    reused
      ? [deployment.latest_revision_id, deployment.active_revision_id].filter((id) => id !== null)
      : [],
  );
  const drift = reused ? findDrift(plan, request, deployment) : [];
  if (plan.source !== 'codehost') return { seenRevisions, drift };
  const tracked = trackedRef(
    reused ? deployment : undefined,
    request.source_revision_config.repo_ref,
  );
  const target = chooseTarget(plan.commit, tracked, logger);
  if (!reused || target === undefined || deployment.source_config.build_on_push === true) {
    return { target, seenRevisions, drift };
  }
  const live = latestCommit(deployment);
  if (live === target.sha) return { target, seenRevisions, drift };
  drift.push({
    field: 'source_revision_config.repo_commit_sha',
    wanted: target.sha,
    live: live ?? null,
  });
  return { seenRevisions, drift };
}

/** One warning a difference; with `on-drift: fail`, the step fails after all are reported. */
function reportDrift(plan: Plan, drift: DriftEntry[], logger: Logger): void {
  for (const entry of drift) {
    const buildOff =
      entry.field === 'source_revision_config.repo_commit_sha'
        ? ' (build_on_push is off: the service will not build this commit, so the step does not wait for it)'
        : '';
    logger.warning(
      `drift: ${entry.field}: the step wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${buildOff}`,
    );
  }
  if (drift.length === 0) return;
  const fields = drift.map((entry) => entry.field).join(', ');
  const advice = `The service cannot update a deployment: change it in the service, or deploy under a new name.`;
  if (plan.onDrift === 'fail') {
    throw new ActionError(
      `Deployment '${plan.name}' differs from what the step asks for (on-drift: fail): ${fields}. ${advice}`,
    );
  }
  logger.info(`${drift.length} difference(s) not applied: ${fields}. ${advice}`);
}

/** Waits until live when asked; otherwise says whether it is. The deployment as it ends up. */
async function waitStep(
  plan: Plan,
  deployment: Deployment | undefined,
  goal: Goal,
  flow: FlowDependencies,
  record: RunRecord,
): Promise<Deployment | undefined> {
  if (deployment === undefined) return deployment;
  if (!plan.waitForReady || plan.dryRun) {
    if (plan.waitForReady) flow.logger.info('dry run: not waiting');
    const verdict = liveness(deployment, goal.target, goal.seenRevisions);
    if (!verdict.live && goal.target !== undefined) {
      flow.logger.notice(`commit ${shortSha(goal.target.sha)} is not live yet: ${verdict.missing}`);
    }
    return deployment;
  }
  const group = flow.group ?? ((_name, phase) => phase());
  const what = goal.target === undefined ? '' : ` with commit ${shortSha(goal.target.sha)}`;
  const { deployment: live, verdict } = await group(
    `Waiting until '${plan.name}' is live${what}`,
    () =>
      waitUntilLive(
        deployment,
        goal,
        { ...DEFAULT_WAIT, timeoutMs: plan.waitTimeoutSeconds * 1000 },
        { ...flow, onPoll: (seen) => record.seen(seen) },
      ),
  );
  if (verdict.supersededBy !== undefined && goal.target !== undefined) {
    flow.logger.info(
      `commit ${shortSha(goal.target.sha)} was superseded by a newer push: commit ${shortSha(verdict.supersededBy)} is live instead`,
    );
  }
  flow.logger.info(`'${plan.name}' is live`);
  return live;
}

/**
 * Masks every sensitive value of the plan; one warning for each secret too
 * short or common to hide in text (`4`, `true`): it is sent, outputs redact
 * it by structure, but the service's own messages may show it.
 */
function maskPlan(plan: Plan, io: RunnerIO): void {
  for (const value of plan.sensitiveValues) io.mask(value);
  for (const secret of plan.secrets) {
    if (isRedactable(secret.value)) continue;
    io.logger.warning(
      `the value of secret ${secret.name} is too short or common to redact in text: outputs hide it, but it cannot be hidden in the service's own messages. Prefer a longer value if it is sensitive.`,
    );
  }
}

/** Runs the action; never throws: how it ended is in the outcome. */
export async function pipeline(io: RunnerIO): Promise<RunOutcome> {
  const record = new RunRecord(io.setOutputs);
  try {
    const plan = readPlan(io.read, io.run);
    record.plan = plan;
    maskPlan(plan, io);
    const flow = dependencies(plan, io);
    const result = await deploy(plan, flow);
    const goal = assess(plan, result, io.logger);
    record.deployed(result, goal);
    if (plan.dryRun) io.logger.info(dryRunReport(result));
    reportDrift(plan, goal.drift, io.logger);
    const deployment = await waitStep(plan, result.deployment, goal, flow, record);
    record.seen(deployment);
    if (deployment !== undefined) {
      io.logger.info(
        `${result.created ? 'created' : 'reused'} deployment '${plan.name}': ${deployment.id} (${deployment.status})`,
      );
    }
  } catch (error) {
    record.failed(error, io.redact);
  }
  const { failure, stack } = record;
  return { failure, stack, summary: record.summary(io.run.commit) };
}
