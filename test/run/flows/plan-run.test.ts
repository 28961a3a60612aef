/**
 * The plan's outputs (src/run/flows/plan-run.ts): one line of JSON, secrets by name only, the
 * counts as text. How its summary reads is test/views/plan-summary.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { planOutputs } from '../../../src/run/decisions/plan-outputs.ts';
import type { Verdict } from '../../../src/run/ports/findings.ts';
import { aDeployment } from '../../support/fixtures.ts';

const ID = '0b7e1c5a-3f2d-4e6a-9b8c-1d2e3f4a5b6c';
const HOSTILE = '<script>alert(1)</script> @octocat #12 [x](https://evil.example)';

const reuse: Verdict = {
  action: 'reuse',
  deployment: aDeployment({ id: ID, status: 'READY' }),
  changes: [
    { field: 'source_revision_config.agent_config_path', wanted: 'agent-v2.json', live: HOSTILE },
    { field: 'secrets.OPENAI_API_KEY', wanted: '***', live: '***' },
  ],
  tracks: { branch: 'main', buildsOnPush: true },
};

describe('planOutputs', () => {
  it('is one line of JSON with the action, the id and every change; the counts as text', () => {
    const outputs = planOutputs(reuse, 'https://console.example/deployments/{id}');
    expect(outputs.plan).not.toContain('\n');
    expect(JSON.parse(outputs.plan ?? '')).toEqual({
      action: 'reuse',
      'deployment-id': ID,
      changes: reuse.changes,
      reason: null,
    });
    expect(outputs).toMatchObject({
      action: 'reuse',
      changes: '2',
      'deployment-id': ID,
      status: 'READY',
      'dashboard-url': `https://console.example/deployments/${ID}`,
    });
  });

  it('leaves the deployment outputs empty when none was found', () => {
    expect(planOutputs({ action: 'create', changes: [] }, undefined)).toMatchObject({
      'deployment-id': '',
      status: '',
      'dashboard-url': '',
      changes: '0',
    });
  });
});
