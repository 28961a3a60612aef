/**
 * End-to-end, the plan sub-action (plan/action.yml) through dist/plan.js against the service emulator: its verdict (create,
 * reuse with every difference, fail), outputs, job summary and exit, GET
 * requests only whatever happens, and the same decision as the deploy step
 * it plans for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { TENANT_ID } from '../support/ids.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { runAction, type RunOptions } from '../support/run-action.ts';

const SECRET = 'sk-plan-secret-value-0123456789';
let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ tenantId: TENANT_ID });
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

const PLAN: RunOptions = { action: 'plan/action.yml' };

/** The plan of a codehost step for my-agent. */
function planStep(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'api-url': emu.url,
    name: 'my-agent',
    'integration-id': INTEGRATION,
    'agent-config-path': 'agent.json',
    secrets: `OPENAI_API_KEY=${SECRET}`,
    ...extra,
  };
}

/** A deployment my-agent as an earlier deploy left it. */
function existing(overrides: Record<string, unknown> = {}) {
  return emu.seedDeployment({
    name: 'my-agent',
    source: 'codehost',
    source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: true },
    source_revision_config: { repo_ref: 'main', agent_config_path: 'agent.json' },
    secrets: [{ name: 'OPENAI_API_KEY', value: SECRET }],
    ...overrides,
  } as never);
}

const methods = () => [...new Set(emu.requests.map((request) => request.method))];

describe('a deployment type the action does not know', () => {
  it('is in the request the deploy would send, with the one warning', async () => {
    const run = await runAction(
      planStep({ config: 'source_config:\n  deployment_type: serverless\n' }),
      PLAN,
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'create' });
    expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toEqual([
      "::warning::config: source_config.deployment_type 'serverless' is not one this release knows (dev_free, dev, prod): it is passed on as it is, and the service decides",
    ]);
    expect(run.summary).toContain('&quot;deployment_type&quot;: &quot;serverless&quot;');
    expect(methods()).toEqual(['GET']);
  });
});

describe('the plan of every push', () => {
  it('says the deploy on merge would fail on a revision the deployment will never take', async () => {
    existing();

    const run = await runAction(planStep({ 'agent-config-path': 'agent-v2.json' }), PLAN);

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'reuse', changes: '1' });
    expect(run.stdout).toContain(
      '::warning::plan: the deploy on merge would fail: source_revision_config.agent_config_path is agent.json and the step asks for agent-v2.json.',
    );
    expect(run.summary).toContain('The deploy on merge would fail');
  });

  it('finds no difference in a wanted build_on_push false against a live null, and says a push builds nothing', async () => {
    existing({
      source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL, build_on_push: null },
    });

    const run = await runAction(
      planStep({ config: 'source_config:\n  build_on_push: false\n', 'on-change': 'fail' }),
      PLAN,
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'reuse', changes: '0' });
    expect(run.summary).toContain('builds nothing');
    expect(run.summary).toContain('will not build the merged commit');
  });

  it('finds no difference when the deployment builds on push, as the deploy creates it', async () => {
    existing();

    const run = await runAction(planStep({ 'on-change': 'fail' }), PLAN);

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'reuse', changes: '0' });
    expect(run.stdout).not.toContain('would fail');
  });
});

