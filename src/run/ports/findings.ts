/**
 * What the run finds, in the words an adapter reads: a difference between what
 * the step asks for and what the deployment has, whether it is live, and a
 * plan's verdict.
 */
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';

/**
 * One difference, as the outputs, the summary and the adapters show it.
 * Secret values are never carried: `***` or null.
 */
export interface DriftEntry {
  field: string;
  wanted: unknown;
  live: unknown;
}

/** A field the step sets that the deployment has otherwise (a secret, the secret references too). */
export interface FieldDrift extends DriftEntry {
  kind: 'field';
  /** A revision field: the reused deployment will never run what the step asks for. */
  blocks: boolean;
}

/**
 * The targeted commit, which the reused deployment will not build
 * (`build_on_push` off, another commit live): it always blocks.
 */
export interface UnbuiltDrift extends DriftEntry {
  kind: 'unbuilt';
  wanted: string;
  blocks: true;
}

/**
 * A difference as the run found it, saying by value what it is and whether
 * it blocks the revision (no entry is recognised by its identity).
 */
export type Drift = FieldDrift | UnbuiltDrift;

/** A difference as it is shown: its field and values only (the `drift` output's entries). */
export function shownDrift({ field, wanted, live }: DriftEntry): DriftEntry {
  return { field, wanted, live };
}

/**
 * What the check of the deployment's own address answered (docs/how-it-works.md, "Live means answering"), as the
 * outputs (`healthy`, `health-status`), the reports and the summary show it. No
 * header value and no query string is in it.
 */
export interface HealthSeen {
  /** The address checked, without its query (absent: none could be made). */
  address?: string;
  /** It answered `2xx`, holding the expected text. */
  ok: boolean;
  /** The last answer's HTTP status, when one came. */
  status?: number;
  /** Why it did not answer as asked, in words. */
  error?: string;
  /** A failing answer's first 200 characters, escaped. */
  excerpt?: string;
  /** The address is one the check never asks: nothing was sent, and it will not change. */
  refused?: true;
}

/**
 * Whether a deployment is live (docs/how-it-works.md, "What green means"),
 * as decided once for each state of it the run sees (`decideLive` in
 * run/decisions/goal.ts) and read everywhere else: live or not, why, and what
 * is still missing.
 */
export type Liveness =
  | {
      live: true;
      /** The commit live instead of the target, which a newer push superseded. */
      supersededBy?: string;
      /** What the health check answered, when one is asked. */
      health?: HealthSeen;
    }
  | {
      live: false;
      /** What is missing, for the log, the reports and a timeout's message. */
      missing: string;
      /**
       * The same in a word or two, where a row of several agents has room for little
       * (`DEPLOYING`, `health 503 Service Unavailable`); `missing` when not given.
       */
      briefly?: string;
      /** It never will be (the deployment is being deleted, or a difference blocks it). */
      final?: boolean;
      /** What to do when a longer wait is no cure; a timeout's message says it instead of raising the timeout. */
      remedy?: string;
      /** What the health check answered, when one was made. */
      health?: HealthSeen;
    };

/** One deployment of a manifest, as the `deployments` output holds it under its agent's key. */
export interface DeploymentEntry {
  name: string;
  'deployment-id': string;
  status: string;
  created: boolean;
  live: boolean;
  'commit-sha': string;
  url: string;
  'dashboard-url': string;
  /** How many differences the deployment has from what the step asks for. */
  'drift-count': number;
  /** Whether the deployment answered its health check; null when none was made. */
  healthy: boolean | null;
  /** The health check's last HTTP status; empty when none was made. */
  'health-status': string;
  /** The GitHub deployment recorded for the agent; empty when none was. */
  'github-deployment-id': string;
  /** Why the agent failed; only for a failed agent. */
  error?: string;
}

export type PlanAction = 'create' | 'reuse' | 'fail';

export interface Verdict {
  action: PlanAction;
  /** The deployment the deploy would reuse, or the one that makes it fail. */
  deployment?: Deployment;
  /** `create`: the body the deploy would send, secret values `***`. */
  request?: DeploymentCreateRequest;
  /** `reuse`: what the deploy would not apply, field by field. */
  changes: DriftEntry[];
  /** `reuse`: the branch the deployment tracks, and whether a push there builds a revision. */
  tracks?: { branch: string | undefined; buildsOnPush: boolean };
  /** `fail`: why the deploy would fail. */
  reason?: string;
  /**
   * `reuse`: why the deploy on merge would not be live and, waiting, would
   * fail (the deployment never runs what the step asks for): a revision the deployment will never take, or a
   * merged commit it will not build.
   */
  wouldFail?: string;
}
