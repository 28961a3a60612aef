/**
 * What a run did, as a value: the core says what happened, and the adapter
 * has it rendered (src/views/) as the job summary or the command's
 * `--summary` file. Data only: no markup here, and no escaping; secret
 * values are removed where it is rendered, with the adapter's redaction.
 */
import type { DeploySpec } from '../../inputs/deploy-spec.js';
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';
import type { DriftEntry, HealthSeen } from './findings.js';
import type { PlanReport, RetireReport, Retirement } from './progress.js';

/** What the deploy found or created, as far as its summary tells (a step's `DeployResult` is one). */
export interface DeployedResult {
  /** Absent only in a dry run that would create the deployment. */
  deployment?: Deployment;
  created: boolean;
  /**
   * The request body that was sent, or, when it was not, that a create would send; none for
   * a deployment only looked up (`status` asks nothing of it).
   */
  request?: DeploymentCreateRequest;
}

/** One deployment as the deploy's summary shows it (and `status`'s, which reads a deployment the same way). */
export interface DeploymentSummary {
  spec: Pick<DeploySpec, 'name' | 'source' | 'dryRun' | 'dashboardUrl'>;
  result?: DeployedResult;
  /**
   * What the run asked for when it has no result (a failed create): its
   * resolved repository and ref are still what the run deployed from.
   */
  request?: DeploymentCreateRequest;
  /** The latest state of the deployment (after waiting), if any. */
  deployment?: Deployment;
  /**
   * Whether it is live, the commit live instead of a superseded target, and
   * what the health check answered, when one was made.
   */
  liveness?: { live: boolean; supersededBy?: string; missing?: string; health?: HealthSeen };
  /** Why a health check asked for was not made, when the run did not wait (`healthNotMade`). */
  healthNotMade?: string;
  /** The targeted commit, if any. */
  target?: string;
  drift?: DriftEntry[];
  /** The failure, already redacted, when the run failed. */
  failure?: string;
  /** The commit the workflow runs for (GITHUB_SHA). */
  commit?: string;
}

/** A deployment's summary with what removes secret values from a text, before it is escaped. */
export interface SummaryInput extends DeploymentSummary {
  redact?: (text: string) => string;
}

/** A deployment's part of a deploy's summary: its agent's key (a manifest's), and its summary. */
export interface DeploymentPart {
  key: string;
  summary: DeploymentSummary;
}

/**
 * The deploy's (or `status`'s) summary: its deployments, in the manifest's
 * order; the step's one alone (flat) or a row each, keyed by agent.
 */
export interface DeploySummary {
  kind: 'deploy';
  layout: 'flat' | 'keyed';
  /** Where the manifest was read: its path, or `inline` (none for the step's one). */
  source?: string;
  deployments: DeploymentPart[];
}

export function flatSummary(summary: DeploymentSummary): DeploySummary {
  return { kind: 'deploy', layout: 'flat', deployments: [{ key: summary.spec.name, summary }] };
}

/**
 * The plan's summary: each agent's verdict (the dashboard-url template, when
 * given, to link the deployment), in the manifest's order; the step's one
 * alone (flat) or a row each, keyed by agent.
 */
export interface PlanSummary {
  kind: 'plan';
  layout: 'flat' | 'keyed';
  /** Where the manifest was read: its path, or `inline` (none for the step's one). */
  source?: string;
  agents: AgentPlanPart[];
}

/** A preview retired: its deployment, and what the adapter did to retire it (none when it could not). */
export interface RetiredPreview {
  report: RetireReport;
  retirement?: Retirement;
}

/** The retire's summary: each preview (the step's one, or a manifest's in its order). */
export interface RetireSummary {
  kind: 'retire';
  previews: RetiredPreview[];
}

/** A preview the pattern names, with its pull request's number as the name spells it. */
export interface Preview {
  deployment: Deployment;
  digits: string;
  /** With a manifest: the agent whose preview it is (its key and its name). */
  agent?: { key: string; name: string };
}

/** A preview whose pull request is closed or merged. */
export interface Orphan extends Preview {
  number: number;
  state: 'closed' | 'merged';
  closedAt?: string;
  dashboardUrl?: string;
}

/** A preview left alone: nothing GitHub said proves how its pull request stands. */
export interface Unknown extends Preview {
  /** Why, the end of its log line. */
  why: string;
}

/**
 * What retiring did to the orphans, each counted once: retired by this run
 * (a record marked or the comment rewritten), already retired by an earlier
 * run or the retire step (nothing written), not fully retired (a GitHub call
 * failed, warned), or nothing on GitHub to retire.
 */
export interface Retired {
  /** GitHub deployments marked inactive by this run. */
  inactive: number;
  /** Comments this run rewrote to say the preview is retired. */
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

/** The sweep's summary: what it found under the name pattern, and what it changed on GitHub. */
export interface SweepSummary extends Sweep {
  kind: 'sweep';
  /** The name-pattern input, as given. */
  pattern: string;
  /** A dry run: nothing on GitHub was changed. */
  dryRun: boolean;
}

/** An agent's part of a plan: its plan, or why none was made. */
export interface AgentPlanPart {
  key: string;
  name: string;
  summary?: PlanReport;
  /** Why the agent's plan fails the step (its deploy would fail, a difference with `on-change: fail`, no plan made). */
  failure?: string;
}

/** What a run did, one kind a flow: what the adapter renders as its summary. */
export type RunSummary = DeploySummary | PlanSummary | RetireSummary | SweepSummary;
