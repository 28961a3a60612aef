/**
 * Hardening VI (issue 45), through the bundles against the emulator: every
 * secret value the service hands back is hidden from the moment its answer
 * is parsed (a page-2 error or a failed status check that echoes it prints
 * `***`), one deployment id is one item however the service pages, and
 * `on-drift: fail` fails on a revision the deployment will never take, even
 * without a wait.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { AGENT_REPO_URL, INTEGRATION, seedAgentRepository } from '../support/fixtures.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { printed, runAction } from '../support/run-action.ts';
import { runCli } from '../cli/run-cli.ts';
import { QUICK } from '../support/quick.ts';

const LISTED_SECRET = 'listed-secret-value-0123';
const OWN_SECRET = 'reused-deployment-secret-4567';
const API_KEY = 'hardening-vi-api-key-0123';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator();
  seedAgentRepository(emu);
});

afterEach(async () => {
  await emu.close();
});

const serviceEnv = () => ({
  DEPLOY_API_URL: emu.url,
  DEPLOY_API_KEY: API_KEY,
  DEPLOY_AGENT_RETRY_DELAY_MS: '1',
});

const listings = () => emu.requests.filter((request) => request.path === '/v2/deployments');

/** Lines of stdout that are not empty. */
const linesOf = (stdout: string) => stdout.split('\n').filter((line) => line !== '');

describe('secret values the service echoes', () => {
  it("list --all hides page 1's secret values when page 2's error echoes them", async () => {
    emu.seedDeployments(150, (i) => ({
      name: `agent-${i}`,
      secrets: [{ name: 'OPENAI_API_KEY', value: `${LISTED_SECRET}-${i}` }],
    }));
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { offset: '100' },
      status: 422,
      body: { detail: `cannot page past agent-7 (OPENAI_API_KEY=${LISTED_SECRET}-7)` },
    });

    const run = await runCli(['list', '--all'], { env: serviceEnv() });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('422');
    expect(run.stderr).toContain('cannot page past agent-7 (OPENAI_API_KEY=***)');
    expectNoSecret([LISTED_SECRET, API_KEY], run);
  });

  /** A deployment the step reuses, DEPLOYING, whose first status check fails echoing its own secret. */
  function reusedWithEcho() {
    const existing = emu.seedDeployment({
      name: 'my-agent',
      status: 'DEPLOYING',
      source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL },
      source_revision_config: { repo_ref: 'main', agent_config_path: 'agent.json' },
      secrets: [{ name: 'DATABASE_URL', value: OWN_SECRET }],
    });
    emu.setOptions({ readyAfterPolls: 2 });
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { deployment_ids: existing.id },
      status: 500,
      body: { detail: `secret DATABASE_URL=${OWN_SECRET} cannot be resolved` },
    });
  }

  it("the deploy hides the reused deployment's own secret values echoed by a failed status check", async () => {
    reusedWithEcho();

    const run = await runAction(
      {
        'api-url': emu.url,
        name: 'my-agent',
        'integration-id': INTEGRATION,
        commit: 'none',
        'wait-for-ready': 'true',
      },
      { env: QUICK },
    );

    expect(run.error).toBeUndefined();
    expect(run.stdout).toMatch(
      /^::warning::check 1 failed .*secret DATABASE_URL=\*\*\* cannot be resolved/m,
    );
    expectNoSecret([OWN_SECRET], run);
  });

  it('the command hides them in its warn events and on stderr', async () => {
    reusedWithEcho();

    const run = await runCli(
      [
        'deploy',
        '--name',
        'my-agent',
        '--integration-id',
        INTEGRATION,
        '--repository',
        'acme/agent',
        '--commit',
        'none',
        '--wait',
        '--events',
      ],
      { env: { ...serviceEnv(), ...QUICK } },
    );

    expect(run.exitCode).toBe(0);
    const warnings = linesOf(run.stdout)
      .map((line) => JSON.parse(line) as { event: string; message?: string })
      .filter((event) => event.event === 'warn');
    expect(warnings.map((event) => event.message).join('\n')).toContain(
      'secret DATABASE_URL=*** cannot be resolved',
    );
    expect(run.stderr).toContain('secret DATABASE_URL=*** cannot be resolved');
    expectNoSecret([OWN_SECRET, API_KEY], run);
  });
});

