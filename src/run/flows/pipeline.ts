/**
 * The run as a pipeline: plan → deploy → wait → report. Each step is
 * a function that returns a value; what is known so far is kept in one
 * `RunRecord`, which sets the outputs as soon as they are known and is what
 * the job summary is written from, whether the run succeeded or not.
 */
import { ActionError, CancelledError, describeError } from '../../common/errors.js';
import { isRedactable } from '../../common/redact.js';
import { untrusted, type Clock, type Logger } from '../../common/runtime.js';
import { plural, shortSha } from '../../common/text.js';
import type { Plan } from '../../inputs/plan.js';
import type { RunDescription } from '../../inputs/run-description.js';
import { ServiceClient } from '../../service/client.js';
import { Service } from '../../service/endpoints.js';
import { proxyDispatcher, type ProxySettings } from '../../service/proxy.js';
import type { Deployment } from '../../service/schemas.js';
import { deploy, RenamedError, type DeployResult } from '../steps/deploy.js';
import { inGroup, type Group, type RunDependencies } from '../ports/dependencies.js';
import { showValue } from '../steps/drift.js';
import { assess, blockedRemedy, blockedText, livenessFor, type Goal } from '../steps/goal.js';
import { latestCommit, type Liveness } from '../steps/live.js';
import type {
  AskCommitOrder,
  ReportPlan,
  ReportRetired,
  RunProgress,
  RunReport,
  Stage,
} from '../ports/progress.js';
import {
  dashboardUrlOf,
  dryRunReport,
  outputsOf,
  type Outputs,
  summaryHtml,
} from '../steps/report.js';
import type { RemedyWords } from '../../service/answers.js';
import type { Pace } from '../ports/pace.js';
import { DEFAULT_WAIT, WaitError, waitUntilLive } from '../steps/wait.js';

/** What the pipeline needs from where it runs, passed in by the adapter (src/github/). */
export interface RunnerIO {
  /** The run the inputs were read for: workspace, repository, the head it is for. */
  run: RunDescription;
  /** The proxy the requests go through, if any. */
  proxy: ProxySettings;
  logger: Logger;
  clock: Clock;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  group: Group;
  /** Masks a value for the runner and for the action's own redaction. */
  mask: (value: string) => void;
  redact: (text: string) => string;
  /** Sets outputs: the deploy's (`Outputs`), or another entry's. */
  setOutputs: (outputs: Readonly<Partial<Record<string, string>>>) => void;
  /** Told when the deployment is found or created, and when the run ends. */
  progress?: RunProgress;
  /** Shown the plan (the plan comment), when the adapter has somewhere to show it. */
  planned?: ReportPlan;
  /** Retires a preview where the adapter showed it (its records and its comment). */
  retired?: ReportRetired;
  /** Asked which of two commits is newer, when the deployment's is not the target. */
  commitOrder?: AskCommitOrder;
  /** The back-off between attempts and the wait's schedule; the defaults when absent. */
  pace?: Pace;
  /** How a remedy names the key, the headers and the integration id; the action's inputs when absent. */
  words?: RemedyWords;
}

/** What the run knows at any point, for the outputs and the summary. */
export class RunRecord {
  readonly plan: Plan;
  result?: DeployResult;
  goal?: Goal;
  /** The deployment's latest state (after waiting, when the run waited). */
  deployment?: Deployment;
  /** Why the run failed, already redacted. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  /** The run was cancelled (SIGINT, SIGTERM). */
  cancelled = false;
  /** The adapter was told the deployment was found or created: it is told how the run ends. */
  reported = false;
  readonly #setOutputs: (outputs: Outputs) => void;
  /** The summary names the found deployment's source (`status` reads a placeholder one). */
  readonly #sourceFromDeployment: boolean;

  constructor(
    plan: Plan,
    setOutputs: (outputs: Outputs) => void,
    { sourceFromDeployment = false } = {},
  ) {
    this.plan = plan;
    this.#setOutputs = setOutputs;
    this.#sourceFromDeployment = sourceFromDeployment;
  }

