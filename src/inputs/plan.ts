/**
 * What one run is asked to do, read from the inputs once (`readPlan` in
 * read-plan.ts). Types only, apart from the list of `on-drift` modes:
 * nothing here runs.
 */
import type {
  Secret,
  SecretReference,
  Source,
  SourceConfigRequest,
  SourceRevisionConfigRequest,
} from '../service/schemas.js';

/** The values of the `on-drift` input. */
export const ON_DRIFT_MODES = ['warn', 'fail'] as const;
export type OnDrift = (typeof ON_DRIFT_MODES)[number];

/** The commit that must be live (docs/how-it-works.md, "What green means"). */
export type CommitRequest =
  /** `commit: none`, or `auto` with nothing to derive: `reason` says why, for one log line. */
  | { kind: 'none'; reason: string }
  /** An explicit sha, lower-cased. Always targeted. */
  | { kind: 'sha'; sha: string }
  /** Derived from the run's event; targeted only when `branch` is the deployment's `repo_ref`. */
  | { kind: 'auto'; branch: string; sha: string };

export interface RepositoryName {
  owner: string;
  name: string;
  /** The code host it must be on (lower-cased), when the run's own repository was taken. */
  host?: string;
}

/** What every plan holds, whatever its source. */
export interface PlanCommon {
  /** Base address without a trailing slash. */
  apiUrl: string;
  /** Every header sent with each request: the api key and the extra headers. */
  headers: Record<string, string>;
  name: string;
  sourceConfig: SourceConfigRequest;
  sourceRevisionConfig: SourceRevisionConfigRequest;
  secrets: Secret[];
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  commit: CommitRequest;
  onDrift: OnDrift;
  dryRun: boolean;
  /** Where a person opens the deployment: a template of `{id}`, `{tenant_id}`, `{name}`. */
  dashboardUrl?: string;
  /** Every value that must never be printed: api key, header values, secret values. */
  sensitiveValues: string[];
  /**
   * What the run warns of once at its start, the inputs being valid: a
   * `deployment_type` the action does not know, which is sent as given.
   */
  warnings: string[];
}

export interface CodehostPlan extends PlanCommon {
  source: 'codehost';
  integrationId: string;
  repository: RepositoryName;
}

export interface ExternalDockerPlan extends PlanCommon {
  source: 'external_docker';
  secretReferences: SecretReference[] | null;
}

export interface OtherSourcePlan extends PlanCommon {
  source: Exclude<Source, 'codehost' | 'external_docker'>;
}

/** One plan per source: what a source needs is there, and nothing another source would need. */
export type Plan = CodehostPlan | ExternalDockerPlan | OtherSourcePlan;

/** Each plan of a union without the fields of `PlanCommon` (distributes over the union). */
type WithoutCommon<P> = P extends PlanCommon ? Omit<P, keyof PlanCommon> : never;

/** What a plan holds beyond `PlanCommon`: its source, and the fields only that source has. */
export type SourceFields = WithoutCommon<Plan>;
