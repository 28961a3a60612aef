import { describe, expect, it } from 'vitest';
import type { DeployResult } from '../../../src/run/decisions/deploy.ts';
import { dryRunReport, outputsOf, redactDeployment } from '../../../src/run/decisions/report.ts';
import type { Deployment, DeploymentCreateRequest } from '../../../src/service/schemas.ts';
import { aDeployment } from '../../support/fixtures.ts';

const deployment: Deployment = aDeployment({
  name: 'my-agent',
  source_config: { repo_url: 'https://git.example/acme/agent' },
  source_revision_config: { repo_ref: 'main' },
  secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-live-123' }],
  status: 'AWAITING_DATABASE',
});

const request: DeploymentCreateRequest = {
  name: 'my-agent',
  source: 'codehost',
  source_config: {},
  source_revision_config: { repo_ref: 'main' },
  secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-live-123' }],
};

describe('outputs', () => {
  it('gives empty strings for null revision ids and redacts secrets in the deployment JSON', () => {
    const result: DeployResult = { deployment, created: true, request };
    const outputs = outputsOf(result, deployment, { live: false, drift: [] });

    expect(outputs).toMatchObject({
      'deployment-id': deployment.id,
      status: 'AWAITING_DATABASE',
      created: 'true',
      'latest-revision-id': '',
      'active-revision-id': '',
      // What this run sent: the request's repository and ref.
      'repo-url': '',
      'repo-ref': 'main',
      live: 'false',
      drift: '[]',
      'commit-sha': '',
    });
    expect(outputs.deployment).not.toContain('sk-live-123');
    expect(JSON.parse(outputs.deployment ?? '') as Deployment).toEqual(
      redactDeployment(deployment),
    );
  });

  it('follows a later state of the deployment', () => {
    const ready = { ...deployment, status: 'READY' as const };

    expect(
      outputsOf({ deployment, created: false, request }, ready, { live: true, drift: [] }).status,
    ).toBe('READY');
  });

  it('has no deployment outputs in a dry run that would create', () => {
    expect(outputsOf({ created: false, request }, undefined, { live: false, drift: [] })).toEqual({
      created: 'false',
      'repo-url': '',
      'repo-ref': 'main',
      live: 'false',
      healthy: '',
      'health-status': '',
      drift: '[]',
    });
  });
});

describe('dryRunReport', () => {
  it('prints the body that would be sent, secret values redacted', () => {
    const text = dryRunReport({ created: false, request });

    expect(text).toMatch(/^dry run: POST \/v2\/deployments would send:\n\{/);
    expect(text).toContain('"name": "OPENAI_API_KEY"');
    expect(text).toContain('"value": "***"');
    expect(text).not.toContain('sk-live-123');
  });

  it('says nothing would be sent when the deployment exists', () => {
    expect(dryRunReport({ deployment, created: false, request })).toMatch(
      /^dry run: 'my-agent' exists, so nothing would be sent/,
    );
  });
});
