/** What the run finds, in the words an adapter reads: drift, liveness, a plan's verdict. */
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';

/** Secret values are never carried: `***` or null. */
export interface DriftEntry {
  field: string;
  wanted: unknown;
  live: unknown;
}

/** A field the step sets that the deployment has otherwise (secrets and their references too). */
export interface FieldDrift extends DriftEntry {
  kind: 'field';
  /** A revision field: the reused deployment will never run what the step asks for. */
  blocks: boolean;
}

/** The targeted commit, which the reused deployment will not build: it always blocks. */
export interface UnbuiltDrift extends DriftEntry {
  kind: 'unbuilt';
  wanted: string;
  blocks: true;
}

/** Says by value what it is and whether it blocks (no entry is recognised by its identity). */
export type Drift = FieldDrift | UnbuiltDrift;

/** The `drift` output's entry: field and values only. */
export function shownDrift({ field, wanted, live }: DriftEntry): DriftEntry {
  return { field, wanted, live };
}

/**
 * What the health check answered (docs/how-it-works.md, "Live means answering"). No header
 * value and no query string is in it.
 */
export interface HealthSeen {
  /** Without its query (absent: none could be made). */
  address?: string;
  /** It answered `2xx`, holding the expected text. */
  ok: boolean;
  status?: number;
  error?: string;
  /** A failing answer's first 200 characters, escaped. */
  excerpt?: string;
  /** An address the check never asks: nothing was sent, and it will not change. */
  refused?: true;
}

/**
 * Whether a deployment is live (docs/how-it-works.md, "What green means"), decided once for
 * each state the run sees (`decideLive`, run/decisions/goal.ts) and read everywhere else.
 */
export type Liveness =
  | {
      live: true;
      /** The commit live instead of the target, which a newer push superseded. */
      supersededBy?: string;
      health?: HealthSeen;
    }
  | {
      live: false;
      missing: string;
      /** `missing` in a word or two, for a row of several agents (`DEPLOYING`). */
      briefly?: string;
      /** It never will be (being deleted, or a difference blocks it). */
      final?: boolean;
      /** When a longer wait is no cure: a timeout's message says it instead of raising the timeout. */
      remedy?: string;
      health?: HealthSeen;
    };

/** One deployment of a manifest, as the `deployments` output holds it under its agent's key. */
export type DeploymentEntry = DeployedEntry | SkippedEntry;

/** An agent the pull request does not change (its `paths`): no request was made for it. */
export interface SkippedEntry {
  name: string;
  skipped: 'unchanged';
}

export interface DeployedEntry {
  name: string;
  'deployment-id': string;
  status: string;
  created: boolean;
  live: boolean;
  'commit-sha': string;
  url: string;
  'dashboard-url': string;
  'drift-count': number;
  /** null, or empty, when no health check was made. */
  healthy: boolean | null;
  'health-status': string;
  /** Empty when none was recorded. */
  'github-deployment-id': string;
  /** Only for a failed agent. */
  error?: string;
}

export type PlanAction = 'create' | 'reuse' | 'fail';

export interface Verdict {
  action: PlanAction;
  /** The deployment the deploy would reuse, or the one that makes it fail. */
  deployment?: Deployment;
  /** `create`: secret values `***`. */
  request?: DeploymentCreateRequest;
  /** `reuse`: what the deploy would not apply. */
  changes: DriftEntry[];
  /** `reuse`. */
  tracks?: { branch: string | undefined; buildsOnPush: boolean };
  /** `fail`. */
  reason?: string;
  /**
   * `reuse`: why the deploy on merge would, waiting, fail: a revision the deployment will
   * never take, or a merged commit it will not build.
   */
  wouldFail?: string;
}