  /** Whether the deployment is live now, and how. */
  get liveness(): Liveness | undefined {
    if (this.deployment === undefined || this.goal === undefined) return undefined;
    return livenessFor(this.deployment, this.goal);
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
      outputsOf(
        this.result,
        this.deployment,
        {
          live: this.liveness?.live === true,
          drift: this.goal?.drift ?? [],
        },
        this.plan.dashboardUrl,
      ),
    );
  }

  /** The run in the core's words, for the adapter's progress hooks. */
  report(stage: Stage, waitingFor?: string): RunReport {
    const { plan, result, deployment, goal } = this;
    const verdict = this.liveness;
    return {
      name: plan.name,
      stage,
      id: deployment?.id,
      status: deployment?.status,
      created: result?.created,
      // A target the deployment will not build is still the commit the step asked for.
      targetCommit: goal?.target?.sha ?? goal?.unbuilt?.wanted,
      liveCommit: deployment === undefined ? undefined : latestCommit(deployment),
      supersededBy: verdict?.live === true ? verdict.supersededBy : undefined,
      waitingFor: waitingFor ?? (verdict?.live === false ? verdict.missing : undefined),
      never: verdict?.live === false && verdict.final === true,
      failure: this.failure,
      drift: goal?.drift ?? [],
      url: deployment?.source_config.custom_url ?? undefined,
      dashboardUrl:
        deployment === undefined ? undefined : dashboardUrlOf(plan.dashboardUrl, deployment),
    };
  }

  /** How the run ended, for the last report. */
  get stage(): Stage {
    if (this.cancelled) return 'cancelled';
    if (this.failure !== undefined) return 'failed';
    return this.liveness?.live === true ? 'live' : 'not-live';
  }

  failed(error: unknown, redact: (text: string) => string): void {
    if (error instanceof WaitError) this.seen(error.deployment);
    // What was created is known: the outputs say it, so a person can remove it.
    if (error instanceof RenamedError) {
      this.result = error.created;
      this.seen(error.created.deployment);
    }
    this.cancelled = error instanceof CancelledError;
    const state =
      this.deployment === undefined
        ? ''
        : ` while deployment ${this.deployment.id} was ${untrusted(this.deployment.status)}`;
    this.failure =
      error instanceof CancelledError
        ? `The run was cancelled${state}; the outputs hold what was known.`
        : redact(describeError(error));
    if (!(error instanceof ActionError) && error instanceof Error) this.stack = error.stack;
  }

  /** The job summary, secret values redacted; undefined when `status` found no deployment. */
  summary(commit: string | undefined, redact: (text: string) => string): string | undefined {
    if (this.#sourceFromDeployment && this.deployment === undefined) return undefined;
    const source = this.#sourceFromDeployment ? this.deployment?.source : undefined;
    return summaryHtml({
      plan: source === undefined ? this.plan : { ...this.plan, source },
      result: this.result,
      deployment: this.deployment,
      liveness: this.liveness,
      target: this.goal?.target?.sha,
      drift: this.goal?.drift,
      failure: this.failure,
      commit,
      redact,
    });
  }
}

/** How a run ended: all the adapter reports, and all the summary shows. */
export interface RunOutcome {
  /** Why the run failed, already redacted; undefined when it succeeded. */
  failure?: string;
  /** The stack of an unexpected error, for the debug log. */
  stack?: string;
  /** The job summary as HTML, secret values redacted; undefined when there is nothing to show. */
  summary?: string;
}

export function dependenciesOf(
  plan: Pick<Plan, 'apiUrl' | 'headers'>,
  io: RunnerIO,
): RunDependencies {
  const { logger, clock, signal, group } = io;
  const client = new ServiceClient({
    baseUrl: plan.apiUrl,
    headers: plan.headers,
    clock,
    logger,
    signal,
    redact: io.redact,
    dispatcher: proxyDispatcher(io.proxy),
    ...(io.pace === undefined ? {} : { retry: io.pace.retry }),
    ...(io.words === undefined ? {} : { words: io.words }),
  });
  return {
    service: new Service(client, logger, { mask: io.mask }),
    logger,
    clock,
    signal,
    group,
    ...(io.pace === undefined ? {} : { wait: io.pace.wait }),
  };
}

/** Why a targeted commit is drift: the deployment will not build it. */
const BUILD_OFF = 'build_on_push is off: the service will not build this commit';

/**
 * One warning a difference. A difference in what runs (behaviour 21) fails
 * the step at once when it waits, else it is one more warning; `on-drift`
 * decides for the rest, after all are reported.
 */
function reportDrift(
  plan: Plan,
  goal: Goal,
  waits: boolean,
  logger: Logger,
  words: RemedyWords,
): void {
  const { drift, blocked } = goal;
  for (const entry of drift) {
    const note = entry === goal.unbuilt ? ` (${BUILD_OFF})` : '';
    logger.warning(
      `drift: ${untrusted(entry.field)}: the step wants ${showValue(entry.wanted)}, the deployment has ${showValue(entry.live)}${note}`,
    );
  }
  if (blocked.length > 0) {
    const message = `Deployment '${plan.name}' is not live and will not be: ${blockedText(goal)}. ${blockedRemedy(goal)}`;
    if (waits) throw new ActionError(message);
    logger.warning(message);
  }
  const rest = drift.filter((entry) => !blocked.includes(entry));
  if (rest.length === 0) return;
  const fields = rest.map((entry) => untrusted(entry.field)).join(', ');
  const advice = `The service cannot update a deployment: change ${plural(rest.length, 'it', 'them')} in the service, or deploy under a new name.`;
  if (plan.onDrift === 'fail') {
    throw new ActionError(
      `Deployment '${plan.name}' differs from what the step asks for (${words.onDriftFail}): ${fields}. ${advice}`,
    );
  }
  logger.info(
    `${rest.length} ${plural(rest.length, 'difference')} not applied: ${fields}. ${advice}`,
  );
}

