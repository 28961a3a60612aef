import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  DeploymentCreateRequestSchema,
  DeploymentListSchema,
  DeploymentSchema,
  DeploymentStatusSchema,
  ErrorBodySchema,
  RepositoryListSchema,
  RepositorySchema,
  SecretReferenceSchema,
  SourceConfigRequestSchema,
  SourceRevisionConfigRequestSchema,
  SourceRevisionConfigSchema,
  SourceSchema,
  SOURCES,
  STATUSES,
} from '../../src/service/schemas.ts';
import { formatIssuePath, formatZodIssues } from '../../src/service/issues.ts';
import { buildFamily } from '../../src/service/schema-family.ts';
import type { Deployment, DeploymentCreateRequest, Source } from '../../src/service/schemas.ts';

// ---------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------

const INTEGRATION_ID = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const DEPLOYMENT_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const TENANT_ID = 'ffffffff-0000-0000-0000-000000000001';
const REVISION_ID = '12345678-9abc-def0-1234-56789abcdef0';

type Json = Record<string, unknown>;

// The nested resources src/ reaches only through the others, built as schemas.ts builds them.
const request = buildFamily(z.strictObject);
const response = buildFamily(z.looseObject);
const ResourceSpecRequestSchema = request.SourceConfig.shape.resource_spec.unwrap().unwrap();
type ResourceSpecRequest = z.infer<typeof ResourceSpecRequestSchema>;
const ResourceSpecSchema = response.SourceConfig.shape.resource_spec.unwrap().unwrap();
const SourceConfigSchema = response.SourceConfig;
const SecretSchema = request.Deployment.shape.secrets.element;
type DeploymentStatus = z.infer<typeof DeploymentStatusSchema>;

