import { afterEach, describe, expect, it } from 'vitest';
import { askAddress, type CheckOptions } from '../../src/service/address-check.ts';
import { isForbiddenIp } from '../../src/service/address-guard.ts';
import { answer, closeSites, lookupTo, serve, siteCertificate } from '../support/sites.ts';
import { startProxy, type Proxy } from '../support/proxy.ts';

let proxy: Proxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await closeSites();
});

/** The check as the run makes it: one ask, its answer judged with the expected text. */
async function checkAddress(address: string, options: CheckOptions & { expect?: string } = {}) {
  return (await askAddress(address, options))(options.expect);
}

const FORBIDDEN = 'a link-local or metadata address (169.254.0.0/16, fe80::/10)';

describe('isForbiddenIp', () => {
  it('knows link-local and metadata addresses in every form', () => {
    for (const ip of [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'FEBF::1',
      'fe80::1%eth0',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      'fd00:ec2::254',
    ]) {
      expect(isForbiddenIp(ip), ip).toBe(true);
    }
    for (const ip of ['127.0.0.1', '169.253.1.1', '10.0.0.1', '::1', 'fec0::1', '::ffff:7f00:1']) {
      expect(isForbiddenIp(ip), ip).toBe(false);
    }
  });
});

describe('checkAddress: where it never goes', () => {
  it('refuses a link-local or metadata address written in the address, before any look-up', async () => {
    const lookup = lookupTo('127.0.0.1');
    for (const address of [
      'https://169.254.169.254/latest/meta-data/?token=t0ps3cret',
      'https://[fe80::1]/ok',
      'https://[::ffff:169.254.169.254]/ok',
      'https://0xa9.0xfe.0xa9.0xfe/ok',
    ]) {
      const result = await checkAddress(address, { lookup, headers: { 'X-Api-Key': 'k-123456' } });
      expect(result.ok, address).toBe(false);
      expect(result.refused, address).toBe(true);
      expect(result.error).toContain(`is ${FORBIDDEN}: not checked`);
      expect(result.error).not.toContain('t0ps3cret');
    }
    expect(lookup.calls).toEqual([]);
  });

  it('refuses a host name that resolves to one, sending nothing', async () => {
    const site = await serve(answer(200, 'ok'), true);
    for (const ip of ['169.254.169.254', 'fe80::1']) {
      const lookup = lookupTo(ip);
      const result = await checkAddress(`https://localhost:${site.port}/ok`, {
        lookup,
        ca: siteCertificate().cert,
        headers: { 'X-Api-Key': 'k-123456' },
      });
      expect(result).toEqual({
        ok: false,
        error: `localhost resolves to ${ip}, ${FORBIDDEN}: not checked`,
        refused: true,
      });
      expect(lookup.calls).toEqual(['localhost']);
    }
    expect(site.seen).toEqual([]);
  });

  it('checks a host name through the given look-up when it resolves elsewhere', async () => {
    const site = await serve(answer(200, 'ok'));
    const lookup = lookupTo('127.0.0.1');
    expect(await checkAddress(`http://localhost:${site.port}/ok`, { lookup })).toEqual({
      ok: true,
      status: 200,
    });
    expect(lookup.calls).toEqual(['localhost']);
  });

  it('goes only to https:// or a loopback http://, never with credentials', async () => {
    const lookup = lookupTo('127.0.0.1');
    expect(await checkAddress('http://agent.example.com/ok?k=t0ps3cret', { lookup })).toEqual({
      ok: false,
      error:
        'http://agent.example.com/ok is not checked: http:// is allowed only for localhost, 127.0.0.0/8 and [::1]',
      refused: true,
    });
    expect((await checkAddress('ftp://agent.example.com/ok', { lookup })).error).toContain(
      'must be an https:// address',
    );
    const withCredentials = await checkAddress('https://me:pa55word@agent.example.com/ok', {
      lookup,
    });
    expect(withCredentials.error).toBe(
      'https://agent.example.com/ok holds credentials: pass them as headers',
    );
    expect((await checkAddress('not an address', { lookup })).error).toBe(
      'the health check address is not a valid URL',
    );
    expect(lookup.calls).toEqual([]);
  });
});

