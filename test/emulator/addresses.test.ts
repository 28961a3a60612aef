/**
 * The deployments' own addresses (test/emulator/addresses.ts, EMULATOR.md "Addresses"), over
 * real HTTP: a `custom_url` on 127.0.0.1 whose `/ok` answers once the deployment is live, and the
 * answers a test scripts (a sequence, slow to start, a key, a hang, redirects), with a record
 * of what reached it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from './emulator.ts';
import type { Deployment, Emulator, EmulatorOptions } from './emulator.ts';
import { INTEGRATION } from '../support/ids.ts';

const REPO = 'https://github.com/acme/agent';
const SHA = 'c'.repeat(40);

let started: Emulator[] = [];

afterEach(async () => {
  await Promise.all(started.map((e) => e.close()));
  started = [];
});

async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({ addresses: true, ...options });
  started.push(emu);
  return emu;
}

interface Got {
  status: number;
  text: string;
  headers: Headers;
}

/** GET `url` (redirects left unfollowed unless `follow`). */
async function get(url: string, init: RequestInit & { follow?: boolean } = {}): Promise<Got> {
  const { follow = false, ...rest } = init;
  const res = await fetch(url, { redirect: follow ? 'follow' : 'manual', ...rest });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function statuses(url: string, count: number, init: RequestInit = {}): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await get(url, init)).status);
  return seen;
}

function urlOf(d: Deployment): string {
  return String(d.source_config.custom_url);
}

