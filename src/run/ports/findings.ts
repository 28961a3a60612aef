/**
 * What the run finds, in the words an adapter reads: a difference between what
 * the step asks for and what the deployment has, and a plan's verdict.
 */
import type { Deployment, DeploymentCreateRequest } from '../../service/schemas.js';

/** One difference. Secret values are never carried: `***` or null. */
export interface DriftEntry {
  field: string;
  wanted: unknown;
  live: unknown;
}

export const PLAN_ACTIONS = ['create', 'reuse', 'fail'] as const;
export type PlanAction = (typeof PLAN_ACTIONS)[number];

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
   * fail (behaviour 21): a revision the deployment will never take, or a
   * merged commit it will not build.
   */
  wouldFail?: string;
}