describe('checkAddress: TLS and the proxy', () => {
  it('verifies TLS: an untrusted certificate fails, a trusted one passes', async () => {
    const site = await serve(answer(200, 'ok'), true);
    const untrusted = await checkAddress(`${site.url}/ok`);
    expect(untrusted.ok).toBe(false);
    expect(untrusted.status).toBeUndefined();
    expect(untrusted.error).toMatch(/certificate/i);
    expect(site.seen).toEqual([]);
    expect(await checkAddress(`${site.url}/ok`, { ca: siteCertificate().cert })).toEqual({
      ok: true,
      status: 200,
    });
  });

  it('goes through the proxy when one is set, and not when NO_PROXY names the host', async () => {
    proxy = await startProxy();
    const site = await serve(answer(200, 'ok'));
    const through = await checkAddress(`${site.url}/ok`, { proxy: { httpProxy: proxy.url } });
    expect(through).toEqual({ ok: true, status: 200 });
    expect([...proxy.connects, ...proxy.requests].join(' ')).toContain(`127.0.0.1:${site.port}`);
    const seenByProxy = proxy.connects.length + proxy.requests.length;
    const direct = await checkAddress(`${site.url}/ok`, {
      proxy: { httpProxy: proxy.url, noProxy: '127.0.0.1' },
    });
    expect(direct).toEqual({ ok: true, status: 200 });
    expect(proxy.connects.length + proxy.requests.length).toBe(seenByProxy);
    expect(site.seen).toHaveLength(2);
  });

  it('tunnels https through the proxy, TLS verified end to end', async () => {
    proxy = await startProxy();
    const site = await serve(answer(200, 'ok'), true);
    const settings = { httpsProxy: proxy.url };
    expect((await checkAddress(`${site.url}/ok`, { proxy: settings })).ok).toBe(false);
    const trusted = await checkAddress(`${site.url}/ok`, {
      proxy: settings,
      ca: siteCertificate().cert,
    });
    expect(trusted).toEqual({ ok: true, status: 200 });
    expect(proxy.connects).toContain(`127.0.0.1:${site.port}`);
  });

  it('refuses, before the proxy, a host name that resolves to a forbidden address', async () => {
    proxy = await startProxy();
    const lookup = lookupTo('169.254.169.254');
    const result = await checkAddress('http://localhost:9/ok', {
      lookup,
      proxy: { httpProxy: proxy.url },
    });
    expect(result).toEqual({
      ok: false,
      error: `localhost resolves to 169.254.169.254, ${FORBIDDEN}: not checked`,
      refused: true,
    });
    expect(proxy.connects).toEqual([]);
    expect(proxy.requests).toEqual([]);
  });
});

describe('checkAddress: what it says', () => {
  const KEY = 'k-9f8e7d6c5b4a';

  it('never shows a header value, even when the answer echoes it', async () => {
    const echo = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url === '/ok')
        answer(302, '', { location: `http://127.0.0.1:1/${key}?q=${key}` })(req, res);
      else answer(500, `bad key ${key}`)(req, res);
    });
    const headers = { 'X-Api-Key': KEY };
    const redirected = await checkAddress(`${echo.url}/ok`, { headers });
    expect(redirected.error).toBe(
      '302 redirect to another origin (http://127.0.0.1:1/***): not followed',
    );
    const failed = await checkAddress(`${echo.url}/fail`, { headers });
    expect(failed).toEqual({
      ok: false,
      status: 500,
      error: '500 Internal Server Error',
      bodyExcerpt: 'bad key ***',
    });
    const refused = await checkAddress(`http://127.0.0.1:1/ok?key=${KEY}`, { headers });
    expect(refused.ok).toBe(false);
    const notChecked = await checkAddress(`http://agent.example.com/${KEY}`, { headers });
    expect(notChecked.error).toContain('http://agent.example.com/*** is not checked');
    expect(JSON.stringify([redirected, failed, refused, notChecked])).not.toContain(KEY);
  });

  it('never shows the query string of the address', async () => {
    const site = await serve(
      answer(307, '', { location: 'https://elsewhere.example.com/x?token=t0ps3cret' }),
    );
    const result = await checkAddress(`${site.url}/ok?token=t0ps3cret`);
    expect(result.error).toBe(
      '307 redirect to another origin (https://elsewhere.example.com/x): not followed',
    );
    expect(site.seen[0]?.path).toBe('/ok?token=t0ps3cret');
    expect(JSON.stringify(result)).not.toContain('t0ps3cret');
  });
});