/** A container with every field of resource_spec containers filled in. */
function container(name: string): Json {
  return {
    name,
    image: `registry.example.com/${name}:1.2.3`,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/sh', '-c'],
    args: ['exec run'],
    workingDir: '/app',
    env: [
      { name: 'PLAIN', value: 'x' },
      { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'NULLS', value: null, valueFrom: null },
    ],
    envFrom: [{ configMapRef: { name: 'cm' } }, { secretRef: { name: 'sec', optional: true } }],
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m' } },
    volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
    securityContext: { runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
    restartPolicy: 'Always',
  };
}

/** A resource_spec with every field the interface lists, written out once. */
function fullResourceSpec(): Json {
  return {
    min_scale: 1,
    max_scale: 3,
    cpu: 0.5,
    cpu_limit: 1.5,
    memory_mb: 512,
    memory_limit_mb: 1024,
    queue_min_scale: 1,
    queue_max_scale: 2,
    queue_cpu: 0.25,
    queue_cpu_limit: 1,
    queue_memory_mb: 256,
    queue_memory_limit_mb: 512,
    orchestrator_cpu: 0.5,
    orchestrator_cpu_limit: 1,
    orchestrator_memory_mb: 256,
    orchestrator_memory_limit_mb: 512,
    orchestrator_min_scale: 1,
    orchestrator_max_scale: 2,
    executor_cpu: 1,
    executor_cpu_limit: 2,
    executor_memory_mb: 1024,
    executor_memory_limit_mb: 2048,
    redis_cpu: 0.1,
    redis_cpu_limit: 0.2,
    redis_memory_mb: 128,
    redis_memory_limit_mb: 256,
    db_cpu: 0.5,
    db_cpu_limit: 1,
    db_memory_mb: 512,
    db_memory_limit_mb: 1024,
    db_storage_gi: 10,
    db_max_connections: 100,
    labels: { team: 'agents', 'app.kubernetes.io/name': 'agent' },
    annotations: { 'example.com/owner': 'ops' },
    service_account_name: 'agent-sa',
    image_pull_secrets: [{ name: 'regcred' }],
    volumes: [
      {
        name: 'all-sources',
        configMap: { name: 'cm' },
        secret: { secretName: 's' },
        emptyDir: {},
        persistentVolumeClaim: { claimName: 'pvc' },
        nfs: { server: 'nfs.local', path: '/export' },
        projected: { sources: [] },
        downwardAPI: { items: [] },
        csi: { driver: 'csi.example.com' },
      },
    ],
    volume_mounts: [
      {
        name: 'all-sources',
        mountPath: '/mnt',
        subPath: 'sub',
        mountPropagation: 'None',
        readOnly: false,
        subPathExpr: '$(POD_NAME)',
      },
    ],
    init_containers: [container('init')],
    sidecars: [container('sidecar')],
  };
}

/** A valid creation request for source codehost. */
function createRequest(): Json {
  return {
    name: 'my-agent',
    source: 'codehost',
    source_config: {
      integration_id: INTEGRATION_ID,
      repo_url: 'https://github.com/acme/agent',
      deployment_type: 'prod',
      build_on_push: true,
      custom_url: null,
      resource_spec: fullResourceSpec(),
      listener_id: null,
      listener_config: { k8s_namespace: 'agents' },
      install_command: 'npm ci',
      build_command: 'npm run build',
    },
    source_revision_config: {
      repo_ref: 'main',
      agent_config_path: 'langgraph.json',
      image_uri: null,
      source_tarball_path: null,
    },
    secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-test' }],
    secret_references: null,
  };
}

/** A realistic deployment as the service returns it, with keys we do not know. */
function deploymentResponse(): Json {
  return {
    name: 'my-agent',
    source: 'codehost',
    source_config: {
      integration_id: INTEGRATION_ID,
      repo_url: 'https://github.com/acme/agent',
      deployment_type: 'dev',
      build_on_push: true,
      custom_url: null,
      resource_spec: { ...fullResourceSpec(), gpu_count: 0 },
      listener_id: null,
      listener_config: null,
      install_command: null,
      build_command: null,
    },
    source_revision_config: {
      repo_ref: 'main',
      agent_config_path: 'langgraph.json',
      image_uri: null,
      source_tarball_path: null,
      repo_commit_sha: '0123456789abcdef0123456789abcdef01234567',
    },
    secrets: [{ name: 'OPENAI_API_KEY', value: '' }],
    secret_references: null,
    id: DEPLOYMENT_ID,
    tenant_id: TENANT_ID,
    created_at: '2025-01-02T03:04:05.678901+00:00',
    updated_at: '2025-01-02T03:04:06Z',
    status: 'AWAITING_DATABASE',
    latest_revision_id: REVISION_ID,
    active_revision_id: null,
    image_version: '0.2.1',
    tags: ['future-field'],
  };
}

function issuesOf<T>(schema: z.ZodType<T>, value: unknown) {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the parse to fail');
  return result.error.issues;
}

function linesOf<T>(schema: z.ZodType<T>, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the parse to fail');
  return formatZodIssues(result.error);
}

/** Deep-ish access into a fixture to mutate it in a test. */
function at(value: Json, ...path: (string | number)[]): Json {
  let cursor: unknown = value;
  for (const key of path) cursor = (cursor as Record<string | number, unknown>)[key];
  return cursor as Json;
}

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

describe('enums', () => {
  it('lists the five sources and five statuses of the contract', () => {
    expect(SOURCES).toEqual([
      'codehost',
      'external_docker',
      'internal_docker',
      'internal_source',
      'internal_template',
    ]);
    expect(STATUSES).toEqual([
      'AWAITING_DATABASE',
      'READY',
      'UNUSED',
      'AWAITING_DELETE',
      'UNKNOWN',
    ]);
    for (const s of SOURCES) expect(SourceSchema.parse(s)).toBe(s);
    for (const s of STATUSES) expect(DeploymentStatusSchema.parse(s)).toBe(s);
    expect(SourceSchema.safeParse('docker').success).toBe(false);
    expect(DeploymentStatusSchema.safeParse('ready').success).toBe(false);
  });

  it('infers literal unions', () => {
    expectTypeOf<Source>().toEqualTypeOf<(typeof SOURCES)[number]>();
    expectTypeOf<DeploymentStatus>().toEqualTypeOf<(typeof STATUSES)[number]>();
  });
});

// ---------------------------------------------------------------------------
// Repository
// ---------------------------------------------------------------------------

describe('RepositorySchema', () => {
  const repo = {
    host_integration_id: INTEGRATION_ID,
    id: 42,
    name: 'agent',
    owner: 'acme',
    url: 'https://github.com/acme/agent',
    default_branch: 'main',
  };

  it('parses a list and keeps unknown fields', () => {
    const parsed = RepositoryListSchema.parse([{ ...repo, private: true }]);
    expect(parsed[0]).toEqual({ ...repo, private: true });
  });

  it.each(Object.keys(repo))('fails without %s, with its path', (field) => {
    const copy: Json = { ...repo };
    delete copy[field];
    const issues = issuesOf(RepositoryListSchema, [copy]);
    expect(issues.map((i) => i.path)).toEqual([[0, field]]);
  });

  it('rejects a non-integer id and a non-uuid integration id', () => {
    expect(issuesOf(RepositorySchema, { ...repo, id: 4.2 }).map((i) => i.path)).toEqual([['id']]);
    expect(issuesOf(RepositorySchema, { ...repo, id: '42' }).map((i) => i.path)).toEqual([['id']]);
    expect(
      issuesOf(RepositorySchema, { ...repo, host_integration_id: 'nope' }).map((i) => i.path),
    ).toEqual([['host_integration_id']]);
  });

  it('accepts any 8-4-4-4-12 hex id, not only RFC 4122 variants', () => {
    for (const id of [
      '00000000-0000-0000-0000-000000000000',
      'ABCDEF01-2345-6789-ABCD-EF0123456789',
    ]) {
      expect(RepositorySchema.safeParse({ ...repo, host_integration_id: id }).success).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------
// Deployment responses
// ---------------------------------------------------------------------------

describe('DeploymentSchema (response)', () => {
  it('parses a full realistic deployment and keeps unknown fields at every level', () => {
    const input = deploymentResponse();
    const parsed = DeploymentSchema.parse(input);
    expect(parsed).toEqual(input);
    expect(parsed['tags']).toEqual(['future-field']);
    expect(parsed.source_config.deployment_type).toBe('dev');
    expect(parsed.source_config.resource_spec?.['gpu_count']).toBe(0);
    expect(parsed.source_revision_config.repo_commit_sha).toBe(
      '0123456789abcdef0123456789abcdef01234567',
    );
  });

  it('keeps unknown keys inside nested containers too', () => {
    const input = deploymentResponse();
    const sidecar = at(input, 'source_config', 'resource_spec', 'sidecars', 0);
    sidecar['startupProbe'] = { exec: {} };
    const parsed = DeploymentSchema.parse(input);
    expect(parsed.source_config.resource_spec?.sidecars?.[0]?.['startupProbe']).toEqual({
      exec: {},
    });
  });

  it('accepts a minimal deployment (optional fields absent, nullable fields null)', () => {
    const input: Json = {
      name: 'x',
      source: 'external_docker',
      source_config: {},
      source_revision_config: {},
      secrets: [],
      id: DEPLOYMENT_ID,
      tenant_id: TENANT_ID,
      created_at: '2025-01-02T03:04:05',
      updated_at: '2025-01-02T03:04:05.1+02:00',
      status: 'READY',
      latest_revision_id: null,
      active_revision_id: null,
    };
    expect(DeploymentSchema.parse(input)).toEqual(input);
  });

  const required = [
    'name',
    'source',
    'source_config',
    'source_revision_config',
    'secrets',
    'id',
    'tenant_id',
    'created_at',
    'updated_at',
    'status',
    'latest_revision_id',
    'active_revision_id',
  ];

  it.each(required)('fails without %s, with its path', (field) => {
    const input = deploymentResponse();
    delete input[field];
    const issues = issuesOf(DeploymentSchema, input);
    expect(issues.map((i) => i.path)).toEqual([[field]]);
  });

  it.each(['secret_references', 'image_version'])('does not require %s', (field) => {
    const input = deploymentResponse();
    delete input[field];
    expect(DeploymentSchema.safeParse(input).success).toBe(true);
  });

  it.each<[string, (d: Json) => void, (string | number)[]]>([
    ['name as number', (d) => (d['name'] = 1), ['name']],
    ['unknown source', (d) => (d['source'] = 'ftp'), ['source']],
    ['status as number', (d) => (d['status'] = 3), ['status']],
    ['id not a uuid', (d) => (d['id'] = 'abc'), ['id']],
    ['tenant_id not a uuid', (d) => (d['tenant_id'] = 7), ['tenant_id']],
    ['created_at not a date-time', (d) => (d['created_at'] = 'yesterday'), ['created_at']],
    ['updated_at a date only', (d) => (d['updated_at'] = '2025-01-02'), ['updated_at']],
    [
      'active_revision_id not a uuid',
      (d) => (d['active_revision_id'] = ''),
      ['active_revision_id'],
    ],
    ['secrets not an array', (d) => (d['secrets'] = {}), ['secrets']],
    ['secret without value', (d) => (d['secrets'] = [{ name: 'a' }]), ['secrets', 0, 'value']],
    [
      'secret_references item incomplete',
      (d) => (d['secret_references'] = [{ name: 'a', secret_name: 'b' }]),
      ['secret_references', 0, 'secret_key'],
    ],
    ['image_version as number', (d) => (d['image_version'] = 1), ['image_version']],
    [
      'source_config.integration_id not a uuid',
      (d) => (at(d, 'source_config')['integration_id'] = 'x'),
      ['source_config', 'integration_id'],
    ],
    [
      'source_config.build_on_push as string',
      (d) => (at(d, 'source_config')['build_on_push'] = 'true'),
      ['source_config', 'build_on_push'],
    ],
    [
      'resource_spec.min_scale not an integer',
      (d) => (at(d, 'source_config', 'resource_spec')['min_scale'] = 1.5),
      ['source_config', 'resource_spec', 'min_scale'],
    ],
    [
      'resource_spec.cpu as string',
      (d) => (at(d, 'source_config', 'resource_spec')['cpu'] = '0.5'),
      ['source_config', 'resource_spec', 'cpu'],
    ],
    [
      'labels value not a string',
      (d) => (at(d, 'source_config', 'resource_spec', 'labels')['team'] = 1),
      ['source_config', 'resource_spec', 'labels', 'team'],
    ],
    [
      'sidecar without image',
      (d) => delete at(d, 'source_config', 'resource_spec', 'sidecars', 0)['image'],
      ['source_config', 'resource_spec', 'sidecars', 0, 'image'],
    ],
    [
      'repo_commit_sha as number',
      (d) => (at(d, 'source_revision_config')['repo_commit_sha'] = 1),
      ['source_revision_config', 'repo_commit_sha'],
    ],
  ])('fails on %s, with the path', (_label, mutate, path) => {
    const input = deploymentResponse();
    mutate(input);
    expect(issuesOf(DeploymentSchema, input).map((i) => i.path)).toEqual([path]);
  });

  it('infers the read-only fields', () => {
    // A known status, or any status the service adds later.
    expectTypeOf<DeploymentStatus>().toExtend<Deployment['status']>();
    expectTypeOf<Deployment['status']>().toEqualTypeOf<string>();
    expectTypeOf<Deployment['latest_revision_id']>().toEqualTypeOf<string | null>();
    expectTypeOf<Deployment['image_version']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Deployment['source_revision_config']['repo_commit_sha']>().toEqualTypeOf<
      string | null | undefined
    >();
  });
});

describe('DeploymentListSchema', () => {
  it('parses a page', () => {
    const page = DeploymentListSchema.parse({ resources: [deploymentResponse()], offset: 20 });
    expect(page.resources).toHaveLength(1);
    expect(page.offset).toBe(20);
  });

  it('fails with the path of a bad item', () => {
    const bad = deploymentResponse();
    delete bad['id'];
    const result = DeploymentListSchema.safeParse({ resources: [deploymentResponse(), bad] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => i.path)).toEqual([['resources', 1, 'id'], ['offset']]);
    expect(formatZodIssues(result.error)).toEqual([
      'resources[1].id: Invalid input: expected string, received undefined',
      'offset: Invalid input: expected number, received undefined',
    ]);
  });

  it('rejects a non-integer offset', () => {
    expect(
      issuesOf(DeploymentListSchema, { resources: [], offset: 1.5 }).map((i) => i.path),
    ).toEqual([['offset']]);
  });
});

describe('SourceConfigSchema / SourceRevisionConfigSchema / ResourceSpecSchema (response)', () => {
  it('tolerate unknown keys', () => {
    expect(SourceConfigSchema.parse({ gpu_type: 'a100' })).toEqual({ gpu_type: 'a100' });
    expect(SourceRevisionConfigSchema.parse({ repo_commit_sha: 'abc', x: 1 })).toEqual({
      repo_commit_sha: 'abc',
      x: 1,
    });
    expect(ResourceSpecSchema.parse({ min_scale: null, x: 1 })).toEqual({ min_scale: null, x: 1 });
  });
});

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

describe('source_config.deployment_type', () => {
  it.each(['dev_free', 'dev', 'prod'])('is accepted in a request: %s', (type) => {
    const input = createRequest();
    at(input, 'source_config')['deployment_type'] = type;
    expect(DeploymentCreateRequestSchema.parse(input).source_config.deployment_type).toBe(type);
  });

  it.each(['serverless', 'dedicated'])(
    'takes a type the action does not know in a request, as it is: %s',
    (type) => {
      const input = createRequest();
      at(input, 'source_config')['deployment_type'] = type;
      expect(DeploymentCreateRequestSchema.parse(input).source_config.deployment_type).toBe(type);
    },
  );

  it.each<[string, unknown, string]>([
    ['a number', 3, 'expected string, received number'],
    ['a list', ['dev'], 'expected string, received array'],
  ])('refuses %s in a request, naming the path', (_title, value, problem) => {
    expect(linesOf(SourceConfigRequestSchema, { deployment_type: value })).toEqual([
      `deployment_type: Invalid input: ${problem}`,
    ]);
  });

  it('is read from an answer, a type the service adds later included', () => {
    const input = deploymentResponse();
    expect(DeploymentSchema.parse(input).source_config.deployment_type).toBe('dev');
    at(input, 'source_config')['deployment_type'] = 'enterprise';
    expect(DeploymentSchema.parse(input).source_config.deployment_type).toBe('enterprise');
    at(input, 'source_config')['deployment_type'] = 3;
    expect(linesOf(DeploymentSchema, input)).toEqual([
      'source_config.deployment_type: Invalid input: expected string, received number',
    ]);
  });
});

describe('DeploymentCreateRequestSchema (request)', () => {
  it('accepts a complete request, including every resource_spec field', () => {
    const input = createRequest();
    expect(DeploymentCreateRequestSchema.parse(input)).toEqual(input);
  });

  it('accepts a complete resource_spec on its own', () => {
    const spec = fullResourceSpec();
    expect(ResourceSpecRequestSchema.parse(spec)).toEqual(spec);
  });

  it('accepts null for every resource_spec field', () => {
    const spec = Object.fromEntries(Object.keys(fullResourceSpec()).map((k) => [k, null]));
    expect(ResourceSpecRequestSchema.parse(spec)).toEqual(spec);
  });

  it('accepts null for every source_config and source_revision_config field', () => {
    const config = Object.fromEntries(
      Object.keys(at(createRequest(), 'source_config')).map((k) => [k, null]),
    );
    expect(SourceConfigRequestSchema.parse(config)).toEqual(config);
    const revision = {
      repo_ref: null,
      agent_config_path: null,
      image_uri: null,
      source_tarball_path: null,
    };
    expect(SourceRevisionConfigRequestSchema.parse(revision)).toEqual(revision);
  });

  it('accepts an external_docker request with secret references', () => {
    const input: Json = {
      name: 'img',
      source: 'external_docker',
      source_config: {},
      source_revision_config: { image_uri: 'docker.io/acme/agent:1' },
      secrets: [],
      secret_references: [{ name: 'KEY', secret_name: 'k8s-secret', secret_key: 'key' }],
    };
    expect(DeploymentCreateRequestSchema.parse(input)).toEqual(input);
  });

  it.each(['name', 'source', 'source_config', 'source_revision_config', 'secrets'])(
    'requires %s',
    (field) => {
      const input = createRequest();
      delete input[field];
      expect(issuesOf(DeploymentCreateRequestSchema, input).map((i) => i.path)).toEqual([[field]]);
    },
  );

  it('rejects an empty name', () => {
    expect(linesOf(DeploymentCreateRequestSchema, { ...createRequest(), name: '' })).toEqual([
      'name: must not be empty',
    ]);
  });

  it.each<[string, (d: Json) => void, (string | number)[], string]>([
    ['top level', (d) => (d['id'] = DEPLOYMENT_ID), [], 'id'],
    ['top level, read-only status', (d) => (d['status'] = 'READY'), [], 'status'],
    [
      'source_config',
      (d) => (at(d, 'source_config')['repo_uri'] = 'x'),
      ['source_config'],
      'repo_uri',
    ],
    [
      'source_config, beside deployment_type',
      (d) => (at(d, 'source_config')['deployment_typ'] = 'dev'),
      ['source_config'],
      'deployment_typ',
    ],
    [
      'source_config.listener_config',
      (d) => (at(d, 'source_config', 'listener_config')['namespace'] = 'x'),
      ['source_config', 'listener_config'],
      'namespace',
    ],
    [
      'resource_spec',
      (d) => (at(d, 'source_config', 'resource_spec')['min_scal'] = 1),
      ['source_config', 'resource_spec'],
      'min_scal',
    ],
    [
      'image_pull_secrets item',
      (d) => (at(d, 'source_config', 'resource_spec', 'image_pull_secrets', 0)['nam'] = 'x'),
      ['source_config', 'resource_spec', 'image_pull_secrets', 0],
      'nam',
    ],
    [
      'volumes item',
      (d) => (at(d, 'source_config', 'resource_spec', 'volumes', 0)['hostPath'] = {}),
      ['source_config', 'resource_spec', 'volumes', 0],
      'hostPath',
    ],
    [
      'volume_mounts item',
      (d) => (at(d, 'source_config', 'resource_spec', 'volume_mounts', 0)['mount_path'] = '/x'),
      ['source_config', 'resource_spec', 'volume_mounts', 0],
      'mount_path',
    ],
    [
      'a container inside sidecars',
      (d) => (at(d, 'source_config', 'resource_spec', 'sidecars', 0)['imagePullPolicyy'] = 'x'),
      ['source_config', 'resource_spec', 'sidecars', 0],
      'imagePullPolicyy',
    ],
    [
      'a container inside init_containers',
      (d) => (at(d, 'source_config', 'resource_spec', 'init_containers', 0)['ports'] = []),
      ['source_config', 'resource_spec', 'init_containers', 0],
      'ports',
    ],
    [
      'a container env item',
      (d) => (at(d, 'source_config', 'resource_spec', 'sidecars', 0, 'env', 0)['val'] = 'x'),
      ['source_config', 'resource_spec', 'sidecars', 0, 'env', 0],
      'val',
    ],
    [
      'a container resources',
      (d) => (at(d, 'source_config', 'resource_spec', 'sidecars', 0, 'resources')['claims'] = []),
      ['source_config', 'resource_spec', 'sidecars', 0, 'resources'],
      'claims',
    ],
    [
      'a container volumeMounts item',
      (d) =>
        (at(d, 'source_config', 'resource_spec', 'sidecars', 0, 'volumeMounts', 0)['ro'] = true),
      ['source_config', 'resource_spec', 'sidecars', 0, 'volumeMounts', 0],
      'ro',
    ],
    [
      'source_revision_config with repo_commit_sha (response only)',
      (d) => (at(d, 'source_revision_config')['repo_commit_sha'] = 'abc'),
      ['source_revision_config'],
      'repo_commit_sha',
    ],
    ['a secret', (d) => (at(d, 'secrets', 0)['secret_name'] = 'x'), ['secrets', 0], 'secret_name'],
  ])('rejects an unknown key in %s', (_label, mutate, path, key) => {
    const input = createRequest();
    mutate(input);
    const issues = issuesOf(DeploymentCreateRequestSchema, input);
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue?.code).toBe('unrecognized_keys');
    expect(issue?.path).toEqual(path);
    expect(issue?.code === 'unrecognized_keys' ? issue.keys : []).toEqual([key]);
  });

  it('reports the min_scal typo readably', () => {
    const input = createRequest();
    at(input, 'source_config', 'resource_spec')['min_scal'] = 1;
    expect(linesOf(DeploymentCreateRequestSchema, input)).toEqual([
      'source_config.resource_spec.min_scal: unknown key',
    ]);
  });

  it('requires name and image in a container, and name in an env item', () => {
    const input = createRequest();
    const sidecar = at(input, 'source_config', 'resource_spec', 'sidecars', 0);
    delete sidecar['name'];
    delete sidecar['image'];
    delete at(sidecar, 'env', 0)['name'];
    expect(issuesOf(DeploymentCreateRequestSchema, input).map((i) => i.path)).toEqual([
      ['source_config', 'resource_spec', 'sidecars', 0, 'name'],
      ['source_config', 'resource_spec', 'sidecars', 0, 'image'],
      ['source_config', 'resource_spec', 'sidecars', 0, 'env', 0, 'name'],
    ]);
  });

  it('rejects mistyped nested fields with their path', () => {
    const input = createRequest();
    at(input, 'source_config', 'resource_spec')['memory_mb'] = 0.5;
    at(input, 'source_config', 'resource_spec', 'volume_mounts', 0)['readOnly'] = 'yes';
    at(input, 'source_config', 'resource_spec', 'sidecars', 0)['command'] = 'run';
    at(input, 'source_config')['listener_id'] = 'not-a-uuid';
    expect(linesOf(DeploymentCreateRequestSchema, input)).toEqual([
      'source_config.resource_spec.memory_mb: Invalid input: expected int, received number',
      'source_config.resource_spec.volume_mounts[0].readOnly: Invalid input: expected boolean, received string',
      'source_config.resource_spec.sidecars[0].command: Invalid input: expected array, received string',
      'source_config.listener_id: Invalid UUID',
    ]);
  });

  it('keeps free-form maps free-form', () => {
    const input = createRequest();
    const spec = at(input, 'source_config', 'resource_spec');
    spec['labels'] = { 'any/key.with-dots': 'v', other: '' };
    spec['annotations'] = {};
    const volume = at(spec, 'volumes', 0);
    volume['csi'] = { driver: 'x', volumeAttributes: { a: 'b' }, readOnly: true, anything: [1] };
    volume['emptyDir'] = { medium: 'Memory', sizeLimit: '1Gi' };
    const sidecar = at(spec, 'sidecars', 0);
    sidecar['securityContext'] = { privileged: false, seccompProfile: { type: 'RuntimeDefault' } };
    sidecar['envFrom'] = [{ whatever: { deeply: { nested: true } } }];
    at(sidecar, 'env', 1)['valueFrom'] = { fieldRef: { fieldPath: 'metadata.name' }, extra: 1 };
    at(sidecar, 'resources')['limits'] = { 'nvidia.com/gpu': '1' };
    expect(DeploymentCreateRequestSchema.parse(input)).toEqual(input);
  });

  it('still checks the value type of string maps', () => {
    const input = createRequest();
    at(input, 'source_config', 'resource_spec', 'labels')['n'] = 1;
    expect(linesOf(DeploymentCreateRequestSchema, input)).toEqual([
      'source_config.resource_spec.labels.n: Invalid input: expected string, received number',
    ]);
  });

  it('exports strict Secret and SecretReference schemas', () => {
    expect(SecretSchema.safeParse({ name: 'a', value: 'b' }).success).toBe(true);
    expect(SecretSchema.safeParse({ name: 'a', value: 'b', c: 1 }).success).toBe(false);
    expect(SecretSchema.safeParse({ name: 'a' }).success).toBe(false);
    expect(
      SecretReferenceSchema.safeParse({ name: 'a', secret_name: 'b', secret_key: 'c' }).success,
    ).toBe(true);
    expect(
      SecretReferenceSchema.safeParse({ name: 'a', secret_name: 'b', secret_key: 'c', d: 1 })
        .success,
    ).toBe(false);
  });

  it('infers request types without index signatures', () => {
    expectTypeOf<DeploymentCreateRequest['source']>().toEqualTypeOf<Source>();
    expectTypeOf<keyof DeploymentCreateRequest>().toEqualTypeOf<
      | 'name'
      | 'source'
      | 'source_config'
      | 'source_revision_config'
      | 'secrets'
      | 'secret_references'
    >();
    expectTypeOf<ResourceSpecRequest['min_scale']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<keyof DeploymentCreateRequest['source_revision_config']>().toEqualTypeOf<
      'repo_ref' | 'agent_config_path' | 'image_uri' | 'source_tarball_path'
    >();
  });
});

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

describe('ErrorBodySchema', () => {
  it('reads a string detail', () => {
    expect(ErrorBodySchema.parse({ detail: 'Error description.' })).toEqual({
      detail: 'Error description.',
    });
  });

  it('reads a validation list and keeps unknown keys', () => {
    const body = {
      detail: [
        { loc: ['body', 'source_config', 0], msg: 'field required', type: 'missing', ctx: {} },
      ],
      request_id: 'r-1',
    };
    expect(ErrorBodySchema.parse(body)).toEqual(body);
  });

  it('reads message and error', () => {
    expect(ErrorBodySchema.parse({ message: 'm', error: 'e' })).toEqual({
      message: 'm',
      error: 'e',
    });
    expect(ErrorBodySchema.parse({})).toEqual({});
  });

  it('rejects a detail of another shape', () => {
    expect(ErrorBodySchema.safeParse({ detail: { code: 1 } }).success).toBe(false);
    expect(ErrorBodySchema.safeParse({ detail: [{ msg: 'no loc' }] }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// formatZodIssues
// ---------------------------------------------------------------------------

describe('formatZodIssues', () => {
  it('prints (root) for an empty path', () => {
    expect(linesOf(DeploymentSchema, 'nope')).toEqual([
      '(root): Invalid input: expected object, received string',
    ]);
  });

  it('prints one line per unknown key, top level keys without a prefix', () => {
    const input = { ...createRequest(), id: DEPLOYMENT_ID, tenant_id: TENANT_ID };
    expect(linesOf(DeploymentCreateRequestSchema, input)).toEqual([
      'id: unknown key',
      'tenant_id: unknown key',
    ]);
  });

  it('prints array indices in brackets, also at the root', () => {
    expect(linesOf(RepositoryListSchema, [{}]).slice(0, 2)).toEqual([
      '[0].host_integration_id: Invalid input: expected string, received undefined',
      '[0].id: Invalid input: expected number, received undefined',
    ]);
  });

  it('quotes keys that are not plain names', () => {
    expect(formatIssuePath(['labels', 'app.kubernetes.io/name'])).toBe(
      'labels["app.kubernetes.io/name"]',
    );
    expect(formatIssuePath(['a', 0, 'b-c', 1, 2])).toBe('a[0].b-c[1][2]');
    expect(formatIssuePath([])).toBe('(root)');
  });

  it('prints the enum message with the path', () => {
    const input = deploymentResponse();
    input['source'] = 'ftp';
    const [line] = linesOf(DeploymentSchema, input);
    expect(line).toMatch(/^source: Invalid option: expected one of /);
    expect(line).toContain('"codehost"');
  });

  it('takes a status the service adds later (it is waited through, not a failure)', () => {
    const input = deploymentResponse();
    input['status'] = 'DEPLOYING';
    expect(DeploymentSchema.parse(input).status).toBe('DEPLOYING');
  });
});
