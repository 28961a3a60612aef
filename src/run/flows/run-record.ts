/**
 * What the run knows at any point, kept in one record: it sets the outputs as soon as they
 * are known, and the summary is written from it, whether the run succeeded or not.
 */
import { ActionError, CancelledError, describeError } from '../../common/errors.js';
import { untrusted } from '../../common/runtime.js';
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';
import { shownDrift, type Liveness } from '../ports/findings.js';
import type { RunReport, Stage } from '../ports/progress.js';
import type { DeployResult } from '../decisions/deploy.js';
import { unbuiltIn, type Goal } from '../decisions/goal.js';
import { healthNotMade } from '../decisions/health.js';
import { latestCommit } from '../decisions/live.js';
import type { DeploymentSummary } from '../ports/summaries.js';
import { dashboardUrlOf, outputsOf, type Outputs } from '../decisions/report.js';

/** The stack of an unexpected error, for the debug log: an ActionError says all in its message. */
export function stackOf(error: unknown): { stack?: string } {
  return error instanceof Error && !(error instanceof ActionError) ? { stack: error.stack } : {};
}

/** The outcome of a run that threw: its message (redacted, then `after`), and `stackOf`. */
export function failedWith(error: unknown, redact: (text: string) => string, after = '') {
  return { failure: redact(`${describeError(error)}${after}`), ...stackOf(error) };
}

/** How a run about one deployment ends: why it failed (redacted), and an unexpected error's stack. */
export abstract class RunEnding {
  protected failure?: string;
  #stack?: string;
  /** The run was cancelled (SIGINT, SIGTERM). */
  protected cancelled = false;
  /** The latest state seen. */
  protected deployment?: Deployment;
  /** Decided by the flow and the wait (`decideLive`), never here. */
  protected liveness?: Liveness;

  /** Runs `work`: why the step fails on the deployment (`stepFailure`), or what it threw. */
  async settle(
    work: () => Promise<string | undefined>,
    redact: (text: string) => string,
  ): Promise<void> {
    try {
      const failure = await work();
      if (failure !== undefined) this.failure = redact(failure);
    } catch (error) {
      this.#failed(error, redact);
    }
  }

  /** A cancel says in which state it left the deployment. */
  #failed(error: unknown, redact: (text: string) => string): void {
    const { deployment } = this;
    this.cancelled = error instanceof CancelledError;
    if (!this.cancelled) {
      this.failure = redact(describeError(error));
      this.#stack = stackOf(error).stack;
      return;
    }
    const state =
      deployment === undefined
        ? ''
        : ` while deployment ${deployment.id} was ${untrusted(deployment.status)}`;
    this.failure = `The run was cancelled${state}; the outputs hold what was known.`;
  }

  outcome<S>(summary: S): { failure?: string; stack?: string; summary: S } {
    return { failure: this.failure, stack: this.#stack, summary };
  }
}

type SetOutputs = (outputs: Outputs, deployment: DeploymentSummary) => void;

export class RunRecord extends RunEnding {
  readonly spec: DeploySpec;
  /** What a create would send, before any deployment is found. */
  #request?: DeploymentCreateRequest;
  #result?: DeployResult;
  #goal?: Goal;
  /** The adapter was told the deployment was found or created: it is told how the run ends. */
  #reported = false;
  /** By revision id: the commit of each revision the run saw live (latest and active). */
  readonly #liveCommits = new Map<string, string>();
  readonly #setOutputs: SetOutputs;

  constructor(spec: DeploySpec, setOutputs: SetOutputs) {
    super();
    this.spec = spec;
    this.#setOutputs = setOutputs;
  }

  /** The moment the service answers the create: the outputs name it whatever fails after. */
  created(result: DeployResult & { deployment: Deployment }): void {
    this.#result = result;
    this.seen(result.deployment, undefined);
  }

  /** `liveness`: none when a dry run would create the deployment. */
  deployed(result: DeployResult, goal: Goal, liveness: Liveness | undefined): void {
    this.#result = result;
    this.#goal = goal;
    this.seen(result.deployment, liveness);
  }

  get #drift() {
    return (this.#goal?.drift ?? []).map(shownDrift);
  }

  #stillLive(deployment: Deployment | undefined): RunReport['stillLive'] {
    const active = deployment?.active_revision_id ?? null;
    if (deployment === undefined || active === null || active === deployment.latest_revision_id)
      return undefined;
    return { revision: active, commit: this.#liveCommits.get(active) };
  }

  seen(deployment: Deployment | undefined, liveness: Liveness | undefined): void {
    const active = deployment?.active_revision_id ?? null;
    const commit = deployment === undefined ? undefined : latestCommit(deployment);
    if (active !== null && active === deployment?.latest_revision_id && commit !== undefined) {
      this.#liveCommits.set(active, commit);
    }
    if (this.#result === undefined) return;
    if (deployment !== undefined) {
      this.deployment = deployment;
      this.liveness = liveness;
    }
    const live = this.liveness?.live === true;
    const assessment = { live, drift: this.#drift, health: this.liveness?.health };
    const outputs = outputsOf(this.#result, this.deployment, assessment, this.spec.dashboardUrl);
    this.#setOutputs(outputs, this.summary(undefined));
  }

  report(stage: Stage, waitingFor?: string): RunReport {
    const { spec } = this;
    const [deployment, goal, verdict] = [this.deployment, this.#goal, this.liveness];
    return {
      name: spec.name,
      stage,
      id: deployment?.id,
      status: deployment?.status,
      created: this.#result?.created,
      // A target the deployment will not build is still the commit the step asked for.
      targetCommit: goal?.target?.sha ?? unbuiltIn(goal?.drift ?? [])?.wanted,
      liveCommit: deployment === undefined ? undefined : latestCommit(deployment),
      supersededBy: verdict?.live === true ? verdict.supersededBy : undefined,
      stillLive: verdict?.live === true ? undefined : this.#stillLive(deployment),
      waitingFor: waitingFor ?? (verdict?.live === false ? verdict.missing : undefined),
      never: verdict?.live === false && verdict.final === true,
      failure: this.failure,
      drift: this.#drift,
      url: deployment?.source_config.custom_url ?? undefined,
      health: verdict?.health,
      dashboardUrl:
        deployment === undefined ? undefined : dashboardUrlOf(spec.dashboardUrl, deployment),
    };
  }

  get stage(): Stage {
    if (this.cancelled) return 'cancelled';
    if (this.failure !== undefined) return 'failed';
    return this.liveness?.live === true ? 'live' : 'not-live';
  }

  requested(request: DeploymentCreateRequest): void {
    this.#request = request;
  }

  get reported(): boolean {
    return this.#reported;
  }

  /** True once, when the run first has a deployment to tell the adapter of; never in a dry run. */
  toReport(): boolean {
    if (this.#reported || this.deployment === undefined || this.spec.dryRun) return false;
    this.#reported = true;
    return true;
  }

  /** What the summary shows: the adapter renders it, removing secret values there. */
  summary(commit: string | undefined): DeploymentSummary {
    const { name, source, dryRun, dashboardUrl } = this.spec;
    return {
      spec: { name, source, dryRun, dashboardUrl },
      result: this.#result,
      request: this.#request,
      deployment: this.deployment,
      liveness: this.liveness,
      healthNotMade: healthNotMade(this.spec, this.liveness),
      target: this.#goal?.target?.sha,
      drift: this.#goal?.drift.map(shownDrift),
      failure: this.failure,
      commit,
    };
  }
}
