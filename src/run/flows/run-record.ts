/**
 * What the run knows at any point, kept in one record: it sets the outputs as
 * soon as they are known, and the job summary is written from it, whether the
 * run succeeded or not.
 */
import { ActionError, CancelledError, describeError } from '../../common/errors.js';
import { untrusted } from '../../common/runtime.js';
import type { Plan } from '../../inputs/plan.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';
import type { RunReport, Stage } from '../ports/progress.js';
import { RenamedError, type DeployResult } from '../steps/deploy.js';
import { livenessFor, type Goal } from '../steps/goal.js';
import { latestCommit, type Liveness } from '../steps/live.js';
import type { DeploySummary } from '../ports/summaries.js';
import { dashboardUrlOf, outputsOf, type Outputs } from '../steps/report.js';
import { WaitError } from '../steps/wait.js';

/** What the run knows at any point, for the outputs and the summary. */
export class RunRecord {
  readonly plan: Plan;
  /** What a create would send, once the repository is resolved, before any deployment is found. */
  request?: DeploymentCreateRequest;
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
  /** The commit of each revision the run saw live (latest and active), by revision id. */
  readonly #liveCommits = new Map<string, string>();
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

  /** The revision that still serves while the latest is not active, with its commit if seen live. */
  #stillLive(deployment: Deployment | undefined): RunReport['stillLive'] {
    const active = deployment?.active_revision_id ?? null;
    if (deployment === undefined || active === null || active === deployment.latest_revision_id)
      return undefined;
    const commit = this.#liveCommits.get(active);
    return commit === undefined ? { revision: active } : { revision: active, commit };
  }

  seen(deployment: Deployment | undefined): void {
    const active = deployment?.active_revision_id ?? null;
    const commit = deployment === undefined ? undefined : latestCommit(deployment);
    if (active !== null && active === deployment?.latest_revision_id && commit !== undefined) {
      this.#liveCommits.set(active, commit);
    }
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
      stillLive: verdict?.live === true ? undefined : this.#stillLive(deployment),
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

  /**
   * What the summary shows (the adapter renders it, its `redact` removing
   * secret values there: `_redact` is no longer used); undefined when
   * `status` found no deployment.
   */
  summary(
    commit: string | undefined,
    _redact?: (text: string) => string,
  ): DeploySummary | undefined {
    if (this.#sourceFromDeployment && this.deployment === undefined) return undefined;
    const { name, dryRun, dashboardUrl } = this.plan;
    const source =
      (this.#sourceFromDeployment ? this.deployment?.source : undefined) ?? this.plan.source;
    return {
      kind: 'deploy',
      plan: { name, source, dryRun, dashboardUrl },
      result: this.result,
      request: this.request,
      deployment: this.deployment,
      liveness: this.liveness,
      target: this.goal?.target?.sha,
      drift: this.goal?.drift,
      failure: this.failure,
      commit,
    };
  }
}
