/**
 * Drift, field by field (docs/how-it-works.md, "Drift: what a reused deployment does not
 * get"): what is compared, how, and that secret values never show.
 */
import { describe, expect, it } from 'vitest';
import { buildCreateRequest } from '../../../src/run/decisions/deploy.ts';
import { findDrift } from '../../../src/run/decisions/drift.ts';
import type { DeploySpec } from '../../../src/inputs/deploy-spec.ts';
import type { Deployment, Repository } from '../../../src/service/schemas.ts';
import { INTEGRATION, aDeployment } from '../../support/fixtures.ts';
import { planReader } from '../../support/plan-inputs.ts';

const { plan: planOf } = planReader({ workspace: process.cwd() });

const repository: Repository = {
  host_integration_id: INTEGRATION,
  id: 1,
  owner: 'acme',
  name: 'agent',
  url: 'https://github.com/acme/agent',
  default_branch: 'main',
};

/** A deployment as the service answers, with what the step would have created, then `live` over it. */
function deployment(live: Partial<Deployment> = {}): Deployment {
  return aDeployment({
    source_config: { integration_id: INTEGRATION, repo_url: repository.url },
    ...live,
  });
}

function drift(given: Record<string, string>, live: Partial<Deployment> = {}) {
  const spec: DeploySpec = planOf({ name: 'app', 'integration-id': INTEGRATION, ...given });
  const request = buildCreateRequest(spec, spec.source === 'codehost' ? repository : undefined);
  return findDrift(spec, request, deployment(live));
}

describe('findDrift', () => {
  it('finds nothing when the deployment is what the step asks for', () => {
    expect(drift({})).toEqual([]);
  });

  it('does not count a repo_ref the listing supplied, only one the step sets', () => {
    const live = { source_revision_config: { repo_ref: 'master' } };

    expect(drift({}, live)).toEqual([]);
    expect(drift({ 'repo-ref': 'main' }, live)).toEqual([
      { field: 'source_revision_config.repo_ref', wanted: 'main', live: 'master' },
    ]);
  });

  it('compares only the keys the step sets inside objects, numbers by value', () => {
    const live = {
      source_config: {
        integration_id: INTEGRATION,
        repo_url: repository.url,
        resource_spec: { min_scale: 2, cpu: 2, memory_mb: 1024, labels: { team: 'a', env: 'x' } },
      },
    };

    expect(
      drift(
        {
          config:
            'source_config:\n  resource_spec:\n    min_scale: 2\n    cpu: 2.0\n    labels: {team: a}\n',
        },
        live,
      ),
    ).toEqual([]);
    expect(drift({ config: 'source_config:\n  resource_spec:\n    cpu: 1.5\n' }, live)).toEqual([
      { field: 'source_config.resource_spec.cpu', wanted: 1.5, live: 2 },
    ]);
  });

  it('compares arrays whole', () => {
    const sidecar = { name: 'proxy', image: 'envoy:1' };
    const live = {
      source_config: {
        integration_id: INTEGRATION,
        repo_url: repository.url,
        resource_spec: { sidecars: [sidecar, { name: 'log', image: 'fluent:2' }] },
      },
    };

    const found = drift(
      { config: JSON.stringify({ source_config: { resource_spec: { sidecars: [sidecar] } } }) },
      live,
    );

    expect(found.map((entry) => entry.field)).toEqual(['source_config.resource_spec.sidecars']);
  });

  it('compares build_on_push only when config sets it, null and absent as off', () => {
    const off = { source_config: { integration_id: INTEGRATION, repo_url: repository.url } };
    const wants = (value: string) => ({ config: `source_config:\n  build_on_push: ${value}\n` });

    expect(drift({}, off)).toEqual([]);
    expect(drift(wants('false'), off)).toEqual([]);
    expect(
      drift(wants('false'), { source_config: { ...off.source_config, build_on_push: null } }),
    ).toEqual([]);
    expect(drift(wants('true'), off)).toEqual([
      { field: 'source_config.build_on_push', wanted: true, live: false },
    ]);
    expect(
      drift(wants('false'), { source_config: { ...off.source_config, build_on_push: true } }),
    ).toEqual([{ field: 'source_config.build_on_push', wanted: false, live: true }]);
  });

  it('compares a deployment_type the action does not know like any other', () => {
    const live = (type: string) => ({
      source_config: {
        integration_id: INTEGRATION,
        repo_url: repository.url,
        deployment_type: type,
      },
    });
    const wants = (type: string) => ({ config: `source_config:\n  deployment_type: ${type}\n` });

    expect(drift(wants('serverless'), live('serverless'))).toEqual([]);
    expect(drift({}, live('dedicated'))).toEqual([]);
    expect(drift(wants('serverless'), live('dedicated'))).toEqual([
      { field: 'source_config.deployment_type', wanted: 'serverless', live: 'dedicated' },
    ]);
    expect(drift(wants('prod'), live('serverless'))).toEqual([
      { field: 'source_config.deployment_type', wanted: 'prod', live: 'serverless' },
    ]);
  });

  it('takes null and absent as the same', () => {
    expect(drift({ config: 'source_config:\n  custom_url: null\n' })).toEqual([]);
  });

  it('compares the repository the listing resolved with the live one', () => {
    const live = {
      source_config: { integration_id: INTEGRATION, repo_url: 'https://github.com/other/agent' },
    };

    expect(drift({}, live)).toEqual([
      {
        field: 'source_config.repo_url',
        wanted: repository.url,
        live: 'https://github.com/other/agent',
      },
    ]);
  });

  it('compares secrets by name, and values only where the service gives one, never showing them', () => {
    const live = {
      secrets: [
        { name: 'SAME', value: 'same-value-1234' },
        { name: 'CHANGED', value: 'old-value-1234' },
        { name: 'HIDDEN', value: '' },
        { name: 'ONLY_LIVE', value: 'live-only-1234' },
      ],
    };

    const found = drift(
      {
        secrets:
          'SAME=same-value-1234\nCHANGED=new-value-1234\nHIDDEN=whatever-1234\nONLY_STEP=step-only-1234',
      },
      live,
    );

    expect(found).toEqual([
      { field: 'secrets.CHANGED', wanted: '***', live: '***' },
      { field: 'secrets.ONLY_STEP', wanted: '***', live: null },
      { field: 'secrets.ONLY_LIVE', wanted: null, live: '***' },
    ]);
    expect(JSON.stringify(found)).not.toMatch(/1234/);
  });

  it('leaves secrets alone when the step gives none', () => {
    expect(drift({}, { secrets: [{ name: 'ONLY_LIVE', value: 'x-1234' }] })).toEqual([]);
  });

  it('compares secret_references as a set', () => {
    const a = { name: 'A', secret_name: 's', secret_key: 'a' };
    const b = { name: 'B', secret_name: 's', secret_key: 'b' };
    const external = {
      source: 'external_docker',
      'integration-id': '',
      'image-uri': 'registry.example/agent:1',
      config: JSON.stringify({ secret_references: [a, b] }),
    };
    const live = (references: unknown[]) => ({
      source: 'external_docker' as const,
      source_config: {},
      source_revision_config: { image_uri: 'registry.example/agent:1' },
      secret_references: references as Deployment['secret_references'],
    });

    expect(drift(external, live([b, a]))).toEqual([]);
    expect(drift(external, live([a])).map((entry) => entry.field)).toEqual(['secret_references']);
  });
});
