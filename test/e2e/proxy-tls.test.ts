/**
 * End-to-end (issue 8 point 5): the bundle under Node 24 honours HTTPS_PROXY / https_proxy and
 * NO_PROXY for an https:// api-url, through a real CONNECT proxy on loopback. The emulator serves
 * TLS with a throwaway certificate the run trusts through NODE_EXTRA_CA_CERTS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../emulator/emulator.ts';
import { startProxy, type Proxy } from '../support/proxy.ts';
import { runAction } from '../support/run-action.ts';
import { makeCertificate, type Certificate } from '../support/tls.ts';
import { INTEGRATION, codehostStep } from '../support/fixtures.ts';

/**
 * A failing run makes 5 attempts at its first request. With the shipped back-off that is 7.5 to
 * 15 s of waiting; these tests shorten it (src/run/ports/pace.ts), which changes nothing else.
 */
const SHORT_BACKOFF = { DEPLOY_AGENT_RETRY_DELAY_MS: '20' };
const RETRYING_RUN_MS = 45_000;

let directory: string;
let certificate: Certificate;
let emu: Emulator;
let proxy: Proxy;

beforeAll(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'e2e-proxy-tls-'));
  certificate = makeCertificate(directory);
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

beforeEach(async () => {
  emu = await startEmulator({ tls: { key: certificate.key, cert: certificate.cert } });
  emu.seedRepos(INTEGRATION, [{ owner: 'acme', name: 'agent' }]);
  proxy = await startProxy();
});

afterEach(async () => {
  await Promise.all([emu.close(), proxy.close()]);
});

const step = () => codehostStep(emu);

/** The run's environment: the test certificate trusted, plus `extra`. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return { NODE_EXTRA_CA_CERTS: certificate.certPath, ...extra };
}

/** `host:port` of the emulator, as a CONNECT names it. */
const target = () => new URL(emu.url).host;

/** Every answer says `Connection: close`, so each request needs a connection (a tunnel) of its own. */
function oneConnectionPerRequest(): void {
  emu.inject({ headers: { connection: 'close' }, times: Infinity });
}

/** A loopback port that nothing listens on (it did a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an https:// api-url behind a proxy', () => {
  it('is served over TLS with the test certificate', () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(['HTTPS_PROXY', 'https_proxy'])(
    'tunnels every request through %s with CONNECT',
    async (variable) => {
      oneConnectionPerRequest();

      const run = await runAction(step(), { env: env({ [variable]: proxy.url }) });

      expect(run.exitCode).toBe(0);
      expect(run.outputs.created).toBe('true');
      const served = emu.requests.map((r) => `${r.method} ${r.path}`);
      expect(served).toContain('POST /v2/deployments');
      // One tunnel per request, each to the emulator; nothing sent to the proxy in the clear.
      expect(proxy.connects).toEqual(served.map(() => target()));
      expect(proxy.requests).toEqual([]);
      // undici's "EnvHttpProxyAgent is experimental" warning is not a fault: not in the log.
      expect(run.stderr).not.toContain('experimental');
    },
  );

  it('keeps one tunnel alive for several requests (keep-alive through the proxy)', async () => {
    const run = await runAction(step(), { env: env({ HTTPS_PROXY: proxy.url }) });

    expect(run.exitCode).toBe(0);
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(proxy.connects.every((seen) => seen === target())).toBe(true);
    expect(proxy.connects.length).toBeLessThan(emu.requests.length);
  });

  it('prefers https_proxy to HTTPS_PROXY when both are set', async () => {
    const run = await runAction(step(), {
      env: env({
        https_proxy: proxy.url,
        HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}`,
      }),
    });

    expect(run.exitCode).toBe(0);
    expect(proxy.connects.length).toBeGreaterThan(0);
  });

  it.each(['NO_PROXY', 'no_proxy'])('goes direct to a host in %s', async (variable) => {
    const run = await runAction(step(), {
      env: env({ HTTPS_PROXY: proxy.url, [variable]: '127.0.0.1' }),
    });

    expect(run.exitCode).toBe(0);
    expect(emu.requests.length).toBeGreaterThan(0);
    expect([...proxy.connects, ...proxy.requests]).toEqual([]);
  });

  it('still uses the proxy when NO_PROXY names another host or port', async () => {
    const run = await runAction(step(), {
      env: env({ HTTPS_PROXY: proxy.url, NO_PROXY: `localhost,127.0.0.1:1,example.com` }),
    });

    expect(run.exitCode).toBe(0);
    expect(proxy.connects.length).toBeGreaterThan(0);
  });

  // undici's EnvHttpProxyAgent falls back to HTTP_PROXY for https:// targets when neither
  // https_proxy nor HTTPS_PROXY is set (unlike curl, which reads HTTP_PROXY for http:// only).
  it.each(['HTTP_PROXY', 'http_proxy'])(
    'falls back to %s for an https:// target when no HTTPS proxy is set',
    async (variable) => {
      oneConnectionPerRequest();

      const run = await runAction(step(), { env: env({ [variable]: proxy.url }) });

      expect(run.exitCode).toBe(0);
      expect(proxy.connects).toEqual(emu.requests.map(() => target()));
      expect(proxy.requests).toEqual([]);
      // undici's "EnvHttpProxyAgent is experimental" warning is not a fault: not in the log.
      expect(run.stderr).not.toContain('experimental');
    },
  );

  it('uses HTTPS_PROXY, not HTTP_PROXY, for an https:// target when both are set', async () => {
    const other = await startProxy();
    try {
      const run = await runAction(step(), {
        env: env({ HTTPS_PROXY: proxy.url, HTTP_PROXY: other.url }),
      });

      expect(run.exitCode).toBe(0);
      expect(proxy.connects.length).toBeGreaterThan(0);
      expect([...other.connects, ...other.requests]).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it(
    'fails with a connection error when HTTPS_PROXY points at a closed port',
    async () => {
      const run = await runAction(step(), {
        env: env({ HTTPS_PROXY: `http://127.0.0.1:${await closedPort()}`, ...SHORT_BACKOFF }),
      });

      expect(run.exitCode).toBe(1);
      expect(run.error).toMatch(/connection refused \(ECONNREFUSED\)/);
      expect(run.stdout).toContain('(attempt 5 of 5)');
      expect(emu.requests).toEqual([]);
    },
    RETRYING_RUN_MS,
  );

  it(
    'fails on the certificate without NODE_EXTRA_CA_CERTS (the tunnel carries real TLS)',
    async () => {
      const run = await runAction(step(), { env: { HTTPS_PROXY: proxy.url, ...SHORT_BACKOFF } });

      expect(run.exitCode).toBe(1);
      expect(run.error).toMatch(/self[- ]signed certificate/i);
      expect(run.stdout).toContain('(attempt 5 of 5)');
      expect(proxy.connects.length).toBeGreaterThan(0);
      expect(emu.requests).toEqual([]);
    },
    RETRYING_RUN_MS,
  );
});
