/**
 * The one rule for an address the action publishes (outputs, `--json`, `environment_url`,
 * every link): `http(s)`, never a user or a password. One with credentials is published
 * without them; the caller masks what was removed before anything is written.
 */
import { untrusted } from './runtime.js';

type AddressVerdict =
  | { ok: true; address: string; removed: string[]; hadCredentials: boolean }
  /** `why` names no part of the address. */
  | { ok: false; why: string; removed: string[] };

/** `removed`: the password, decoded and as written, to mask. */
export function publishableAddress(text: string): AddressVerdict {
  if (!URL.canParse(text)) return { ok: false, why: 'it is not an address', removed: [] };
  const url = new URL(text);
  const removed = credentialsOf(url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, why: 'it is not an http(s) address', removed };
  // As given when nothing in it needs rewriting. The parser drops tabs and line breaks, trims
  // spaces and encodes control characters: an address with any is published as it reads it.
  const hadCredentials = url.username !== '' || url.password !== '';
  if (!hadCredentials && !/\s/.test(text) && untrusted(text) === text)
    return { ok: true, address: text, removed, hadCredentials };
  url.username = '';
  url.password = '';
  return { ok: true, address: url.href, removed, hadCredentials };
}

export function publishedOrNothing(text: string | null | undefined): string | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  const verdict = publishableAddress(text);
  return verdict.ok ? verdict.address : undefined;
}

/** The password of an address, as written and decoded; the user name is not a secret. */
function credentialsOf(url: URL): string[] {
  if (url.password === '') return [];
  const forms = new Set([url.password]);
  try {
    forms.add(decodeURIComponent(url.password));
  } catch {
    // A stray '%' is written as it is: the form above covers it.
  }
  return [...forms];
}

/** localhost, 127.0.0.0/8 or [::1]: where plain http:// is allowed. */
function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = hostname.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

/** What keeps `url` from being an address the action sends a request to; each caller words it. */
export function webAddressFault(url: URL): 'credentials' | 'plain-http' | 'scheme' | undefined {
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (url.protocol === 'http:') return isLoopback(url.hostname) ? undefined : 'plain-http';
  return url.protocol === 'https:' ? undefined : 'scheme';
}

/** Scheme, host and path: no credentials, query (it may carry a key) or fragment. */
export function shownAddress(address: string | URL): string {
  if (!URL.canParse(String(address))) return '(not an address)';
  const url = new URL(address);
  return untrusted(`${url.protocol}//${url.host}${url.pathname}`);
}
