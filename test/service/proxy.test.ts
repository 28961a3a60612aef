import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EnvHttpProxyAgent, ProxyAgent, request } from 'undici';
import { startEmulator } from '../emulator/emulator.ts';
import type { Emulator } from '../emulator/emulator.ts';
import { startProxy } from '../support/proxy.ts';
import type { Proxy } from '../support/proxy.ts';
import { proxySettingsFrom } from '../../src/service/proxy.ts';

let emu: Emulator;
let proxy: Proxy;
let agents: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  [emu, proxy] = await Promise.all([startEmulator(), startProxy()]);
});

afterEach(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  agents = [];
  await Promise.all([emu.close(), proxy.close()]);
});

function agent<T extends { close(): Promise<void> }>(made: T): T {
  agents.push(made);
  return made;
}

const authority = (url: string): string => new URL(url).host;

/** A request written by hand to the proxy, as a client that forwards (no CONNECT) sends it. */
function viaProxy(target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path: target, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startProxy', () => {
  it('tunnels CONNECT to the emulator (undici ProxyAgent)', async () => {
    emu.seedDeployment({ name: 'through-the-tunnel' });
    const dispatcher = agent(new ProxyAgent(proxy.url));

    const reply = await request(`${emu.url}/v2/deployments`, { dispatcher });

    expect(reply.statusCode).toBe(200);
    const body = (await reply.body.json()) as { resources: { name: string }[] };
    expect(body.resources.map((d) => d.name)).toEqual(['through-the-tunnel']);
    expect(proxy.connects).toEqual([authority(emu.url)]);
    expect(emu.requests).toHaveLength(1);
  });

  it('tunnels for EnvHttpProxyAgent, as HTTP_PROXY would configure it', async () => {
    const dispatcher = agent(new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy: '' }));

    const reply = await request(`${emu.url}/v2/deployments?limit=1`, { dispatcher });

    expect(reply.statusCode).toBe(200);
    await reply.body.dump();
    expect(proxy.connects).toEqual([authority(emu.url)]);
    expect(emu.requests[0]?.query).toEqual({ limit: '1' });
  });

  it('forwards absolute-URI requests (ProxyAgent without tunnelling, or by hand)', async () => {
    const dispatcher = agent(new ProxyAgent({ uri: proxy.url, proxyTunnel: false }));
    const reply = await request(`${emu.url}/v2/deployments`, { dispatcher });
    expect(reply.statusCode).toBe(200);
    await reply.body.dump();

    const byHand = await viaProxy(`${emu.url}/v2/nothing`);
    expect(byHand).toEqual({ status: 404, body: '{"detail":"Not Found"}' });
    expect(proxy.requests).toEqual([`GET ${emu.url}/v2/deployments`, `GET ${emu.url}/v2/nothing`]);
    expect(proxy.connects).toEqual([]);
    expect(emu.requests.map((r) => r.path)).toEqual(['/v2/deployments', '/v2/nothing']);
  });

  it('refuses targets that are not loopback, and sends nothing on', async () => {
    const dispatcher = agent(new ProxyAgent(proxy.url));
    await expect(request('http://192.0.2.1:8080/v2/deployments', { dispatcher })).rejects.toThrow(
      /403/,
    );
    expect(proxy.connects).toEqual(['192.0.2.1:8080']);

    expect((await viaProxy('http://example.com/v2/deployments')).status).toBe(403);
    expect((await viaProxy('/v2/deployments')).status).toBe(400);
    expect(proxy.requests).toEqual(['GET http://example.com/v2/deployments']);
    expect(emu.requests).toHaveLength(0);
  });

  it('answers 502 when the loopback target does not listen', async () => {
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const dispatcher = agent(new ProxyAgent(proxy.url));
    await expect(request(`${url}/v2/deployments`, { dispatcher })).rejects.toThrow(/502/);
  });

  it('close() ends open tunnels', async () => {
    emu.inject({ delayMs: Infinity });
    const dispatcher = agent(new ProxyAgent(proxy.url));
    const pending = request(`${emu.url}/v2/deployments`, { dispatcher });
    pending.catch(() => undefined);
    while (emu.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));

    await proxy.close();

    await expect(pending).rejects.toThrow();
    await proxy.close(); // idempotent
  });
});

describe('proxySettingsFrom', () => {
  it('reads the proxy variables as undici does, the lower-case name first', () => {
    expect(
      proxySettingsFrom({
        HTTPS_PROXY: 'http://upper:1',
        https_proxy: 'http://lower:1',
        HTTP_PROXY: 'http://upper:2',
        NO_PROXY: 'localhost',
      }),
    ).toEqual({ httpsProxy: 'http://lower:1', httpProxy: 'http://upper:2', noProxy: 'localhost' });
    expect(proxySettingsFrom({})).toEqual({});
  });
});
