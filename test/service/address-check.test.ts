import { afterEach, describe, expect, it } from 'vitest';
import { askAddress, MAX_BODY_BYTES, type CheckOptions } from '../../src/service/address-check.ts';
import { CancelledError } from '../../src/common/errors.ts';
import { answer, closeSites, serve } from '../support/sites.ts';

afterEach(closeSites);

/** The check as the run makes it: one ask, its answer judged with the expected text. */
async function checkAddress(address: string, options: CheckOptions & { expect?: string } = {}) {
  return (await askAddress(address, options))(options.expect);
}

describe('checkAddress: the answer', () => {
  it('passes a 2xx answer without expected text, sending the headers', async () => {
    const site = await serve(answer(200, '{"ok": true}'));
    const result = await checkAddress(`${site.url}/ok`, { headers: { 'X-Api-Key': 'k-123456' } });
    expect(result).toEqual({ ok: true, status: 200 });
    expect(site.seen).toHaveLength(1);
    expect(site.seen[0]?.headers['x-api-key']).toBe('k-123456');
  });

  it('passes only when the body holds the expected text', async () => {
    const site = await serve(answer(200, '{"ok": true, "version": "1.4.2"}'));
    expect(await checkAddress(`${site.url}/ok`, { expect: '"version": "1.4.2"' })).toEqual({
      ok: true,
      status: 200,
    });
    const missing = await checkAddress(`${site.url}/ok`, { expect: '1.5.0' });
    expect(missing).toMatchObject({ ok: false, status: 200 });
    expect(missing.error).toContain('does not hold the expected text');
    expect(missing.bodyExcerpt).toBe('{"ok": true, "version": "1.4.2"}');
  });

  it('fails a 401 and a 503, with at most 200 characters of the body, escaped', async () => {
    const denied = await serve(answer(401, 'no key'));
    expect(await checkAddress(`${denied.url}/ok`)).toEqual({
      ok: false,
      status: 401,
      error: '401 Unauthorized',
      bodyExcerpt: 'no key',
    });
    const down = await serve(answer(503, `::error::down\u001b[31m ${'x'.repeat(1000)}`));
    const result = await checkAddress(`${down.url}/ok`, { expect: 'ok' });
    expect(result).toMatchObject({ ok: false, status: 503, error: '503 Service Unavailable' });
    expect(result.bodyExcerpt).toContain('\\u001b');
    expect(result.bodyExcerpt?.replace('\\u001b', '\u001b')).toHaveLength(200);
  });

  it('bounds an answer that never comes, and one that stops after its headers', async () => {
    // Neither server ever ends its answer: only the bound ends each check.
    const silent = await serve(() => undefined);
    expect(await checkAddress(`${silent.url}/ok`, { timeoutMs: 200 })).toEqual({
      ok: false,
      error: 'no answer within 0.2 s',
    });
    const stalled = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('{"ok"');
    });
    expect(await checkAddress(`${stalled.url}/ok`, { timeoutMs: 200 })).toEqual({
      ok: false,
      error: 'no answer within 0.2 s',
    });
  });

  it('reads at most 64 KiB of the body: the expected text is looked for there only', async () => {
    const body = (at: number) => `${'a'.repeat(at)}VERSION-7${'b'.repeat(1024 * 1024 - at)}`;
    const early = await serve(answer(200, body(MAX_BODY_BYTES - 100)));
    expect(await checkAddress(`${early.url}/ok`, { expect: 'VERSION-7' })).toEqual({
      ok: true,
      status: 200,
    });
    const late = await serve(answer(200, body(MAX_BODY_BYTES + 100)));
    const result = await checkAddress(`${late.url}/ok`, { expect: 'VERSION-7' });
    expect(result).toMatchObject({ ok: false, status: 200 });
    expect(result.bodyExcerpt).toBe('a'.repeat(200));
    // A body that never ends is not read to its end: the check answers long before its bound.
    const endless = await serve((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('c'.repeat(16 * 1024)), 5);
      res.on('close', () => clearInterval(timer));
    });
    const endlessResult = await checkAddress(`${endless.url}/ok`, {
      expect: 'x',
      timeoutMs: 20_000,
    });
    expect(endlessResult).toMatchObject({ ok: false, status: 200 });
  });

  it('throws CancelledError when the run is cancelled', async () => {
    const silent = await serve(() => undefined);
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 50);
    await expect(checkAddress(`${silent.url}/ok`, { signal: cancel.signal })).rejects.toThrow(
      CancelledError,
    );
  });
});

describe('checkAddress: redirects', () => {
  it('follows a redirect to the same origin, headers kept', async () => {
    const site = await serve((req, res) => {
      if (req.url === '/ok') answer(302, '', { location: '/healthz?step=2' })(req, res);
      else answer(200, 'fine')(req, res);
    });
    const result = await checkAddress(`${site.url}/ok`, { headers: { 'X-Api-Key': 'k-123456' } });
    expect(result).toEqual({ ok: true, status: 200 });
    expect(site.seen.map((seen) => seen.path)).toEqual(['/ok', '/healthz?step=2']);
    expect(site.seen[1]?.headers['x-api-key']).toBe('k-123456');
  });

  it('refuses a redirect to another origin, naming it without its query', async () => {
    const elsewhere = await serve(answer(200, 'fine'));
    const site = await serve(
      answer(307, '', { location: `${elsewhere.url}/steal?token=t0ps3cret` }),
    );
    const result = await checkAddress(`${site.url}/ok`, { headers: { 'X-Api-Key': 'k-123456' } });
    expect(result).toEqual({
      ok: false,
      status: 307,
      error: `307 redirect to another origin (${elsewhere.url}/steal): not followed`,
    });
    expect(elsewhere.seen).toEqual([]);
  });

  it('stops after 5 redirects', async () => {
    const site = await serve(answer(302, '', { location: '/again' }));
    const result = await checkAddress(`${site.url}/ok`);
    expect(result).toEqual({
      ok: false,
      status: 302,
      error: 'more than 5 redirects: not followed',
    });
    expect(site.seen).toHaveLength(6);
  });
});
