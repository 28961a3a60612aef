/**
 * What one run is asked to do, read from the inputs once (`readDeploySpec` in
 * build-deploy-spec.ts). Types only, apart from the list of `on-drift` modes:
 * nothing here runs.
 */
import type { HealthCheck } from '../service/health-address.js';
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

/** The check a run makes of its deployment's address once it is otherwise live. */
export interface HealthRequest {
  check: HealthCheck;
  /** Sent with the check only: the service's api key is never among them unless named. */
  headers: Record<string, string>;
  /** Text the answer's body must hold; absent: any `2xx` answers. */
  expect?: string;
}

export interface RepositoryName {
  owner: string;
  name: string;
  /** The code host it must be on (lower-cased), when the run's own repository was taken. */
  host?: string;
}

/** What every deploy spec holds, whatever its source. */
export interface DeploySpecCommon {
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
  /** The check of the deployment's own address, part of live (off when absent). */
  health?: HealthRequest;
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

export interface CodehostSpec extends DeploySpecCommon {
  source: 'codehost';
  integrationId: string;
  repository: RepositoryName;
}

export interface ExternalDockerSpec extends DeploySpecCommon {
  source: 'external_docker';
  secretReferences: SecretReference[] | null;
}

export interface OtherSourceSpec extends DeploySpecCommon {
  source: Exclude<Source, 'codehost' | 'external_docker'>;
}

/** One spec per source: what a source needs is there, and nothing another source would need. */
export type DeploySpec = CodehostSpec | ExternalDockerSpec | OtherSourceSpec;

/** Each spec of a union without the fields of `DeploySpecCommon` (distributes over the union). */
type WithoutCommon<P> = P extends DeploySpecCommon ? Omit<P, keyof DeploySpecCommon> : never;

/** What a spec holds beyond `DeploySpecCommon`: its source, and the fields only that source has. */
export type SourceFields = WithoutCommon<DeploySpec>;