/** Says which commit is live when another one superseded the target. */
function noteSuperseded(goal: Goal, verdict: Liveness, logger: Logger): void {
  if (!verdict.live || verdict.supersededBy === undefined || goal.target === undefined) return;
  const newer =
    goal.orders.of(verdict.supersededBy) === 'newer' ? 'a newer commit' : 'a newer push';
  logger.info(
    `commit ${shortSha(goal.target.sha)} was superseded by ${newer}: commit ${shortSha(untrusted(verdict.supersededBy))} is live instead`,
  );
}

/** Without a wait (not asked for, or a dry run): says when the target is not live yet. */
function noteLiveness(plan: Plan, deployment: Deployment, goal: Goal, logger: Logger): void {
  if (plan.waitForReady) logger.info('dry run: not waiting');
  const verdict = livenessFor(deployment, goal);
  noteSuperseded(goal, verdict, logger);
  // A deployment that will never run the target was already said so, in a warning.
  if (!verdict.live && goal.target !== undefined && goal.blocked.length === 0) {
    logger.notice(`commit ${shortSha(goal.target.sha)} is not live yet: ${verdict.missing}`);
  }
}

/** Waits, in a log group, until the deployment is live; the deployment as it ends up. */
export async function waitForLive(
  plan: Plan,
  deployment: Deployment,
  goal: Goal,
  dependencies: RunDependencies,
): Promise<Deployment> {
  const { logger } = dependencies;
  const what = goal.target === undefined ? '' : ` with commit ${shortSha(goal.target.sha)}`;
  const { deployment: live, verdict } = await inGroup(dependencies)(
    `Waiting until '${plan.name}' is live${what}`,
    () =>
      waitUntilLive(
        deployment,
        goal,
        { ...(dependencies.wait ?? DEFAULT_WAIT), timeoutMs: plan.waitTimeoutSeconds * 1000 },
        dependencies,
      ),
  );
  noteSuperseded(goal, verdict, logger);
  logger.info(`'${plan.name}' is live`);
  return live;
}

/**
 * Masks every sensitive value of the plan; one warning for each secret too
 * short or common to hide in text (`4`, `true`): it is sent, outputs redact
 * it by structure, but the service's own messages may show it.
 */
export function maskPlan(plan: Plan, io: RunnerIO): void {
  for (const value of plan.sensitiveValues) io.mask(value);
  for (const secret of plan.secrets) {
    if (isRedactable(secret.value)) continue;
    io.logger.warning(
      `the value of secret ${secret.name} is too short or common to redact in text: outputs hide it, but it cannot be hidden in the service's own messages. Prefer a longer value if it is sensitive.`,
    );
  }
}

/** What the step waits for, said once the deployment is found or created. */
function waitingFor(goal: Goal, waits: boolean): string | undefined {
  if (!waits) return undefined;
  return goal.target === undefined
    ? 'the deployment to be live'
    : `commit ${shortSha(goal.target.sha)} to be live`;
}

/** The steps of a run, each feeding the record; throws on any failure. */
async function steps(plan: Plan, io: RunnerIO, record: RunRecord): Promise<void> {
  maskPlan(plan, io);
  const dependencies = dependenciesOf(plan, io);
  const result = await deploy(plan, dependencies);
  const goal = await assess(plan, result, io.logger, io.commitOrder);
  record.deployed(result, goal);
  if (plan.dryRun) io.logger.info(dryRunReport(result));
  const found = result.deployment;
  const waits = found !== undefined && plan.waitForReady && !plan.dryRun;
  if (found !== undefined && !plan.dryRun) {
    record.reported = true;
    io.progress?.deployed(record.report('deploying', waitingFor(goal, waits)));
  }
  reportDrift(plan, goal, waits, io.logger, dependencies.service.words);
  if (found !== undefined && !waits) noteLiveness(plan, found, goal, io.logger);
  const deployment = waits
    ? await waitForLive(plan, found, goal, {
        ...dependencies,
        onPoll: (seen) => record.seen(seen),
      })
    : found;
  record.seen(deployment);
  if (deployment !== undefined) {
    io.logger.info(
      `${result.created ? 'created' : 'reused'} deployment '${plan.name}': ${deployment.id} (${untrusted(deployment.status)})`,
    );
  }
}

/** Deploys what the plan asks for; never throws: how it ended is in the outcome. */
export async function pipeline(plan: Plan, io: RunnerIO): Promise<RunOutcome> {
  const record = new RunRecord(plan, io.setOutputs);
  try {
    await steps(plan, io, record);
  } catch (error) {
    record.failed(error, io.redact);
  }
  if (record.reported) await io.progress?.finished(record.report(record.stage));
  const { failure, stack } = record;
  return { failure, stack, summary: record.summary(io.run.commit, io.redact) };
}
