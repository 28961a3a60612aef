/**
 * End-to-end, live means answering (ACTION-CONTRACT.md behaviour 31), the checks that
 * cannot be made or are not waited for: the bundle (dist/index.js) as the runner starts
 * it, against an emulator serving the deployments' addresses. A deployment with no
 * `custom_url` fails at once, a link-local one is never asked, a query stays unprinted,
 * one check without a wait is a warning, and a manifest's entry checks its own agent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator, EmulatorOptions } from '../emulator/emulator.ts';
import { existing, healthStep, startHealthEmulator } from '../support/health-world.ts';
import { expectNoSecret } from '../support/no-secret.ts';
import { QUICK } from '../support/quick.ts';
import { startProxy } from '../support/proxy.ts';
import { printed, type RunOptions } from '../support/run-action.ts';

const NEVER_SENT = 'agent-key-never-sent-0123';

let emu: Emulator;

async function start(options: EmulatorOptions = {}): Promise<void> {
  emu = await startHealthEmulator(options);
}

beforeEach(async () => {
  await start();
});

afterEach(async () => {
  await emu.close();
});

const step = (extra: Record<string, string> = {}, options: RunOptions = {}) =>
  healthStep(emu, extra, options);

const polls = () => emu.requests.filter((request) => request.query.deployment_ids !== undefined);

describe('a check that cannot be made', () => {
  for (const check of ['/ok', '{url}/ok']) {
    for (const wait of ['true', 'false']) {
      it(`fails at once, after the outputs, on a deployment with no custom_url (${check}, wait-for-ready ${wait})`, async () => {
        await emu.close();
        await start({ addresses: 'manual' });
        const deployment = existing(emu);

        const run = await step({ 'health-check': check, 'wait-for-ready': wait });

        expect(run.exitCode).toBe(1);
        expect(run.error).toMatch(
          /^Deployment 'my-agent' .*not (be )?live: health-check is set but the deployment has no custom_url\.$/,
        );
        expect(run.outputs).toMatchObject({
          'deployment-id': deployment.id,
          live: 'false',
          healthy: 'false',
          'health-status': '',
        });
        expect(polls()).toEqual([]);
        expect(emu.addressRequests).toEqual([]);
      });
    }
  }

  for (const metadata of ['http://169.254.169.254/latest', 'https://169.254.169.254/latest']) {
    it(`never asks a link-local custom_url (${metadata}), and says why`, async () => {
      existing(emu, metadata);
      // Through a proxy, any request the step made to it would show: none does.
      const proxy = await startProxy();
      const via = { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' };

      const run = await step(
        { 'health-check-headers': `X-Agent-Key: ${NEVER_SENT}`, 'wait-timeout': '2' },
        { env: { ...QUICK, ...via } },
      ).finally(() => proxy.close());

      expect(run.exitCode).toBe(1);
      // At once: an address the check never asks does not become one by waiting.
      expect(run.error).toMatch(/^Deployment 'my-agent' \(.+\) will not be live: /);
      expect(run.error).toContain(`will not be live: ${metadata}/ok is `);
      expect(run.error).toContain('not checked');
      if (metadata.startsWith('https')) {
        expect(run.error).toContain('a link-local or metadata address (169.254.0.0/16, fe80::/10)');
      }
      expect(run.outputs).toMatchObject({ live: 'false', healthy: 'false', 'health-status': '' });
      expect([...proxy.connects, ...proxy.requests]).toEqual([]);
      expect(printed(run)).not.toMatch(/no answer within|connection/);
      expectNoSecret([NEVER_SENT], run);
    });
  }
});

describe('what the step prints of the address', () => {
  it('sends the query of the address but never prints it', async () => {
    emu.setOptions({ addressBehaviour: { slowStartRequests: 1 } });

    const run = await step({ 'health-check': '{url}/ok?token=sekrit' });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'true', 'health-status': '200' });
    expect(emu.addressRequests.map((request) => request.query)).toEqual([
      { token: 'sekrit' },
      { token: 'sekrit' },
    ]);
    const address = emu.addressOf('my-agent');
    expect(printed(run)).toContain(`health check ${address}/ok: 503 Service Unavailable`);
    expectNoSecret(['sekrit'], run);
    for (const text of [printed(run), run.outputFile, run.summary]) {
      expect(text).not.toContain('token=');
    }
  });
});

describe('without wait-for-ready', () => {
  it('checks once, warns, and succeeds with healthy false', async () => {
    existing(emu);
    emu.serveAddress('my-agent', { slowStartRequests: 5 });

    const run = await step({ 'wait-for-ready': 'false' });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ healthy: 'false', 'health-status': '503' });
    expect(emu.addressRequests).toHaveLength(1);
    expect(run.stdout).toContain(
      `::warning::'my-agent' does not answer its health check: health check ${emu.addressOf('my-agent')}/ok: 503 Service Unavailable`,
    );
  });

  it('checks once and says healthy when it answers', async () => {
    existing(emu);

    const run = await step({ 'wait-for-ready': 'false' });

    expect(run.exitCode).toBe(0);
    expect(run.outputs).toMatchObject({ live: 'true', healthy: 'true', 'health-status': '200' });
    expect(emu.addressRequests).toHaveLength(1);
    expect(run.stdout).not.toContain('::warning::');
  });
});

describe('a manifest of agents', () => {
  const MANIFEST = `agents:
  checked:
    agent-config-path: apps/checked/langgraph.json
    health-check: /ok
  unchecked:
    agent-config-path: apps/unchecked/langgraph.json
`;

  it('checks the agent whose entry asks, and only that one', async () => {
    emu.setOptions({ addressBehaviour: { slowStartRequests: 1 } });

    const run = await step(
      { name: '', 'health-check': '', agents: 'deploy/agents.yaml' },
      { files: { 'deploy/agents.yaml': MANIFEST } },
    );

    expect(run.exitCode).toBe(0);
    const deployments = JSON.parse(run.outputs.deployments ?? '{}') as Record<
      string,
      Record<string, unknown>
    >;
    expect(deployments.checked).toMatchObject({
      live: true,
      healthy: true,
      'health-status': '200',
    });
    expect(deployments.unchecked).toMatchObject({ live: true, healthy: null, 'health-status': '' });
    expect(run.outputs.healthy).toBe('true');
    expect(new Set(emu.addressRequests.map((request) => request.name))).toEqual(
      new Set(['checked']),
    );
    expect(printed(run)).toContain(`health check ${emu.addressOf('checked')}/ok: answers 200`);
  });
});
