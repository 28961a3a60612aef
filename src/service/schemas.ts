/**
 * The wire schemas of the deployment management service.
 *
 * Every resource is a zod schema and every TypeScript type is `z.infer` of one.
 * The fields are written once, in `buildFamily`, and built twice:
 *
 * - REQUEST schemas are strict at every level of the known structure: an
 *   unknown key is an error, because in something we send it is a typo
 *   (`resource_spec.min_scal`). Free-form maps (labels, securityContext,
 *   valueFrom, volume sources, ...) stay free-form.
 * - RESPONSE schemas are loose: unknown keys are tolerated and kept, because
 *   the service may grow; missing or mistyped known fields still fail, with
 *   the field's path.
 *
 * Where the service's interface (docs/how-it-works.md, "The service's interface") and
 * its OpenAPI document differ, the interface wins, with one exception:
 * `source_config.deployment_type`, which the interface's table omits but the
 * service's listing filters by and the real service takes at creation. Value ranges that only the OpenAPI document shows (cpu
 * 0.1..8, cpu_limit 0.1..16) are not enforced here; the service reports them.
 */
import { z } from 'zod';
import { buildFamily } from './schema-family.js';
import { dateTime, int, looseObject, strictObject, uuid } from './schema-parts.js';

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

export { SOURCES, SourceSchema, type Source } from './schema-family.js';

/** Deployment states (docs/how-it-works.md, "The service's interface"). */
export const STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
] as const;
export const DeploymentStatusSchema = z.lazy(() => z.enum(STATUSES));
export type DeploymentStatus = z.infer<typeof DeploymentStatusSchema>;

/**
 * The deployment types the action knows (the service's OpenAPI document,
 * `SourceConfigRequest.deployment_type`): a known list, not a wall: a
 * type the action does not know is sent as given. The schemas take any string, in a request as in an answer,
 * since the service adds types (`serverless`, `dedicated`); reading the
 * `config` input warns once of a type not here (build-plan.ts).
 */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

/**
 * Each family is built on first use: a run parses a request schema only when the `config` input
 * is given, and one that fails on its inputs parses no answer; building a family is a measurable
 * part of start-up (bench/RESULTS.md).
 */
let responseFamily: ReturnType<typeof buildFamily<z.core.$loose>> | undefined;
const response = () => (responseFamily ??= buildFamily(looseObject));
let requestFamily: ReturnType<typeof buildFamily<z.core.$strict>> | undefined;
const request = () => (requestFamily ??= buildFamily(strictObject));

// ---------------------------------------------------------------------------
// Request schemas (strict)
// ---------------------------------------------------------------------------

export const ResourceSpecRequestSchema = z.lazy(() => request().ResourceSpec);
export type ResourceSpecRequest = z.infer<typeof ResourceSpecRequestSchema>;

export const SourceConfigRequestSchema = z.lazy(() => request().SourceConfig);
export type SourceConfigRequest = z.infer<typeof SourceConfigRequestSchema>;

/** repo_commit_sha is response-only: a request carrying it is rejected. */
export const SourceRevisionConfigRequestSchema = z.lazy(() => request().SourceRevisionConfig);
export type SourceRevisionConfigRequest = z.infer<typeof SourceRevisionConfigRequestSchema>;

export const SecretSchema = z.lazy(() => request().Secret);
export type Secret = z.infer<typeof SecretSchema>;

export const SecretReferenceSchema = z.lazy(() => request().SecretReference);
export type SecretReference = z.infer<typeof SecretReferenceSchema>;

/** Body of the create call (docs/how-it-works.md, "The service's interface"). */
export const DeploymentCreateRequestSchema = z.lazy(() =>
  request().Deployment.extend({ name: z.string().min(1, 'must not be empty') }),
);
export type DeploymentCreateRequest = z.infer<typeof DeploymentCreateRequestSchema>;

// ---------------------------------------------------------------------------
// Response schemas (loose)
// ---------------------------------------------------------------------------

/** Item of the repository listing of a source-hosting integration. */
export const RepositorySchema = z.lazy(() =>
  z.looseObject({
    host_integration_id: uuid(),
    id: int(),
    name: z.string(),
    owner: z.string(),
    url: z.string(),
    default_branch: z.string(),
  }),
);
export type Repository = z.infer<typeof RepositorySchema>;

export const RepositoryListSchema = z.lazy(() => z.array(RepositorySchema));

export const ResourceSpecSchema = z.lazy(() => response().ResourceSpec);
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

export const SourceConfigSchema = z.lazy(() => response().SourceConfig);
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

export const SourceRevisionConfigSchema = z.lazy(() =>
  response().SourceRevisionConfig.extend({
    repo_commit_sha: z.string().nullish(),
  }),
);
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfigSchema>;

export const DeploymentSchema = z.lazy(() =>
  response().Deployment.extend({
    source_revision_config: SourceRevisionConfigSchema,
    id: uuid(),
    tenant_id: uuid(),
    created_at: dateTime(),
    updated_at: dateTime(),
    // A known status, or one the service adds later: that is not a schema
    // failure, the wait logs it and waits through it.
    status: z.union([DeploymentStatusSchema, z.string()]),
    // Required keys whose value may be null.
    latest_revision_id: uuid().nullable(),
    active_revision_id: uuid().nullable(),
    image_version: z.string().nullish(),
  }),
);
export type Deployment = z.infer<typeof DeploymentSchema>;

/** Body of the deployment listing: a page and the offset of the next one. */
export const DeploymentListSchema = z.lazy(() =>
  z.looseObject({
    resources: z.array(DeploymentSchema),
    offset: int(),
  }),
);
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

/**
 * The answer to a status check of several deployments (`deployment_ids=A,B,…`):
 * a list whose records are checked one by one (`DeploymentSchema`), so that
 * one malformed record is only its own deployment's answer.
 */
export const DeploymentBatchSchema = z.lazy(() =>
  z.looseObject({
    resources: z.array(z.unknown()),
    offset: int(),
  }),
);

/**
 * An error body, read only to show the service's own message. `detail` is a
 * string (`{"detail": "Error description."}`) or a validation list
 * (`[{loc, msg, type}]`).
 */
export const ErrorBodySchema = z.lazy(() =>
  z.looseObject({
    detail: z
      .union([
        z.string(),
        z.array(
          z.looseObject({
            loc: z.array(z.union([z.string(), z.number()])),
            msg: z.string(),
            type: z.string(),
          }),
        ),
      ])
      .optional(),
    message: z.string().optional(),
    error: z.string().optional(),
  }),
);
