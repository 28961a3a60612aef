/** The one rule for an address the action publishes (src/common/address.ts). */
import { describe, expect, it } from 'vitest';
import { publishableAddress, publishedOrNothing } from '../../src/common/address.ts';

describe('an address that may be published', () => {
  it.each(['https://agent.example', 'http://127.0.0.1:8080/app?x=1#top', 'https://a.example/x#y'])(
    '%s is published as given',
    (address) => {
      expect(publishableAddress(address)).toEqual({
        ok: true,
        address,
        removed: [],
        hadCredentials: false,
      });
    },
  );

  it('loses its user and password, and hands both forms of the password back to be masked', () => {
    expect(publishableAddress('https://deployer:PA%24S-w0rd@preview.example/app')).toEqual({
      ok: true,
      address: 'https://preview.example/app',
      removed: ['PA%24S-w0rd', 'PA$S-w0rd'],
      hadCredentials: true,
    });
    expect(publishableAddress('https://token@preview.example/')).toEqual({
      ok: true,
      address: 'https://preview.example/',
      removed: [],
      hadCredentials: true,
    });
  });

  it('is read as the parser reads it when it holds line breaks, tabs or control characters', () => {
    expect(publishableAddress(' https://x.exa\nmple/a\tb\u0007c ')).toMatchObject({
      ok: true,
      address: 'https://x.example/ab%07c',
    });
  });
});

describe('an address that is not published', () => {
  it.each([
    ['javascript:alert(document.cookie)', 'it is not an http(s) address'],
    ['data:text/html,<script>alert(1)</script>', 'it is not an http(s) address'],
    ['ftp://files.example/agent', 'it is not an http(s) address'],
    ['file:///etc/passwd', 'it is not an http(s) address'],
    ['preview.example/app', 'it is not an address'],
    ['https://', 'it is not an address'],
  ])('%s: %s', (address, why) => {
    expect(publishableAddress(address)).toMatchObject({ ok: false, why });
    expect(publishedOrNothing(address)).toBeUndefined();
  });

  it('nothing, null or empty is nothing', () => {
    expect(publishedOrNothing(undefined)).toBeUndefined();
    expect(publishedOrNothing(null)).toBeUndefined();
    expect(publishedOrNothing('')).toBeUndefined();
  });
});
