/**
 * End-to-end (issue 56, items 5 to 7), through both bundles: a connection that fails
 * names the host and port and where the address came from; an image reference that
 * breaks the reference grammar is refused before any request; a health check not made
 * because the deployment is not live yet (no wait) is said, and `healthy` stays empty.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { runCli } from '../cli/run-cli.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { printed, runAction, KILL_AFTER_MS } from '../support/run-action.ts';

const KEY = 'newcomer-checks-key-0123456789';
/** A few milliseconds between attempts instead of the shipped back-off (src/run/ports/pace.ts). */
const SHORT_BACKOFF = { DEPLOY_AGENT_RETRY_DELAY_MS: '20' };
const DOCKER = { name: 'agent', source: 'external_docker' };
const BAD_IMAGE = 'registry.example/triage:NOT A TAG';

let emu: Emulator;

beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY });
});

afterEach(async () => {
  await emu.close();
});

/** A loopback address where nothing listens: a port just freed. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/base`;
}

const hostOf = (url: string) => new URL(url).host;

function action(inputs: Record<string, string>, files: Record<string, string> = {}) {
  return runAction(
    { 'api-key': KEY, 'api-url': emu.url, ...inputs },
    { env: SHORT_BACKOFF, files, killAfterMs: KILL_AFTER_MS },
  );
}

function cli(args: string[], env: Record<string, string> = {}, files: Record<string, string> = {}) {
  return runCli(args, {
    env: { DEPLOY_API_URL: emu.url, DEPLOY_API_KEY: KEY, ...SHORT_BACKOFF, ...env },
    files,
    killAfterMs: KILL_AFTER_MS,
  });
}

describe('a connection that fails names the address and where it came from', () => {
  it('the action: the host and port, and the api-url input', async () => {
    const url = await closedAddress();
    const run = await action({ ...DOCKER, 'image-uri': 'reg/agent:1', 'api-url': url });

    expect(run.exitCode).toBe(1);
    expect(printed(run)).toContain(`connection refused (ECONNREFUSED) at ${hostOf(url)}`);
    expect(printed(run)).toContain(`Check the api-url input: it gives ${hostOf(url)}`);
  });

  it('the command: DEPLOY_API_URL when the variable gave it', async () => {
    const url = await closedAddress();
    const run = await cli(['deploy', '--name', 'agent', '--source', 'external_docker'], {
      DEPLOY_API_URL: url,
      DEPLOY_IMAGE_URI: 'reg/agent:1',
    });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`connection refused (ECONNREFUSED) at ${hostOf(url)}`);
    expect(run.stderr).toContain(`Check DEPLOY_API_URL: it gives ${hostOf(url)}`);
  });

  it('the command through a proxy: the proxy is named too, since the refusal may be its own', async () => {
    const proxy = new URL(await closedAddress()).origin;
    const run = await cli(['deploy', '--name', 'agent', '--source', 'external_docker'], {
      DEPLOY_IMAGE_URI: 'reg/agent:1',
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      NO_PROXY: '',
    });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`Check DEPLOY_API_URL: it gives ${hostOf(emu.url)}`);
    expect(run.stderr).toContain('goes through the proxy that HTTPS_PROXY (or HTTP_PROXY) names');
  });

  it('a proxy variable that is not a proxy address is named, its value never printed', async () => {
    const run = await cli(['deploy', '--name', 'agent', '--source', 'external_docker'], {
      DEPLOY_IMAGE_URI: 'reg/agent:1',
      HTTPS_PROXY: 'http://user:proxy-secret@proxy.example:3128/path',
    });

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('The proxy variable HTTPS_PROXY is not a proxy address');
    expectNoSecret(['proxy-secret', KEY], run);
    expect(run.stderr).not.toContain('Unexpected');
    expect(emu.requests).toHaveLength(0);
  });

  it('the action: a proxy variable that is not a proxy address fails the step, named, before any request', async () => {
    const run = await runAction(
      { ...DOCKER, 'image-uri': 'reg/agent:1', 'api-key': KEY, 'api-url': emu.url },
      { env: { ...SHORT_BACKOFF, https_proxy: 'proxy.example:3128' }, killAfterMs: KILL_AFTER_MS },
    );

    expect(run.exitCode).toBe(1);
    expect(printed(run)).toContain(
      '::error::The proxy variable https_proxy is not a proxy address',
    );
    expect(printed(run)).not.toContain('    at ');
    expect(emu.requests).toHaveLength(0);
  });

  it('the command: --api-url when the flag gave it', async () => {
    const url = await closedAddress();
    const run = await cli([
      'deploy',
      ...['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'],
      ...['--api-url', url],
    ]);

    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`Check --api-url: it gives ${hostOf(url)}`);
  });
});

describe('an image reference is checked before any request', () => {
  it('the action names image-uri and what is wrong', async () => {
    const run = await action({ ...DOCKER, 'image-uri': BAD_IMAGE });

    expect(run.exitCode).toBe(1);
    expect(printed(run)).toMatch(/image-uri'?: .*not an image reference.*its tag 'NOT A TAG'/);
    expect(emu.requests).toHaveLength(0);
  });

  it('the command names --image-uri', async () => {
    const run = await cli([
      'deploy',
      ...['--name', 'agent', '--source', 'external_docker', '--image-uri', BAD_IMAGE],
    ]);

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--image-uri: .*not an image reference/);
    expect(emu.requests).toHaveLength(0);
  });

  it("the manifest names the agent's image-uri", async () => {
    const manifest = `agents:\n  triage:\n    source: external_docker\n    image-uri: "${BAD_IMAGE}"\n`;
    const run = await action({ agents: 'agents.yaml' }, { 'agents.yaml': manifest });

    expect(run.exitCode).toBe(1);
    expect(printed(run)).toMatch(/agents\.triage\.image-uri'?: .*not an image reference/);
    expect(emu.requests).toHaveLength(0);
  });

  it("config's source_revision_config.image_uri is checked as the input is", async () => {
    const config = JSON.stringify({ source_revision_config: { image_uri: BAD_IMAGE } });
    const run = await action({ ...DOCKER, config });

    expect(run.exitCode).toBe(1);
    expect(printed(run)).toContain(
      `input 'config': source_revision_config.image_uri '${BAD_IMAGE}' is not an image reference`,
    );
    expect(emu.requests).toHaveLength(0);
  });

  it('takes a host with a port, a tag and a digest', async () => {
    const image = `registry.example:5000/team/triage:1.5.0@sha256:${'a'.repeat(64)}`;
    const run = await action({ ...DOCKER, 'image-uri': image });

    expect(run.exitCode).toBe(0);
    expect(emu.requests.length).toBeGreaterThan(0);
  });
});

describe('a health check not made without a wait is said', () => {
  beforeEach(async () => {
    await emu.close();
    emu = await startEmulator({ apiKey: KEY, addresses: true, readyAfterPolls: 5 });
  });

  const NOT_MADE = 'health check not made: the deployment is not live yet';

  it('the action: in the log and the summary; healthy is empty', async () => {
    const run = await action({ ...DOCKER, 'image-uri': 'reg/agent:1', 'health-check': '/ok' });

    expect(run.exitCode).toBe(0);
    expect(printed(run)).toContain(
      `${NOT_MADE} (wait-for-ready is off; waiting until live would check it)`,
    );
    expect(run.summary).toContain('not made: the deployment is not live yet');
    expect(run.outputs.healthy).toBe('');
    expect(emu.addressRequests).toHaveLength(0);
  });

  it('the command: in its words; healthy is null', async () => {
    const run = await cli([
      'deploy',
      ...['--name', 'agent', '--source', 'external_docker', '--image-uri', 'reg/agent:1'],
      ...['--health-check', '/ok', '--json'],
    ]);

    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(`${NOT_MADE} (no --wait; waiting until live would check it)`);
    expect(run.json).toMatchObject({ healthy: null });
  });

  it('status without a wait says so too', async () => {
    emu.seedDeployment({ name: 'agent', status: 'DEPLOYING' });

    const run = await cli(['status', '--name', 'agent', '--health-check', '/ok', '--json']);

    expect(run.stderr).toContain(`${NOT_MADE} (no --wait; waiting until live would check it)`);
    expect(run.json).toMatchObject({ healthy: null });
    expect(emu.addressRequests).toHaveLength(0);
  });

  it('a wait that ends before live does not say the run did not wait', async () => {
    const run = await action({
      ...DOCKER,
      'image-uri': 'reg/agent:1',
      'health-check': '/ok',
      'wait-for-ready': 'true',
      'wait-timeout': '1',
    });

    expect(run.exitCode).toBe(1);
    expect(printed(run)).not.toContain(NOT_MADE);
    expect(run.summary).not.toContain('(not waiting)');
  });
});