describe('one deployment id is one item', () => {
  it('list --all stops at the first page that adds no new id when the service ignores offset', async () => {
    emu.seedDeployments(100, (i) => ({ name: `agent-${i}` }));
    emu.setOptions({ pagination: 'offset-ignored' });

    const run = await runCli(['list', '--all'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    expect(linesOf(run.stdout)).toHaveLength(100);
    expect(new Set(linesOf(run.stdout).map((line) => line.split('\t')[0])).size).toBe(100);
    expect(run.stderr).toContain('listed only deployments it had already listed');
    expect(run.stderr).not.toContain('cap');
    expect(listings()).toHaveLength(2);
  });

  it('list shows a deployment once when the list shifts and a page repeats it', async () => {
    const seeded = emu.seedDeployments(150, (i) => ({ name: `agent-${i}` }));
    const repeated = seeded[99];
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { offset: '100' },
      bodyTransform: (body) => {
        const page = body as { resources: unknown[] };
        return { ...page, resources: [structuredClone(repeated), ...page.resources] };
      },
    });

    const run = await runCli(['list', '--all', '--json'], { env: serviceEnv() });

    expect(run.exitCode).toBe(0);
    const ids = (JSON.parse(run.stdout) as { id: string }[]).map((deployment) => deployment.id);
    expect(ids).toHaveLength(150);
    expect(new Set(ids).size).toBe(150);
    expect(ids).toEqual(seeded.map((deployment) => deployment.id));
  });

  it('the deploy reuses a deployment listed on two pages as one, not as two of the name', async () => {
    const seeded = emu.seedDeployments(150, (i) =>
      i === 99
        ? {
            name: 'my-agent',
            status: 'READY',
            source_config: { integration_id: INTEGRATION, repo_url: AGENT_REPO_URL },
            source_revision_config: { repo_ref: 'main', agent_config_path: 'agent.json' },
          }
        : { name: `my-agent-${i}` },
    );
    const mine = seeded[99];
    emu.inject({
      method: 'GET',
      path: '/v2/deployments',
      query: { offset: '100' },
      bodyTransform: (body) => {
        const page = body as { resources: unknown[] };
        return { ...page, resources: [structuredClone(mine), ...page.resources] };
      },
    });

    const run = await runAction({
      'api-url': emu.url,
      name: 'my-agent',
      'integration-id': INTEGRATION,
      commit: 'none',
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ created: 'false', 'deployment-id': mine?.id });
    expect(printed(run)).not.toMatch(/deployments are named/);
  });
});

describe('on-drift: fail fails on every drift (Corrections, v1.5)', () => {
  const IMAGE_STEP = {
    source: 'external_docker',
    name: 'my-agent',
    'image-uri': 'registry.example/agent:1.1',
    'wait-for-ready': 'false',
  };

  function seedImage() {
    return emu.seedDeployment({
      name: 'my-agent',
      source: 'external_docker',
      status: 'READY',
      source_revision_config: { image_uri: 'registry.example/agent:1.0' },
    });
  }

  it('fails on a changed image without a wait, after the outputs and the drift report', async () => {
    const existing = seedImage();

    const run = await runAction({ 'api-url': emu.url, ...IMAGE_STEP, 'on-drift': 'fail' });

    expect(run.exitCode).toBe(1);
    expect(run.error).toContain(
      "Deployment 'my-agent' is not live and will not be: source_revision_config.image_uri is registry.example/agent:1.0 and the step asks for registry.example/agent:1.1.",
    );
    expect(run.outputs).toMatchObject({ 'deployment-id': existing.id, live: 'false' });
    expect(JSON.parse(run.outputs.drift ?? '[]')).toEqual([
      {
        field: 'source_revision_config.image_uri',
        wanted: 'registry.example/agent:1.1',
        live: 'registry.example/agent:1.0',
      },
    ]);
    expect(emu.requests.filter((request) => request.query.deployment_ids)).toHaveLength(0);
  });

  it('stays one warning and green with on-drift: warn and no wait', async () => {
    seedImage();

    const run = await runAction({ 'api-url': emu.url, ...IMAGE_STEP, 'on-drift': 'warn' });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.live).toBe('false');
    const notLive = run.stdout
      .split('\n')
      .filter((line) => line.startsWith("::warning::Deployment 'my-agent' is not live"));
    expect(notLive).toHaveLength(1);
  });

  it('the command fails the same way with --on-drift fail', async () => {
    seedImage();

    const run = await runCli(
      [
        'deploy',
        '--source',
        'external_docker',
        '--name',
        'my-agent',
        '--image-uri',
        'registry.example/agent:1.1',
        '--on-drift',
        'fail',
      ],
      { env: serviceEnv() },
    );

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("Deployment 'my-agent' is not live and will not be");
  });
});
