/**
 * Where a health check never goes: a link-local or metadata address (169.254.0.0/16, fe80::/10,
 * AWS's fd00:ec2::254), literal or resolved. The look-up refuses it before any connection is
 * made, so no header reaches it.
 */
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

export const FORBIDDEN_ADDRESS = 'EFORBIDDENADDRESS';

export const FORBIDDEN_WORDS = 'a link-local or metadata address (169.254.0.0/16, fe80::/10)';

/** The eight 16-bit groups of an IPv6 address (a trailing IPv4 part included). */
function groupsOf(ip: string): number[] | undefined {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const last = text.lastIndexOf(':') + 1;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text.slice(last));
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, last)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
}

function isForbiddenV4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 169 && b === 254;
}

export function isForbiddenIp(ip: string): boolean {
  const version = isIP(ip.replace(/%.*$/, ''));
  if (version === 4) return isForbiddenV4(ip);
  if (version !== 6) return false;
  const groups = groupsOf(ip);
  if (groups === undefined) return false;
  const [first = 0, , , , , sixth = 0, seventh = 0, eighth = 0] = groups;
  if ((first & 0xffc0) === 0xfe80) return true;
  // An IPv4 address mapped into IPv6 (::ffff:169.254.169.254) is that IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && sixth === 0xffff)
    return isForbiddenV4(`${seventh >> 8}.${seventh & 0xff}.${eighth >> 8}.${eighth & 0xff}`);
  return groups.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':');
}

export function isForbiddenHost(hostname: string): boolean {
  return isForbiddenIp(hostname.replace(/^\[(.*)\]$/, '$1'));
}

function forbidden(hostname: string, ip: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `${hostname} resolves to ${ip}, ${FORBIDDEN_WORDS}: not checked`,
  );
  error.code = FORBIDDEN_ADDRESS;
  return error;
}

type Answered = (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;

export function guardedLookup(lookup: LookupFunction = dnsLookup): LookupFunction {
  const guarded = (hostname: string, options: object, callback: Answered): void => {
    const answered: Answered = (error, address, family) => {
      if (error !== null) return callback(error, address, family);
      const found = Array.isArray(address)
        ? (address as { address: string }[]).map((entry) => entry.address)
        : [String(address)];
      const bad = found.find(isForbiddenIp);
      if (bad !== undefined) return callback(forbidden(hostname, bad), address, family);
      callback(null, address, family);
    };
    (lookup as unknown as (h: string, o: object, c: Answered) => void)(hostname, options, answered);
  };
  return guarded as unknown as LookupFunction;
}

/**
 * Asked before a request through a proxy, which resolves the name itself. A failed look-up
 * says nothing (the proxy may know names this machine does not).
 */
export function forbiddenResolution(
  hostname: string,
  lookup: LookupFunction = dnsLookup,
): Promise<string | undefined> {
  if (isIP(hostname.replace(/^\[(.*)\]$/, '$1')) !== 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    guardedLookup(lookup)(hostname, { all: true }, (error) => {
      resolve(error?.code === FORBIDDEN_ADDRESS ? error.message : undefined);
    });
  });
}
