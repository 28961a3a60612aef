/**
 * The parsers of single inputs (src/inputs/parsers.ts), through readPlan: each
 * bad value is an input error that names its input.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WAIT_TIMEOUT_SECONDS } from '../../src/inputs/parsers.ts';
import { API_KEY, SECRET, planReader, temporaryWorkspace } from '../support/plan-inputs.ts';

const workspace = temporaryWorkspace('input-parsers-test-');
const { plan: spec, rejects } = planReader({ workspace: workspace.root });

describe('integration-id and repository', () => {
  it.each([
    'not-a-uuid',
    '0f8fad5b-d9cb-469f-a165-70867728950',
    '{0f8fad5b-d9cb-469f-a165-70867728950e}',
  ])('rejects the non-uuid %j', (id) => {
    rejects({ 'integration-id': id }, 'integration-id', /must be a uuid/);
  });

  it('rejects a non-uuid integration-id with any source', () => {
    rejects({ source: 'internal_template', 'integration-id': 'nope' }, 'integration-id');
  });

  it('requires an integration id for codehost (neither input nor config)', () => {
    rejects({ 'integration-id': '' }, 'integration-id', /required with source codehost/);
    rejects({ 'integration-id': '', config: '{"source_config": {}}' }, 'integration-id');
  });

  it.each([
    'acme',
    'acme/agent/extra',
    '/agent',
    'acme/',
    'ac me/agent',
    'https://github.com/acme/agent',
  ])('rejects the malformed repository %j', (repository) => {
    rejects({ repository }, 'repository', /must be owner\/name/);
  });

  it('requires a repository for codehost', () => {
    rejects({ repository: '' }, 'repository', /required with source codehost/);
  });
});

describe('api-url', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/prefix/v0//', 'https://api.example.com/prefix/v0'],
    ['HTTPS://API.Example.com:8443/x', 'https://api.example.com:8443/x'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://127.0.0.1:3000/api/', 'http://127.0.0.1:3000/api'],
    ['http://127.10.20.30', 'http://127.10.20.30'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
  ])('accepts %s', (url, expected) => {
    expect(spec({ 'api-url': url }).apiUrl).toBe(expected);
  });

  it.each([
    'http://api.example.com',
    'http://128.0.0.1',
    'http://10.0.0.1',
    'http://localhost.example.com',
    'http://127.0.0.1.example.com',
    'http://[::2]',
  ])('rejects http to the non-loopback %s', (url) => {
    rejects({ 'api-url': url }, 'api-url', /must use https:\/\//);
  });

  it.each(['api.example.com', 'not a url', '://x', 'https://'])('rejects %j, not a URL', (url) => {
    rejects({ 'api-url': url }, 'api-url', /is not a valid URL/);
  });

  it.each(['ftp://api.example.com', 'file:///etc/passwd'])('rejects the scheme of %s', (url) => {
    rejects({ 'api-url': url }, 'api-url', /must be an https:\/\/ URL/);
  });

  it.each([
    `https://user:${SECRET}@api.example.com`,
    `https://${SECRET}@api.example.com`,
    `http://user:${SECRET}@api.example.com`,
    `http://user:${SECRET}@localhost`,
  ])('rejects credentials in %s without echoing them', (url) => {
    const message = rejects({ 'api-url': url }, 'api-url', /must not contain credentials/);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('user');
  });

  it.each(['https://api.example.com/v1?tenant=a', 'https://api.example.com/v1#top'])(
    'rejects the query or fragment of %s',
    (url) => {
      rejects(
        { 'api-url': url },
        'api-url',
        /must not have a query or fragment: give the base address only, like 'https:\/\/api\.example\.com\/v1'/,
      );
    },
  );

  it('ignores an empty query', () => {
    expect(spec({ 'api-url': 'https://api.example.com?' }).apiUrl).toBe('https://api.example.com');
  });

  it.each([
    `https://api.example.com/?api_key=${API_KEY}`,
    `https://api.example.com/#${API_KEY}`,
    `http://api.example.com/?api_key=${API_KEY}`,
    `ftp://api.example.com/?api_key=${API_KEY}`,
  ])('does not echo a key put in the query or fragment of %s', (url) => {
    const message = rejects({ 'api-url': url, 'api-key': API_KEY }, 'api-url');
    expect(message).not.toContain(API_KEY);
  });

  it('is required', () => {
    rejects({ 'api-url': '' }, 'api-url', /is required/);
  });
});

describe('wait-timeout', () => {
  it.each([
    ['1', 1],
    ['2.5', 2.5],
    ['900', 900],
    [String(MAX_WAIT_TIMEOUT_SECONDS), MAX_WAIT_TIMEOUT_SECONDS],
  ])('accepts %s', (raw, seconds) => {
    expect(spec({ 'wait-timeout': raw }).waitTimeoutSeconds).toBe(seconds);
  });

  it.each(['0', '0.0', '-1', 'abc', '1e3', '', '0x10', '1.', '.5', 'Infinity', '10s', '1 000'])(
    'rejects %j',
    (raw) => {
      rejects({ 'wait-timeout': raw }, 'wait-timeout', /must be a positive number of seconds/);
    },
  );

  it('rejects a timeout longer than a job may run', () => {
    rejects(
      { 'wait-timeout': String(MAX_WAIT_TIMEOUT_SECONDS + 1) },
      'wait-timeout',
      /must be at most/,
    );
    rejects({ 'wait-timeout': '99999999999999999999' }, 'wait-timeout', /must be at most/);
  });
});

describe('booleans', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
  ])('accept %s', (raw, value) => {
    const result = spec({ 'wait-for-ready': raw, 'dry-run': raw });
    expect(result.waitForReady).toBe(value);
    expect(result.dryRun).toBe(value);
  });

  it.each(['yes', 'no', '1', '0', 'on', 'tRUE', ''])('reject %j', (raw) => {
    rejects({ 'wait-for-ready': raw }, 'wait-for-ready', /must be true or false/);
    rejects({ 'dry-run': raw }, 'dry-run', /must be true or false/);
  });
});

describe('name', () => {
  it('is required', () => {
    rejects({ name: '' }, 'name', /is required/);
    rejects({ name: '   ' }, 'name', /is required/);
  });

  it.each(['my\nagent', 'my\r\nagent', 'my\tagent', 'my\u0000agent'])(
    'rejects control characters in %j',
    (name) => {
      rejects({ name }, 'name', /must not contain control characters or line breaks/);
    },
  );

  it('keeps any other name as it is', () => {
    expect(spec({ name: 'My Agent (staging) ü' }).name).toBe('My Agent (staging) ü');
  });
});

describe('commit', () => {
  const SHA = '0123456789abcdef0123456789abcdef01234567';

  it('is auto by default', () => {
    expect(spec({}).commit.kind).toBe('none'); // auto, with no event to derive from
    expect(spec({ commit: 'auto' }).commit).toEqual(spec({}).commit);
  });

  it('accepts none', () => {
    expect(spec({ commit: 'none' }).commit).toEqual({
      kind: 'none',
      reason: 'the commit input is none',
    });
  });

  it('accepts a full sha in any case, lower-cased', () => {
    expect(spec({ commit: SHA.toUpperCase() }).commit).toEqual({ kind: 'sha', sha: SHA });
    expect(spec({ commit: SHA }).commit).toEqual({ kind: 'sha', sha: SHA });
  });

  it.each(['0123456', 'abcdef0', SHA.slice(0, 39)])('rejects the short sha %s', (raw) => {
    rejects({ commit: raw }, 'commit', /must be a full 40-character commit sha, got the short sha/);
  });

  it.each([
    '',
    'HEAD',
    'main',
    'refs/heads/main',
    'Auto',
    'NONE',
    `${SHA}0`,
    `${SHA.slice(1)}g`,
    'v1.0',
  ])('rejects %j', (raw) => {
    rejects({ commit: raw }, 'commit', /must be auto, none or a full 40-character commit sha/);
  });

  it.each(['external_docker', 'internal_docker', 'internal_source', 'internal_template'])(
    'rejects a sha with source %s',
    (source) => {
      const message = rejects(
        {
          source,
          commit: SHA,
          'image-uri': 'img:1',
          config: 'source_revision_config: { source_tarball_path: a.tgz }',
        },
        'commit',
        /a commit sha applies only to source codehost/,
      );
      expect(message).toContain(`not ${source}`);
    },
  );

  it.each(['auto', 'none'])('accepts %s with any source', (commit) => {
    const result = spec({ source: 'internal_template', commit });
    expect(result.commit.kind).toBe('none');
  });
});

describe('on-drift', () => {
  it.each([
    ['warn', 'warn'],
    ['fail', 'fail'],
  ])('accepts %s', (raw, mode) => {
    expect(spec({ 'on-drift': raw }).onDrift).toBe(mode);
  });

  it('is warn by default', () => {
    expect(spec({}).onDrift).toBe('warn');
  });

  it.each(['', 'Warn', 'FAIL', 'error', 'ignore', 'true'])('rejects %j', (raw) => {
    rejects({ 'on-drift': raw }, 'on-drift', /must be warn or fail/);
  });
});
