/**
 * The wire schemas of the deployment management service (docs/how-it-works.md, "The service's interface").
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
 * Where the service's interface (docs/how-it-works.md, "The service's interface") and its
 * OpenAPI document differ, the interface wins, with one exception:
 * `source_config.deployment_type`, which the interface's table omits but the
 * service's listing filters by and the real service takes at creation
 * (contract v1.3). Value ranges that only the OpenAPI document shows (cpu
 * 0.1..8, cpu_limit 0.1..16) are not enforced here; the service reports them.
 */
import { z } from 'zod';
import {
  dateTime,
  freeForm,
  int,
  looseObject,
  strictObject,
  stringMap,
  uuid,
  type ObjectConfig,
  type ObjectFactory,
} from './schema-parts.js';

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

/** Source kinds (docs/how-it-works.md, "The service's interface"). */
export const SOURCES = [
  'codehost',
  'external_docker',
  'internal_docker',
  'internal_source',
  'internal_template',
] as const;
export const SourceSchema = z.enum(SOURCES);
export type Source = z.infer<typeof SourceSchema>;

/** Deployment states (docs/how-it-works.md, "The service's interface"). */
export const STATUSES = [
  'AWAITING_DATABASE',
  'READY',
  'UNUSED',
  'AWAITING_DELETE',
  'UNKNOWN',
] as const;
export const DeploymentStatusSchema = z.enum(STATUSES);
export type DeploymentStatus = z.infer<typeof DeploymentStatusSchema>;

/**
 * The deployment types the action knows (the service's OpenAPI document,
 * `SourceConfigRequest.deployment_type`): a known list, not a wall
 * (behaviour 26). The schemas take any string, in a request as in an answer,
 * since the service adds types (`serverless`, `dedicated`); reading the
 * `config` input warns once of a type not here (build-plan.ts).
 */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

/**
 * The one definition of the nested resources, wrapped by `object` at every
 * level: strict for requests, loose for responses. Fields that exist only in
 * a request or only in a response are added with `.extend`, which keeps the
 * strictness of the object it extends.
 */
