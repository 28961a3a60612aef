/**
 * The inputs that become HTTP headers (src/inputs/headers.ts): `headers`,
 * `api-key-header` and `api-key`. No message shows a header value.
 */
import { describe, expect, it } from 'vitest';
import { API_KEY, planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('header-input-test-');
const { plan: spec, rejects } = planReader({ workspace: workspace.root });

describe('api-key', () => {
  it.each([
    ['a NUL', `${API_KEY}\u0000`],
    ['a carriage return', `${API_KEY}\rmore`],
    ['a character beyond Latin-1', `${API_KEY}…`],
  ])('rejects a key with %s, without echoing it', (_what, key) => {
    const message = rejects({ 'api-key': key }, 'api-key', /cannot be sent in an HTTP header/);

    expect(message).not.toContain(API_KEY);
  });
});

describe('headers', () => {
  const VALUE = 'header-hunter2-s3cr3t';

  function rejectsHeaders(given: Record<string, string>, pattern: RegExp): void {
    const message = rejects(given, 'headers', pattern);
    expect(message).not.toContain(VALUE);
    expect(message).not.toContain(API_KEY);
  }

  it('reads Name: value lines', () => {
    const result = spec({
      headers: `X-Tenant-Id: ${VALUE}\r\n\n# a comment\nX-Url:  https://example.com:8443/x  `,
    });
    expect(result.headers).toEqual({ 'X-Tenant-Id': VALUE, 'X-Url': 'https://example.com:8443/x' });
    expect(result.sensitiveValues).toEqual(
      expect.arrayContaining([VALUE, 'https://example.com:8443/x']),
    );
  });

  it('rejects a line without a colon', () => {
    rejectsHeaders({ headers: `X-Tenant-Id ${VALUE}` }, /line 1 is not 'Name: value'/);
  });

  it.each([
    ['a NUL', `${VALUE}\u0000x`],
    ['a lone carriage return', `${VALUE}\rx`],
    ['a character beyond Latin-1', `${VALUE}€`],
  ])('rejects a value with %s, which fetch could not send', (_what, value) => {
    rejectsHeaders({ headers: `X-Tenant-Id: ${value}` }, /value on line 1 cannot be sent/);
  });

  it('rejects a header named __proto__, which fetch would silently drop', () => {
    rejectsHeaders(
      { headers: `__proto__: ${VALUE}` },
      /line 1 is not 'Name: value' with a valid header name/,
    );
    rejects(
      { 'api-key-header': '__proto__', 'api-key': API_KEY },
      'api-key-header',
      /not a valid header name/,
    );
  });

  it.each(['X Tenant', 'X-Tenant(1)', 'Ünicode', ''])('rejects the header name %j', (name) => {
    rejectsHeaders(
      { headers: `A: b\n${name}: ${VALUE}` },
      /line 2 is not 'Name: value' with a valid header name/,
    );
  });

  it('rejects an empty value', () => {
    rejectsHeaders({ headers: 'X-Tenant-Id:   ' }, /line 1 has an empty value/);
  });

  it('rejects a duplicate, whatever its case', () => {
    rejectsHeaders(
      { headers: `X-Tenant: ${VALUE}\nx-tenant: other` },
      /line 2 repeats the header of line 1/,
    );
  });

  it.each(['Content-Type', 'content-length', 'Host', 'ACCEPT'])(
    'rejects the reserved header %s',
    (name) => {
      rejectsHeaders(
        { headers: `${name}: ${VALUE}` },
        /line 1 sets a header the action sets itself/,
      );
    },
  );

  it('rejects a header that clashes with api-key-header when api-key is set', () => {
    rejectsHeaders(
      { 'api-key': API_KEY, headers: `x-api-key: ${VALUE}` },
      /header 'x-api-key' would replace the api-key header/,
    );
    rejectsHeaders(
      { 'api-key': API_KEY, 'api-key-header': 'Authorization', headers: `AUTHORIZATION: ${VALUE}` },
      /would replace the api-key header/,
    );
  });

  it('rejects an invalid api-key-header', () => {
    rejects({ 'api-key-header': 'X Api Key' }, 'api-key-header', /not a valid header name/);
    rejects({ 'api-key-header': '' }, 'api-key-header', /not a valid header name/);
  });
});

describe('headers the action or its HTTP client control', () => {
  const VALUE = 'header-hunter2-s3cr3t';
  /** The HTTP client refuses or obeys each of these; none may come from a step. */
  const CONNECTION_HEADERS = [
    'Expect',
    'Keep-Alive',
    'Transfer-Encoding',
    'Connection',
    'Content-Length',
    'Host',
    'Upgrade',
    'Proxy-Connection',
    'TE',
    'Trailer',
  ];
  /** Set by the action itself on every request. */
  const ACTION_HEADERS = ['Content-Type', 'Accept'];

  it.each(CONNECTION_HEADERS.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]))(
    'rejects %s in headers, naming the line and the header, never the value',
    (name) => {
      const canonical = [...CONNECTION_HEADERS, ...ACTION_HEADERS].find(
        (header) => header.toLowerCase() === name.toLowerCase(),
      );
      const message = rejects(
        { headers: `X-Tenant: tenant\n${name}: ${VALUE}` },
        'headers',
        /line 2 sets a header the action sets itself or cannot send/,
      );
      expect(message).toContain(`(${canonical})`);
      expect(message).not.toContain(VALUE);
    },
  );

  it.each([...CONNECTION_HEADERS, ...ACTION_HEADERS, 'host', 'CONTENT-TYPE'])(
    'rejects %s as api-key-header, so the key is never sent in it',
    (name) => {
      const message = rejects(
        { 'api-key-header': name, 'api-key': API_KEY },
        'api-key-header',
        /is a header the action sets itself or cannot send: name another header/,
      );
      expect(message).not.toContain(API_KEY);
    },
  );

  it('rejects api-key-header Host even without an api key', () => {
    rejects(
      { 'api-key-header': 'Host' },
      'api-key-header',
      /^Invalid input 'api-key-header': Host is a header/,
    );
  });

  it('accepts headers that only look like controlled ones', () => {
    const result = spec({
      headers: 'X-Host: a\nX-Forwarded-Host: b\nContent-Language: en\nTE-Extra: c',
      'api-key': API_KEY,
      'api-key-header': 'X-Connection-Key',
    });
    expect(result.headers).toEqual({
      'X-Host': 'a',
      'X-Forwarded-Host': 'b',
      'Content-Language': 'en',
      'TE-Extra': 'c',
      'X-Connection-Key': API_KEY,
    });
  });
});
