import { describe, expect, it } from 'vitest';
import { fillHealthCheck, needsUrl, queryValues } from '../../src/service/health-address.ts';
import { shownAddress } from '../../src/common/address.ts';

describe('fillHealthCheck', () => {
  it('appends a path with one / between, a trailing / of the url dropped', () => {
    const check = { kind: 'path', path: '/ok' } as const;
    for (const url of [
      'https://a.example.com',
      'https://a.example.com/',
      'https://a.example.com//',
    ]) {
      expect(fillHealthCheck(check, url)).toEqual({
        kind: 'address',
        address: 'https://a.example.com/ok',
      });
    }
    expect(fillHealthCheck(check, 'https://a.example.com/agents/x/')).toEqual({
      kind: 'address',
      address: 'https://a.example.com/agents/x/ok',
    });
  });

  it('fills {url} in a full address', () => {
    const check = { kind: 'address', template: '{url}/ok?check_db=1' } as const;
    expect(fillHealthCheck(check, 'https://a.example.com/')).toEqual({
      kind: 'address',
      address: 'https://a.example.com/ok?check_db=1',
    });
  });

  it('leaves a full address without {url} as it is, url or not', () => {
    const check = { kind: 'address', template: 'https://b.example.com/ok' } as const;
    expect(needsUrl(check)).toBe(false);
    for (const url of ['https://a.example.com', '', null, undefined]) {
      expect(fillHealthCheck(check, url)).toEqual({ kind: 'address', address: check.template });
    }
  });

  it('says when {url} is needed and the deployment has none', () => {
    const path = { kind: 'path', path: '/ok' } as const;
    const template = { kind: 'address', template: '{url}/ok' } as const;
    for (const check of [path, template]) {
      expect(needsUrl(check)).toBe(true);
      for (const url of ['', '  ', null, undefined]) {
        expect(fillHealthCheck(check, url)).toEqual({ kind: 'no-url' });
      }
    }
  });
});

describe('shownAddress', () => {
  it('shows no query, fragment or credentials', () => {
    expect(shownAddress('https://u:p@a.example.com:8443/ok?key=secret#frag')).toBe(
      'https://a.example.com:8443/ok',
    );
    expect(shownAddress(new URL('http://127.0.0.1:3000/'))).toBe('http://127.0.0.1:3000/');
    expect(shownAddress('not an address?key=secret')).toBe('(not an address)');
  });
});

describe('queryValues', () => {
  it('gives each value as written and decoded, none of {url}, none of an empty query', () => {
    expect(queryValues('/ok?token=a%2Fb+c&probe=1&bare#frag=x')).toEqual([
      'a%2Fb+c',
      'a/b c',
      '1',
      'bare',
    ]);
    expect(queryValues('https://x.example/ok?u={url}')).toEqual([]);
    expect(queryValues('{url}/ok')).toEqual([]);
    expect(queryValues('/ok?bad=%E0%A4%A')).toEqual(['%E0%A4%A']);
  });
});
