import type { HealthCheck } from '../service/health-address.js';
import type {
  Secret,
  SecretReference,
  Source,
  SourceConfigRequest,
  SourceRevisionConfigRequest,
} from '../service/schemas.js';

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

export interface HealthRequest {
  check: HealthCheck;
  /** Sent with the check only: the service's api key is never among them unless named. */
  headers: Record<string, string>;
  /** Text the answer's body must hold; absent, any `2xx` will do. */
  expect?: string;
}

export interface RepositoryName {
  owner: string;
  name: string;
  /** The code host it must be on (lower-cased), when the run's own repository was taken. */
  host?: string;
}

export interface DeploySpecCommon {
  apiUrl: string;
  headers: Record<string, string>;
  name: string;
  sourceConfig: SourceConfigRequest;
  sourceRevisionConfig: SourceRevisionConfigRequest;
  secrets: Secret[];
  waitForReady: boolean;
  waitTimeoutSeconds: number;
  /** Part of live; off when absent. */
  health?: HealthRequest;
  commit: CommitRequest;
  onDrift: OnDrift;
  dryRun: boolean;
  dashboardUrl?: string;
  /** Never printed: api key, header values, secret values. */
  sensitiveValues: string[];
  /** Warned of once at the start (a `deployment_type` the action does not know). */
  warnings: string[];
}

export interface CodehostSpec extends DeploySpecCommon {
  source: 'codehost';
  integrationId: string;
  repository: RepositoryName;
}

interface ExternalDockerSpec extends DeploySpecCommon {
  source: 'external_docker';
  secretReferences: SecretReference[] | null;
}

interface OtherSourceSpec extends DeploySpecCommon {
  source: Exclude<Source, 'codehost' | 'external_docker'>;
}

/** One spec per source: what a source needs is there, and nothing another source would need. */
export type DeploySpec = CodehostSpec | ExternalDockerSpec | OtherSourceSpec;

type WithoutCommon<P> = P extends DeploySpecCommon ? Omit<P, keyof DeploySpecCommon> : never;

export type SourceFields = WithoutCommon<DeploySpec>;
