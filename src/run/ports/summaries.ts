/**
 * What a run did, as a value the adapter has rendered (src/views/). Data only: no markup, no
 * escaping; secret values are removed where it is rendered, with the adapter's redaction.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';
import type { DriftEntry, HealthSeen } from './findings.js';
import type { PlanReport, RetireReport, Retirement } from './progress.js';

/** What the deploy found or created (a step's `DeployResult` is one). */
export interface DeployedResult {
  /** Absent only in a dry run that would create the deployment. */
  deployment?: Deployment;
  created: boolean;
  /** Sent, or what a create would send; none for a deployment only looked up (`status`). */
  request?: DeploymentCreateRequest;
}

/** One deployment as the deploy's (or `status`'s) summary shows it. */
export interface DeploymentSummary {
  spec: Pick<DeploySpec, 'name' | 'source' | 'dryRun' | 'dashboardUrl'>;
  result?: DeployedResult;
  /** Without a result (a failed create): its repository and ref are still what was deployed from. */
  request?: DeploymentCreateRequest;
  /** The latest state (after waiting). */
  deployment?: Deployment;
  liveness?: { live: boolean; supersededBy?: string; missing?: string; health?: HealthSeen };
  /** Why a health check asked for was not made, when the run did not wait. */
  healthNotMade?: string;
  target?: string;
  drift?: DriftEntry[];
  /** Already redacted. */
  failure?: string;
  /** GITHUB_SHA. */
  commit?: string;
  /** The pull request does not change the agent (its `paths`): nothing was asked for it. */
  skipped?: 'unchanged';
}

/** With what removes secret values from a text, before it is escaped. */
export interface SummaryInput extends DeploymentSummary {
  redact?: (text: string) => string;
}

export interface DeploymentPart {
  key: string;
  summary: DeploymentSummary;
}

/** The deploy's (or `status`'s): the step's one alone (flat), or a row each in the manifest's order. */
export interface DeploySummary {
  kind: 'deploy';
  layout: 'flat' | 'keyed';
  /** The manifest's path, or `inline` (none for the step's one). */
  source?: string;
  deployments: DeploymentPart[];
}

export function flatSummary(summary: DeploymentSummary): DeploySummary {
  return { kind: 'deploy', layout: 'flat', deployments: [{ key: summary.spec.name, summary }] };
}

/** The plan's: laid out as the deploy's. */
export interface PlanSummary {
  kind: 'plan';
  layout: 'flat' | 'keyed';
  source?: string;
  agents: AgentPlanPart[];
}

export interface RetiredPreview {
  report: RetireReport;
  /** None when the adapter could not retire it. */
  retirement?: Retirement;
}

/** The step's one preview, or a manifest's in its order. */
export interface RetireSummary {
  kind: 'retire';
  previews: RetiredPreview[];
}

/** A preview the pattern names, with its pull request's number as the name spells it. */
export interface Preview {
  deployment: Deployment;
  digits: string;
  /** With a manifest: whose preview it is. */
  agent?: { key: string; name: string };
}

export interface Orphan extends Preview {
  number: number;
  state: 'closed' | 'merged';
  closedAt?: string;
  dashboardUrl?: string;
}

/** A preview left alone: nothing GitHub said proves how its pull request stands. */
export interface Unknown extends Preview {
  /** The end of its log line. */
  why: string;
}

/**
 * What retiring did to the orphans, each counted once: by this run (a record marked or the
 * comment rewritten), `already` by an earlier run (nothing written), `failed` (a GitHub call
 * failed, warned), or `nothing` on GitHub to retire. `inactive` and `comments`: written by
 * this run.
 */
export interface Retired {
  inactive: number;
  comments: number;
  byThisRun: number;
  already: number;
  failed: number;
  nothing: number;
}

export interface Sweep {
  orphans: Orphan[];
  open: number;
  unknown: Unknown[];
  retired: Retired;
}

export interface SweepSummary extends Sweep {
  kind: 'sweep';
  /** The name-pattern input, as given. */
  pattern: string;
  dryRun: boolean;
}

export interface AgentPlanPart {
  key: string;
  name: string;
  summary?: PlanReport;
  /** Why it fails the step (its deploy would fail, a difference with `on-change: fail`, no plan made). */
  failure?: string;
}

export type RunSummary = DeploySummary | PlanSummary | RetireSummary | SweepSummary;
