/**
 * The inputs that become HTTP headers: `headers`, `api-key-header` and
 * `api-key`. A header the HTTP client would refuse, or one that would change
 * how the request is framed or where it goes, is an input error here, before
 * any request. Messages never include a header value: values are secret.
 */
import { EmptyValue, fail } from './errors.js';

const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What an HTTP header value may hold: no control characters, nothing beyond Latin-1. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const UNSENDABLE =
  'cannot be sent in an HTTP header (it has a control character or a character beyond Latin-1)';

/**
 * Headers a step may not set. The action sets Accept and Content-Type itself.
 * The others belong to the connection and the framing of the body, which the
 * HTTP client owns: undici refuses Expect, Keep-Alive, Transfer-Encoding,
 * Upgrade and a Content-Length that differs from the body, so each request
 * would fail; it obeys Host, which would send the request and its api key to
 * another virtual host, and Connection; Proxy-Connection, TE and Trailer are
 * hop-by-hop headers that mean nothing on these requests.
 */
const CONTROLLED_HEADERS = new Map(
  [
    'Accept',
    'Content-Type',
    'Content-Length',
    'Host',
    'Connection',
    'Expect',
    'Keep-Alive',
    'Proxy-Connection',
    'TE',
    'Trailer',
    'Transfer-Encoding',
    'Upgrade',
  ].map((name) => [name.toLowerCase(), name]),
);

/** A header name fetch can send: `__proto__` is a token, but a record of headers drops it. */
function isSendableHeaderName(name: string): boolean {
  return HEADER_TOKEN.test(name) && name !== '__proto__';
}

/** The `api-key-header` input. */
export function parseApiKeyHeader(raw: string): string {
  if (!isSendableHeaderName(raw)) fail(`is not a valid header name: '${raw}'`);
  const controlled = CONTROLLED_HEADERS.get(raw.toLowerCase());
  if (controlled !== undefined) {
    fail(
      `${controlled} is a header the action sets itself or cannot send: name another header (e.g. X-Api-Key or Authorization)`,
    );
  }
  return raw;
}

/** The `api-key` input: any text a header can carry (empty: no key is sent). */
export function parseApiKey(raw: string): string {
  if (!HEADER_VALUE.test(raw)) fail(`the value ${UNSENDABLE}`);
  return raw;
}

/** One `Name: value` line; `number` counts from 1, as messages name lines. */
function parseHeaderLine(line: string, number: number): [string, string] {
  const colon = line.indexOf(':');
  const name = colon < 0 ? '' : line.slice(0, colon).trim();
  const value = colon < 0 ? '' : line.slice(colon + 1).trim();
  if (colon < 0 || !isSendableHeaderName(name)) {
    fail(`line ${number} is not 'Name: value' with a valid header name`);
  }
  if (value === '') throw new EmptyValue(`line ${number} has an empty value`);
  if (!HEADER_VALUE.test(value)) fail(`the value on line ${number} ${UNSENDABLE}`);
  return [name, value];
}

/** The `headers` input: `Name: value` lines, blank lines and `#` comments ignored. */
export function parseHeaders(raw: string): Record<string, string> {
  const headers: [string, string][] = [];
  // Lines are named by number, not by content: a stray line may be part of a value.
  const seen = new Map<string, number>();
  for (const [index, line] of raw.split(/\r?\n/).entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const [name, value] = parseHeaderLine(line, index + 1);
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) fail(`line ${index + 1} repeats the header of line ${first}`);
    const controlled = CONTROLLED_HEADERS.get(key);
    if (controlled !== undefined) {
      fail(`line ${index + 1} sets a header the action sets itself or cannot send (${controlled})`);
    }
    seen.set(key, index + 1);
    headers.push([name, value]);
  }
  return Object.fromEntries(headers);
}