describe('the plan', () => {
  it('create: no deployment has the name; the body the deploy would send, secret values hidden', async () => {
    const run = await runAction(planStep(), PLAN);

    expect(run.error).toBeUndefined();
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'create', changes: '0', 'deployment-id': '' });
    expect(JSON.parse(run.outputs.plan ?? '')).toEqual({
      action: 'create',
      'deployment-id': null,
      changes: [],
      reason: null,
    });
    expect(run.summary).toContain('would create');
    expect(run.summary).toContain('OPENAI_API_KEY');
    expect(methods()).toEqual(['GET']);
    expect(emu.deployments).toHaveLength(0);
    expectNoSecret([SECRET], run);
  });

  it('create with on-change: fail does not fail', async () => {
    const run = await runAction(planStep({ 'on-change': 'fail' }), PLAN);
    expect(run.exitCode).toBe(0);
    expect(run.outputs.action).toBe('create');
  });

  it('reuse: every difference the deploy would not apply, secrets by name only; exit 0 with on-change: none', async () => {
    const deployment = existing();

    const run = await runAction(
      planStep({
        'agent-config-path': 'agent-v2.json',
        secrets: `OPENAI_API_KEY=${SECRET}-rotated\nDB_PASSWORD=another-secret-value-xyz`,
      }),
      PLAN,
    );

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({
      action: 'reuse',
      changes: '3',
      'deployment-id': deployment.id,
      status: deployment.status,
    });
    const plan = JSON.parse(run.outputs.plan ?? '') as { changes: { field: string }[] };
    expect(plan.changes.map((change) => change.field).sort()).toEqual([
      'secrets.DB_PASSWORD',
      'secrets.OPENAI_API_KEY',
      'source_revision_config.agent_config_path',
    ]);
    expectNoSecret([SECRET, `${SECRET}-rotated`, 'another-secret-value-xyz'], run);
    expect(run.summary).toMatch(/Tracks<\/th><td><code>main<\/code>/);
    expect(run.summary).toContain('Not applied by the deploy');
    expect(run.stdout).toContain(`with 3 differences it would not apply`);
    expect(methods()).toEqual(['GET']);
  });

  it('reuse with on-change: fail fails after the outputs are written, naming each field', async () => {
    existing();

    const run = await runAction(
      planStep({ 'agent-config-path': 'agent-v2.json', 'on-change': 'fail' }),
      PLAN,
    );

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ action: 'reuse', changes: '1' });
    expect(run.error).toContain(
      'would not apply 1 difference (on-change: fail): source_revision_config.agent_config_path. The service cannot update a deployment: change it in the service',
    );
  });

  it('reuse with no difference: green, 0 changes, even with on-change: fail', async () => {
    existing();
    const run = await runAction(planStep({ 'on-change': 'fail' }), PLAN);
    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ action: 'reuse', changes: '0' });
    expect(run.summary).toContain('no difference');
  });

  it('fail: a deployment being deleted; its id and status still set', async () => {
    const deployment = existing({ status: 'AWAITING_DELETE' });

    const run = await runAction(planStep(), PLAN);

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({
      action: 'fail',
      'deployment-id': deployment.id,
      status: 'AWAITING_DELETE',
    });
    const plan = JSON.parse(run.outputs.plan ?? '') as { action: string; reason: string };
    expect(plan.action).toBe('fail');
    expect(plan.reason).toContain('AWAITING_DELETE');
    expect(methods()).toEqual(['GET']);
  });

  it('fail: no such repository in the integration listing', async () => {
    const run = await runAction(planStep({ repository: 'acme/nothing' }), PLAN);

    expect(run.exitCode).toBe(1);
    expect(run.outputs).toMatchObject({ action: 'fail', 'deployment-id': '' });
    expect(methods()).toEqual(['GET']);
  });

  it('sends GET requests only, whatever the service answers', async () => {
    emu.inject({ status: 500, times: Infinity });

    const run = await runAction(planStep(), {
      ...PLAN,
      env: { DEPLOY_AGENT_RETRY_DELAY_MS: '10' },
    });

    expect(run.exitCode).toBe(1);
    expect(run.error).toMatch(/GET .* 500/);
    expect(methods()).toEqual(['GET']);
  });

  it('fails before any request on a bad input, naming it, with no output', async () => {
    const run = await runAction(planStep({ 'on-change': 'sometimes' }), PLAN);

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain("input 'on-change': must be none or fail, got 'sometimes'");
    expect(emu.requests).toEqual([]);
    expect(run.outputFile).toBe('');
  });

  it('logs its phases in groups one level deep: each ::group:: is closed by one ::endgroup:: before the next opens', async () => {
    existing();

    const run = await runAction(planStep(), PLAN);

    expect(run.exitCode).toBe(0);
    const marks = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('::group::') || line.startsWith('::endgroup::'))
      .map((line) => (line.startsWith('::group::') ? 'open' : 'close'));
    expect(marks.length).toBeGreaterThan(0);
    expect(marks).toEqual(marks.map((_, index) => (index % 2 === 0 ? 'open' : 'close')));
    expect(run.stdout).toMatch(/^::group::Looking for deployment 'my-agent'$/m);
  });

  it('says "reuse, no difference" only when the deploy then reports no drift, on the same service state', async () => {
    existing();
    const given = planStep({ 'agent-config-path': 'agent-v2.json' });

    const plan = await runAction(given, PLAN);
    const deploy = await runAction(given);

    expect(deploy.exitCode).toBe(0);
    const drift = (JSON.parse(deploy.outputs.drift ?? '[]') as { field: string }[]).map(
      (entry) => entry.field,
    );
    const planned = (
      JSON.parse(plan.outputs.plan ?? '') as { changes: { field: string }[] }
    ).changes.map((change) => change.field);
    expect(planned).toEqual(drift);
    expect(planned).toEqual(['source_revision_config.agent_config_path']);
  });
});