async function create(emu: Emulator, name: string): Promise<Deployment> {
  const res = await fetch(`${emu.url}/v2/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      source: 'codehost',
      source_config: { integration_id: INTEGRATION, repo_url: REPO, build_on_push: true },
      source_revision_config: { repo_ref: 'main' },
      secrets: [],
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Deployment;
}

/** One poll of the deployment, as the action's wait makes: it evolves there. */
async function poll(emu: Emulator, id: string): Promise<Deployment> {
  const res = await fetch(`${emu.url}/v2/deployments?deployment_ids=${id}`);
  const page = (await res.json()) as { resources: Deployment[] };
  const [d] = page.resources;
  if (!d) throw new Error(`no deployment ${id}`);
  return d;
}

describe('addresses: the deployment answers at its custom_url once live', () => {
  it('gives a created deployment an address whose /ok answers 503 until it is live, then 200', async () => {
    const emu = await start({ readyAfterPolls: 0 });
    const created = await create(emu, 'agent-one');
    const url = urlOf(created);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/agent-one$/);
    expect(url).toBe(emu.addressOf('agent-one'));

    const before = await get(`${url}/ok`);
    expect(before.status).toBe(503);
    expect(JSON.parse(before.text)).toEqual({ detail: 'the deployment has no live revision' });

    const polled = await poll(emu, created.id);
    expect(polled.status).toBe('READY');
    expect(polled.source_config.custom_url).toBe(url);
    const after = await get(`${url}/ok?check_db=1`);
    expect(after.status).toBe(200);
    expect(after.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(after.text)).toEqual({ ok: true });
    expect(emu.addressRequests.map((r) => [r.name, r.subpath, r.query, r.status])).toEqual([
      ['agent-one', '/ok', {}, 503],
      ['agent-one', '/ok', { check_db: '1' }, 200],
    ]);
  });

  it('answers a seeded READY deployment at once; other paths 404, other methods 405', async () => {
    const emu = await start();
    const d = emu.seedDeployment({ name: 'seeded' });
    const url = urlOf(d);
    expect((await get(`${url}/ok`)).status).toBe(200);
    expect((await get(`${url}/`)).status).toBe(404);
    expect((await get(`${url}/info`)).status).toBe(404);
    const posted = await fetch(`${url}/ok`, { method: 'POST' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await get(`${new URL(url).origin}/nobody/ok`)).status).toBe(404);
    expect(emu.addressRequests.at(-1)).toMatchObject({ deploymentId: undefined, status: 404 });
  });

  it('is READY but not answering while its latest revision is not active', async () => {
    const emu = await start({ buildPolls: Infinity });
    const d = emu.seedDeployment({
      name: 'pushed',
      source_config: { repo_url: REPO, build_on_push: true },
      source_revision_config: { repo_ref: 'main' },
    });
    expect((await get(`${urlOf(d)}/ok`)).status).toBe(200);
    emu.push(REPO, 'main', SHA);
    const polled = await poll(emu, d.id);
    expect(polled.status).toBe('READY');
    expect(polled.active_revision_id).not.toBe(polled.latest_revision_id);
    expect((await get(`${urlOf(d)}/ok`)).status).toBe(503);
  });

  it('keeps a custom_url already given, and serves only the chosen deployments', async () => {
    const emu = await start({ addresses: (d) => d.name !== 'plain' });
    const given = emu.seedDeployment({
      name: 'own',
      source_config: { custom_url: 'https://a.example' },
    });
    expect(given.source_config.custom_url).toBe('https://a.example');
    const plain = emu.seedDeployment({ name: 'plain' });
    expect(plain.source_config.custom_url).toBeUndefined();
    expect(() => emu.addressOf('plain')).toThrow('plain has no address');
    const url = emu.serveAddress('plain');
    expect(plain.source_config.custom_url).toBe(url);
    expect((await get(`${url}/ok`)).status).toBe(200);

    const manual = await start({ addresses: 'manual' });
    expect(manual.seedDeployment({ name: 'm' }).source_config.custom_url).toBeUndefined();
    // The same name twice (uniqueNames off) gets two addresses.
    const twins = await start({ uniqueNames: false });
    const [a, b] = [twins.seedDeployment({ name: 'twin' }), twins.seedDeployment({ name: 'twin' })];
    expect(urlOf(b)).toBe(`${urlOf(a)}-2`);
  });

  it('says clearly when addresses are off or the deployment is unknown', async () => {
    const emu = await startEmulator();
    started.push(emu);
    emu.seedDeployment({ name: 'x' });
    expect(() => emu.serveAddress('x')).toThrow('serveAddress: start the emulator with addresses');
    expect(emu.addressRequests).toEqual([]);
    const on = await start();
    expect(() => on.scriptAddress('nope', [])).toThrow(
      'scriptAddress: no deployment with id or name nope',
    );
  });
});

describe('addresses: scripted answers', () => {
  it('answers a sequence, then as unscripted', async () => {
    const emu = await start();
    const url = urlOf(emu.seedDeployment({ name: 'seq' }));
    emu.scriptAddress('seq', [
      { status: 503, times: 3 },
      {
        status: 200,
        body: '{"ok":true,"version":"1.2"}',
        headers: { 'content-type': 'application/json' },
      },
    ]);
    expect(await statuses(`${url}/ok`, 3)).toEqual([503, 503, 503]);
    const versioned = await get(`${url}/ok`);
    expect([versioned.status, versioned.text]).toEqual([200, '{"ok":true,"version":"1.2"}']);
    expect(versioned.headers.get('content-type')).toBe('application/json');
    expect((await get(`${url}/ok`)).text).toBe('{"ok":true}');
  });

  it('takes an answer only for its path, and adds headers and a delay to the unscripted one', async () => {
    const emu = await start();
    const url = urlOf(emu.seedDeployment({ name: 'paths' }));
    emu.scriptAddress('paths', [
      { path: '/healthz', status: 500, body: 'boom' },
      { delayMs: 150, headers: { 'x-served-by': 'script' } },
    ]);
    const t0 = performance.now();
    const slow = await get(`${url}/ok`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect([slow.status, slow.headers.get('x-served-by')]).toEqual([200, 'script']);
    const boom = await get(`${url}/healthz`);
    expect([boom.status, boom.text, boom.headers.get('content-type')]).toEqual([
      500,
      'boom',
      'text/plain; charset=utf-8',
    ]);
  });

  it('asks a function, which sees whether it is live and for how long', async () => {
    let clock = 1_000_000;
    const emu = await start({ now: () => clock });
    const d = emu.seedDeployment({ name: 'fn' });
    const seen: unknown[] = [];
    emu.scriptAddress('fn', (request, context) => {
      seen.push([request.subpath, context]);
      return context.liveRequests === 1 ? { status: 429 } : undefined;
    });
    clock += 500;
    expect(await statuses(`${urlOf(d)}/ok`, 2)).toEqual([429, 200]);
    expect(seen).toEqual([
      ['/ok', { live: true, liveForMs: 500, liveRequests: 1 }],
      ['/ok', { live: true, liveForMs: 500, liveRequests: 2 }],
    ]);
  });
});

describe('addresses: named behaviours', () => {
  it('is slow to start: 503 for slowStartMs after the revision went live', async () => {
    let clock = 5_000_000;
    const emu = await start({ now: () => clock, readyAfterPolls: 0 });
    const created = await create(emu, 'slow');
    emu.serveAddress('slow', { slowStartMs: 10_000 });
    await poll(emu, created.id); // READY, live now
    clock += 9_999;
    const starting = await get(`${urlOf(created)}/ok`);
    expect([starting.status, starting.text]).toEqual([503, '{"detail":"the agent is starting"}']);
    clock += 1;
    expect((await get(`${urlOf(created)}/ok`)).status).toBe(200);
  });

  it('is slow to start for slowStartRequests, again for each revision that goes live', async () => {
    const emu = await start();
    const d = emu.seedDeployment({
      name: 'cold',
      source_config: { repo_url: REPO, build_on_push: true },
      source_revision_config: { repo_ref: 'main' },
    });
    emu.serveAddress('cold', { slowStartRequests: 2, notLiveStatus: 502 });
    expect(await statuses(`${urlOf(d)}/ok`, 3)).toEqual([502, 502, 200]);
    emu.push(REPO, 'main', SHA);
    expect(await statuses(`${urlOf(d)}/ok`, 1)).toEqual([502]); // pushed, not live yet
    await poll(emu, d.id); // the pushed revision goes live
    expect(await statuses(`${urlOf(d)}/ok`, 3)).toEqual([502, 502, 200]);
  });

  it('asks for a header: 401 without it or with another value', async () => {
    const emu = await start();
    const url = emu.serveAddress(emu.seedDeployment({ name: 'locked' }).id, {
      requireHeader: { name: 'X-Api-Key', value: 'agent-key' },
    });
    const denied = await get(`${url}/ok`);
    expect([denied.status, denied.text]).toEqual([401, '{"detail":"Unauthorized"}']);
    expect((await get(`${url}/ok`, { headers: { 'x-api-key': 'other' } })).status).toBe(401);
    expect((await get(`${url}/ok`, { headers: { 'x-api-key': 'agent-key' } })).status).toBe(200);
  });

  it('applies addressBehaviour to every address, under its own', async () => {
    const emu = await start({ addressBehaviour: { requireHeader: { name: 'x-k', value: 'v' } } });
    const a = urlOf(emu.seedDeployment({ name: 'a' }));
    const b = emu.serveAddress(emu.seedDeployment({ name: 'b' }).id, { requireHeader: undefined });
    expect((await get(`${a}/ok`)).status).toBe(401);
    expect((await get(`${b}/ok`)).status).toBe(200);
    emu.setOptions({ addressBehaviour: undefined });
    expect((await get(`${a}/ok`)).status).toBe(200);
  });

  it('hangs: the request is accepted and recorded, never answered, and close() ends it', async () => {
    const emu = await start();
    const url = emu.serveAddress(emu.seedDeployment({ name: 'stuck' }).id, { hang: true });
    const t = performance.now();
    await expect(get(`${url}/ok`, { signal: AbortSignal.timeout(300) })).rejects.toThrow(
      expect.objectContaining({ name: 'TimeoutError' }),
    );
    expect(performance.now() - t).toBeGreaterThanOrEqual(280);
    expect(emu.addressRequests).toHaveLength(1);
    expect(emu.addressRequests[0]?.status).toBeUndefined();

    emu.serveAddress('stuck', {});
    emu.scriptAddress('stuck', [{ hang: true }]);
    let settled = false;
    const pending = get(`${url}/ok`).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    // The request hangs for ever: only the close can end it.
    await emu.close();
    await expect(pending).rejects.toThrow();
    await expect(get(`${url}/ok`)).rejects.toThrow(); // closed
  });

  it('redirects to a path of the same origin, which answers as /ok does', async () => {
    const emu = await start();
    const url = emu.serveAddress(emu.seedDeployment({ name: 'moved' }).id, {
      redirect: '/ready',
      redirectStatus: 301,
    });
    const first = await get(`${url}/ok`);
    expect([first.status, first.headers.get('location')]).toEqual([301, '/moved/ready']);
    expect((await get(`${url}/ok`, { follow: true })).status).toBe(200);
    expect(emu.addressRequests.map((r) => [r.origin, r.path, r.status])).toEqual([
      ['main', '/moved/ok', 301],
      ['main', '/moved/ok', 301],
      ['main', '/moved/ready', 200],
    ]);
  });

  it('redirects to another origin, whose listener serves the same address', async () => {
    const emu = await start();
    emu.seedDeployment({ name: 'away' });
    const elsewhere = emu.addressOf('away', { otherOrigin: true });
    expect(new URL(elsewhere).origin).not.toBe(new URL(emu.addressOf('away')).origin);
    emu.scriptAddress('away', [{ redirect: `${elsewhere}/ok` }]);
    const first = await get(`${emu.addressOf('away')}/ok`);
    expect([first.status, first.headers.get('location')]).toEqual([302, `${elsewhere}/ok`]);
    emu.scriptAddress('away', [{ redirect: `${elsewhere}/ok`, redirectStatus: 307 }]);
    expect((await get(`${emu.addressOf('away')}/ok`, { follow: true })).status).toBe(200);
    expect(emu.addressRequests.map((r) => r.origin)).toEqual(['main', 'main', 'other']);
  });

  it('records every header sent, so a test can see which key reached the address', async () => {
    const emu = await start({ apiKey: 'service-key' });
    const url = urlOf(emu.seedDeployment({ name: 'rec' }));
    await get(`${url}/ok?check_db=1`, { headers: { 'X-Agent-Key': 'k1', 'user-agent': 'probe' } });
    const [request] = emu.addressRequests;
    expect(request).toMatchObject({
      method: 'GET',
      path: '/rec/ok',
      subpath: '/ok',
      query: { check_db: '1' },
      headers: { 'x-agent-key': 'k1', 'user-agent': 'probe' },
      status: 200,
    });
    expect(Object.values(request?.headers ?? {})).not.toContain('service-key');
    expect(emu.requests).toEqual([]); // the service saw none of it
  });

  it('echoes each request in its answer with echo: the 401, the 503 and the healthy /ok alike', async () => {
    const emu = await start();
    const url = urlOf(emu.seedDeployment({ name: 'echo' }));
    const headers = { 'X-Agent-Key': 'k1' };
    emu.serveAddress('echo', { echo: true, slowStartRequests: 1 });
    const starting = await get(`${url}/ok?ticket=t1`, { headers });
    const healthy = await get(`${url}/ok?ticket=t2`, { headers });
    emu.serveAddress('echo', { echo: true, requireHeader: { name: 'X-Agent-Key', value: 'k2' } });
    const refused = await get(`${url}/ok?ticket=t3`, { headers });
    expect([starting.status, healthy.status, refused.status]).toEqual([503, 200, 401]);
    for (const [got, ticket] of [
      [starting, 't1'],
      [healthy, 't2'],
      [refused, 't3'],
    ] as const) {
      expect(JSON.parse(got.text)).toMatchObject({
        query: { ticket },
        headers: { 'x-agent-key': 'k1' },
        path: '/echo/ok',
      });
    }
  });
});
