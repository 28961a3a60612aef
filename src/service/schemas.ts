/**
 * The wire schemas of the service; every type is `z.infer` of one. The fields are written
 * once (`buildFamily`) and built twice: requests strict at every level of the known structure
 * (an unknown key in what we send is a typo, `resource_spec.min_scal`), answers loose
 * (unknown keys kept, since the service may grow; missing or mistyped known fields still fail
 * with the field's path). Free-form maps stay free-form in both.
 *
 * Where the interface (docs/how-it-works.md) and the OpenAPI document differ, the interface
 * wins, except `source_config.deployment_type`: its table omits it, but the listing filters by
 * it and the service takes it at creation. Ranges only the OpenAPI document shows (cpu
 * 0.1..8, cpu_limit 0.1..16) are left to the service.
 */
import { z } from 'zod';
import { untrusted } from '../common/runtime.js';
import { buildFamily, dateTime, int, uuid } from './schema-family.js';

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

/** The deployment types the action knows (OpenAPI `SourceConfigRequest.deployment_type`). */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

/** The service's enums are known lists, not walls: an unknown value is passed on with one warning. */
export function unknownValueWarning(
  what: string,
  value: string | null | undefined,
  known: readonly string[],
): string | undefined {
  if (value === undefined || value === null || known.includes(value)) return undefined;
  return `${what} '${untrusted(value)}' is not one this release knows (${known.join(', ')}): it is passed on as it is, and the service decides`;
}

/** Built on first use: building a family is a measurable part of start-up (bench/RESULTS.md). */
let responseFamily: ReturnType<typeof buildFamily<z.core.$loose>> | undefined;
const response = () => (responseFamily ??= buildFamily(z.looseObject));
let requestFamily: ReturnType<typeof buildFamily<z.core.$strict>> | undefined;
const request = () => (requestFamily ??= buildFamily(z.strictObject));

export const SourceConfigRequestSchema = z.lazy(() => request().SourceConfig);
export type SourceConfigRequest = z.infer<typeof SourceConfigRequestSchema>;

/** repo_commit_sha is response-only: a request carrying it is rejected. */
export const SourceRevisionConfigRequestSchema = z.lazy(() => request().SourceRevisionConfig);
export type SourceRevisionConfigRequest = z.infer<typeof SourceRevisionConfigRequestSchema>;

export const SecretReferenceSchema = z.lazy(() => request().SecretReference);
export type SecretReference = z.infer<typeof SecretReferenceSchema>;

/** Body of the create call (docs/how-it-works.md, "The service's interface"). */
export const DeploymentCreateRequestSchema = z.lazy(() =>
  request().Deployment.extend({ name: z.string().min(1, 'must not be empty') }),
);
export type DeploymentCreateRequest = z.infer<typeof DeploymentCreateRequestSchema>;
export type Secret = DeploymentCreateRequest['secrets'][number];

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

export const SourceRevisionConfigSchema = z.lazy(() =>
  response().SourceRevisionConfig.extend({
    repo_commit_sha: z.string().nullish(),
  }),
);

export const DeploymentSchema = z.lazy(() =>
  response().Deployment.extend({
    source_revision_config: SourceRevisionConfigSchema,
    id: uuid(),
    tenant_id: uuid(),
    created_at: dateTime(),
    updated_at: dateTime(),
    // One the service adds later is no schema failure: the wait logs it and waits through it.
    status: z.union([DeploymentStatusSchema, z.string()]),
    // Required keys whose value may be null.
    latest_revision_id: uuid().nullable(),
    active_revision_id: uuid().nullable(),
    image_version: z.string().nullish(),
  }),
);
export type Deployment = z.infer<typeof DeploymentSchema>;

const page = <T extends z.ZodType>(item: T) =>
  z.looseObject({ resources: z.array(item), offset: int() });
export const DeploymentListSchema = z.lazy(() => page(DeploymentSchema));
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

/** A status check of several ids: its records are checked one by one (listing.ts). */
export const DeploymentBatchSchema = z.lazy(() => page(z.unknown()));

/** An error body, read only for the service's own message: `detail` a string or `[{loc, msg, type}]`. */
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
