/**
 * `deploy-agent deploy` and `status` with a health check (CLI-CONTRACT.md "Live means
 * answering (v1.5)"): dist/cli.js against an emulator that serves each deployment's
 * address. The header's value comes from the environment and is never printed; --json,
 * --dotenv and --events say whether the address answered, and its query never shows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { readGitLabDotenv } from '../support/gitlab-dotenv.ts';
import { runCli, type CliOptions } from './run-cli.ts';
import { QUICK } from '../support/quick.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { KILL_AFTER_MS } from '../support/run-action.ts';

const KEY = 'health-cli-service-key-0123456';
const AGENT_KEY = 'health-cli-agent-key-6543210';
const DOCKER = ['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'];
const DEPLOY = ['deploy', ...DOCKER, '--wait', '--wait-timeout', '30'];
const CHECK = ['--health-check', '/ok'];
const KEY_HEADER = { requireHeader: { name: 'X-Agent-Key', value: AGENT_KEY } };

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY, addresses: true, readyAfterPolls: 1 });
});

afterEach(async () => {
  await emu.close();
});

function cli(args: string[], env: Record<string, string> = {}, options: CliOptions = {}) {
  return runCli(args, {
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...QUICK, ...env },
    killAfterMs: KILL_AFTER_MS,
    ...options,
  });
}

const address = () => emu.addressOf('agent');

describe('deploy --health-check', () => {
  it('sends --health-check-header X-Agent-Key from X_AGENT_KEY, never the service key', async () => {
    emu.setOptions({ addressBehaviour: KEY_HEADER });

    const run = await cli([...DEPLOY, ...CHECK, '--health-check-header', 'X-Agent-Key', '--json'], {
      X_AGENT_KEY: AGENT_KEY,
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, healthy: true, 'health-status': '200' });
    expect(emu.addressRequests.at(-1)?.status).toBe(200);
    for (const request of emu.addressRequests) {
      expect(request.headers['x-agent-key']).toBe(AGENT_KEY);
      expect(Object.values(request.headers)).not.toContain(KEY);
    }
    expect(run.stderr).toContain(`health check ${address()}/ok: answers 200`);
    expectNoSecret([KEY, AGENT_KEY], run);
  });

  it('takes the headers from DEPLOY_HEALTH_CHECK_HEADERS too', async () => {
    emu.setOptions({ addressBehaviour: KEY_HEADER });

    const run = await cli([...DEPLOY, ...CHECK, '--json'], {
      DEPLOY_HEALTH_CHECK_HEADERS: `X-Agent-Key: ${AGENT_KEY}`,
    });

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ healthy: true, 'health-status': '200' });
    expectNoSecret([KEY, AGENT_KEY], run);
  });

  it('ends the wait after three refusals, naming --health-check-header', async () => {
    emu.setOptions({ addressBehaviour: KEY_HEADER });

    const run = await cli([...DEPLOY, ...CHECK, '--json']);

    expect(run.exitCode).toBe(1);
    expect(emu.addressRequests.map((request) => request.status)).toEqual([401, 401, 401]);
    expect(run.stderr).toContain(`${address()}/ok answered 401 3 times in a row`);
    expect(run.stderr).toContain('--health-check-header');
    expect(run.stderr).not.toContain('health-check-headers');
    expect(run.json).toMatchObject({ live: false, healthy: false, 'health-status': '401' });
    expectNoSecret([KEY, AGENT_KEY], run);
  });

  it('says healthy null and no health-status in --json when nothing was checked', async () => {
    const run = await cli([...DEPLOY, '--json']);

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, healthy: null, 'health-status': '' });
    expect(emu.addressRequests).toEqual([]);
  });

  it('writes DEPLOYMENT_HEALTHY and DEPLOYMENT_HEALTH_STATUS with --dotenv', async () => {
    emu.setOptions({ addressBehaviour: { slowStartRequests: 1 } });

    const run = await cli(
      [...DEPLOY, ...CHECK, '--dotenv', 'deploy.env'],
      {},
      {
        read: ['deploy.env'],
      },
    );

    expect(run.exitCode).toBe(0);
    const variables = readGitLabDotenv(run.files['deploy.env'] ?? '');
    expect(variables).toMatchObject({
      DEPLOYMENT_LIVE: 'true',
      DEPLOYMENT_HEALTHY: 'true',
      DEPLOYMENT_HEALTH_STATUS: '200',
    });
  });

  it('writes a health event at each change of the answer, the address without its query', async () => {
    emu.setOptions({ addressBehaviour: { slowStartRequests: 2 } });

    const run = await cli([...DEPLOY, '--health-check', '{url}/ok?token=sekrit', '--events']);

    expect(run.exitCode).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const health = events.filter((event) => event.event === 'health');
    expect(health.map(({ time: _time, ...event }) => event)).toEqual([
      {
        event: 'health',
        url: `${address()}/ok`,
        http_status: 503,
        ok: false,
        error: '503 Service Unavailable',
      },
      { event: 'health', url: `${address()}/ok`, http_status: 200, ok: true },
    ]);
    expect(events.at(-1)).toMatchObject({
      event: 'result',
      outputs: { healthy: true, 'health-status': '200' },
    });
    expect(emu.addressRequests.map((request) => request.query.token)).toEqual([
      'sekrit',
      'sekrit',
      'sekrit',
    ]);
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain('sekrit');
      expect(text).not.toContain('token=');
    }
  });
});

describe('status --health-check', () => {
  function seeded() {
    return emu.seedDeployment({
      name: 'agent',
      source: 'external_docker',
      source_revision_config: { image_uri: 'reg/agent:1', repo_commit_sha: null },
    } as never);
  }

  it('checks the address of a deployment found live', async () => {
    seeded();

    const run = await cli(['status', '--name', 'agent', ...CHECK, '--json']);

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ live: true, healthy: true, 'health-status': '200' });
    expect(emu.addressRequests).toHaveLength(1);
  });

  it('without --wait, warns once of an address not answering, and succeeds', async () => {
    seeded();
    emu.serveAddress('agent', { slowStartRequests: 5 });

    const run = await cli(['status', '--name', 'agent', ...CHECK, '--json']);

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ healthy: false, 'health-status': '503' });
    expect(emu.addressRequests).toHaveLength(1);
    expect(run.stderr.split(`'agent' does not answer its health check`)).toHaveLength(2);
  });

  it('with --wait, waits until the address answers', async () => {
    seeded();
    emu.serveAddress('agent', { slowStartRequests: 2 });

    const run = await cli(['status', '--name', 'agent', ...CHECK, '--wait', '--json']);

    expect(run.exitCode).toBe(0);
    expect(run.json).toMatchObject({ healthy: true, 'health-status': '200' });
    expect(emu.addressRequests.map((request) => request.status)).toEqual([503, 503, 200]);
  });

  it('fails at once on a deployment with no custom_url', async () => {
    await emu.close();
    emu = await startEmulator({ apiKey: KEY, addresses: 'manual' });
    seeded();

    const run = await cli(['status', '--name', 'agent', ...CHECK, '--wait', '--json']);

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('health-check is set but the deployment has no custom_url');
    expect(run.json).toMatchObject({ live: false, healthy: false });
    // At once: no check of the deployment's status, no request to any address.
    expect(emu.requests.map(({ method, path, query }) => [method, path, query])).toEqual([
      ['GET', '/v2/deployments', { name_contains: 'agent', limit: '100', offset: '0' }],
    ]);
    expect(emu.addressRequests).toEqual([]);
  });
});
