/** The one definition of the service's nested resources and its field kinds, built twice in schemas.ts. */
import { z } from 'zod';

/** An object whose inner structure the service interface does not show: anything goes. */
const freeForm = () => z.record(z.string(), z.unknown());
/** Labels, annotations, resource quantities. */
const stringMap = () => z.record(z.string(), z.string());
/**
 * Any 8-4-4-4-12 hex id (z.guid), not only RFC 4122 variants. A malformed id reads "Invalid
 * UUID" as the contract names it; a missing one keeps zod's "expected string, received undefined".
 */
export const uuid = () =>
  z.guid({ error: (issue) => (issue.code === 'invalid_format' ? 'Invalid UUID' : undefined) });
export const int = () => z.number().int();
/** ISO 8601, with an offset (`Z`, `+02:00`) or without, any number of fractional digits. */
export const dateTime = () => z.iso.datetime({ offset: true, local: true });

/** A part's `cpu`, `cpu_limit`, `memory_mb` and `memory_limit_mb`, in that order. */
function sizing<P extends string>(part: P) {
  type Key = `${P}${'cpu' | 'cpu_limit' | 'memory_mb' | 'memory_limit_mb'}`;
  return {
    [`${part}cpu`]: z.number().nullish(),
    [`${part}cpu_limit`]: z.number().nullish(),
    [`${part}memory_mb`]: int().nullish(),
    [`${part}memory_limit_mb`]: int().nullish(),
  } as Record<Key, z.ZodOptional<z.ZodNullable<z.ZodNumber>>>;
}

type ObjectFactory<C extends z.core.$strict | z.core.$loose> = <S extends z.core.$ZodShape>(
  shape: S,
) => z.ZodObject<S, C>;

/** Source kinds (docs/how-it-works.md, "The service's interface"). */
export const SOURCES = [
  'codehost',
  'external_docker',
  'internal_docker',
  'internal_source',
  'internal_template',
] as const;
export const SourceSchema = z.lazy(() => z.enum(SOURCES));
export type Source = z.infer<typeof SourceSchema>;

/**
 * Wrapped by `object` at every level. Fields only a request or only an answer has are added
 * with `.extend`, which keeps the strictness of the object it extends.
 */
export function buildFamily<C extends z.core.$strict | z.core.$loose>(object: ObjectFactory<C>) {
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

  const ResourceSpec = object({
    min_scale: int().nullish(),
    max_scale: int().nullish(),
    ...sizing(''),
    queue_min_scale: int().nullish(),
    queue_max_scale: int().nullish(),
    ...sizing('queue_'),
    ...sizing('orchestrator_'),
    orchestrator_min_scale: int().nullish(),
    orchestrator_max_scale: int().nullish(),
    ...sizing('executor_'),
    ...sizing('redis_'),
    ...sizing('db_'),
    db_storage_gi: int().nullish(),
    db_max_connections: int().nullish(),
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

  // Only the fields both sent and returned.
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

  // Only the fields both sent and returned.
  const Deployment = object({
    name: z.string(),
    source: SourceSchema,
    source_config: SourceConfig,
    source_revision_config: SourceRevisionConfig,
    secrets: z.array(Secret),
    secret_references: z.array(SecretReference).nullish(),
  });

  return { SourceConfig, SourceRevisionConfig, SecretReference, Deployment };
}