function buildFamily<C extends ObjectConfig>(object: ObjectFactory<C>) {
  // volume_mounts item, also a container's volumeMounts item.
  const VolumeMount = object({
    name: z.string().nullish(),
    mountPath: z.string().nullish(),
    subPath: z.string().nullish(),
    mountPropagation: z.string().nullish(),
    readOnly: z.boolean().nullish(),
    subPathExpr: z.string().nullish(),
  });

  const EnvVar = object({
    name: z.string(),
    value: z.string().nullish(),
    valueFrom: freeForm().nullish(),
  });

  const ResourceRequirements = object({
    limits: stringMap().nullish(),
    requests: stringMap().nullish(),
  });

  // init_containers and sidecars item. The service requires name and image.
  const Container = object({
    name: z.string(),
    image: z.string(),
    imagePullPolicy: z.string().nullish(),
    command: z.array(z.string()).nullish(),
    args: z.array(z.string()).nullish(),
    workingDir: z.string().nullish(),
    env: z.array(EnvVar).nullish(),
    envFrom: z.array(freeForm()).nullish(),
    resources: ResourceRequirements.nullish(),
    volumeMounts: z.array(VolumeMount).nullish(),
    securityContext: freeForm().nullish(),
    restartPolicy: z.string().nullish(),
  });

  const Volume = object({
    name: z.string().nullish(),
    configMap: freeForm().nullish(),
    secret: freeForm().nullish(),
    emptyDir: freeForm().nullish(),
    persistentVolumeClaim: freeForm().nullish(),
    nfs: freeForm().nullish(),
    projected: freeForm().nullish(),
    downwardAPI: freeForm().nullish(),
    csi: freeForm().nullish(),
  });

  // image_pull_secrets item; the service requires its name.
  const LocalObjectReference = object({ name: z.string() });

  // resource_spec: all fields nullable.
  const ResourceSpec = object({
    // main service
    min_scale: int().nullish(),
    max_scale: int().nullish(),
    cpu: z.number().nullish(),
    cpu_limit: z.number().nullish(),
    memory_mb: int().nullish(),
    memory_limit_mb: int().nullish(),
    // queue
    queue_min_scale: int().nullish(),
    queue_max_scale: int().nullish(),
    queue_cpu: z.number().nullish(),
    queue_cpu_limit: z.number().nullish(),
    queue_memory_mb: int().nullish(),
    queue_memory_limit_mb: int().nullish(),
    // orchestrator
    orchestrator_cpu: z.number().nullish(),
    orchestrator_cpu_limit: z.number().nullish(),
    orchestrator_memory_mb: int().nullish(),
    orchestrator_memory_limit_mb: int().nullish(),
    orchestrator_min_scale: int().nullish(),
    orchestrator_max_scale: int().nullish(),
    // executor
    executor_cpu: z.number().nullish(),
    executor_cpu_limit: z.number().nullish(),
    executor_memory_mb: int().nullish(),
    executor_memory_limit_mb: int().nullish(),
    // redis
    redis_cpu: z.number().nullish(),
    redis_cpu_limit: z.number().nullish(),
    redis_memory_mb: int().nullish(),
    redis_memory_limit_mb: int().nullish(),
    // database
    db_cpu: z.number().nullish(),
    db_cpu_limit: z.number().nullish(),
    db_memory_mb: int().nullish(),
    db_memory_limit_mb: int().nullish(),
    db_storage_gi: int().nullish(),
    db_max_connections: int().nullish(),
    // placement and pod customization
    labels: stringMap().nullish(),
    annotations: stringMap().nullish(),
    service_account_name: z.string().nullish(),
    image_pull_secrets: z.array(LocalObjectReference).nullish(),
    volumes: z.array(Volume).nullish(),
    volume_mounts: z.array(VolumeMount).nullish(),
    init_containers: z.array(Container).nullish(),
    sidecars: z.array(Container).nullish(),
  });

  const ListenerConfig = object({ k8s_namespace: z.string().nullish() });

  // source_config: all fields nullable.
  const SourceConfig = object({
    integration_id: uuid().nullish(),
    repo_url: z.string().nullish(),
    // Any string: a type the service adds later is no error (DEPLOYMENT_TYPES).
    deployment_type: z.string().nullish(),
    build_on_push: z.boolean().nullish(),
    custom_url: z.string().nullish(),
    resource_spec: ResourceSpec.nullish(),
    listener_id: uuid().nullish(),
    listener_config: ListenerConfig.nullish(),
    install_command: z.string().nullish(),
    build_command: z.string().nullish(),
  });

  // source_revision_config, the fields that are both sent and returned.
  const SourceRevisionConfig = object({
    repo_ref: z.string().nullish(),
    agent_config_path: z.string().nullish(),
    image_uri: z.string().nullish(),
    source_tarball_path: z.string().nullish(),
  });

  const Secret = object({ name: z.string(), value: z.string() });
  const SecretReference = object({
    name: z.string(),
    secret_name: z.string(),
    secret_key: z.string(),
  });

  // The deployment, the fields that are both sent and returned.
  const Deployment = object({
    name: z.string(),
    source: SourceSchema,
    source_config: SourceConfig,
    source_revision_config: SourceRevisionConfig,
    secrets: z.array(Secret),
    secret_references: z.array(SecretReference).nullish(),
  });

  return {
    ResourceSpec,
    SourceConfig,
    SourceRevisionConfig,
    Secret,
    SecretReference,
    Deployment,
  };
}

const response = buildFamily(looseObject);

// ---------------------------------------------------------------------------
// Request schemas (strict)
// ---------------------------------------------------------------------------

/**
 * The request family is built on first use: a run parses a request schema
 * only when the `config` input is given, and building the family is a
 * measurable part of start-up (bench/RESULTS.md).
 */
let requestFamily: ReturnType<typeof buildRequestFamily> | undefined;
const buildRequestFamily = () => buildFamily(strictObject);
const request = () => (requestFamily ??= buildRequestFamily());

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
export const RepositorySchema = z.looseObject({
  host_integration_id: uuid(),
  id: int(),
  name: z.string(),
  owner: z.string(),
  url: z.string(),
  default_branch: z.string(),
});
export type Repository = z.infer<typeof RepositorySchema>;

export const RepositoryListSchema = z.array(RepositorySchema);

export const ResourceSpecSchema = response.ResourceSpec;
export type ResourceSpec = z.infer<typeof ResourceSpecSchema>;

export const SourceConfigSchema = response.SourceConfig;
export type SourceConfig = z.infer<typeof SourceConfigSchema>;

export const SourceRevisionConfigSchema = response.SourceRevisionConfig.extend({
  repo_commit_sha: z.string().nullish(),
});
export type SourceRevisionConfig = z.infer<typeof SourceRevisionConfigSchema>;

export const DeploymentSchema = response.Deployment.extend({
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
});
export type Deployment = z.infer<typeof DeploymentSchema>;

/** Body of the deployment listing: a page and the offset of the next one. */
export const DeploymentListSchema = z.looseObject({
  resources: z.array(DeploymentSchema),
  offset: int(),
});
export type DeploymentList = z.infer<typeof DeploymentListSchema>;

/**
 * An error body, read only to show the service's own message. `detail` is a
 * string (`{"detail": "Error description."}`) or a validation list
 * (`[{loc, msg, type}]`).
 */
export const ErrorBodySchema = z.looseObject({
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
});
