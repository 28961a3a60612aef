/**
 * Local HTTP(S) servers on 127.0.0.1 for tests of the health check: each records the
 * requests it gets; `closeSites()` (after each test) stops them all. TLS uses one throwaway
 * certificate for 127.0.0.1 and localhost (tls.ts), made on first use.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeCertificate, type Certificate } from './tls.ts';

export interface Site {
  /** e.g. http://127.0.0.1:34567 (no trailing slash). */
  url: string;
  port: number;
  seen: { path: string; headers: IncomingHttpHeaders }[];
}

const servers: Server[] = [];
let made: { directory: string; certificate: Certificate } | undefined;

/** The certificate the TLS sites serve (its `cert` is what a client trusts). */
export function siteCertificate(): Certificate {
  if (made === undefined) {
    const directory = mkdtempSync(path.join(tmpdir(), 'sites-'));
    made = { directory, certificate: makeCertificate(directory) };
  }
  return made.certificate;
}

/** Stops every site, and removes the certificate's folder. */
export async function closeSites(): Promise<void> {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  if (made !== undefined) rmSync(made.directory, { recursive: true, force: true });
  made = undefined;
}

/** A local server answering with `handler`, recording every request it gets. */
export async function serve(handler: RequestListener, tls = false): Promise<Site> {
  const seen: Site['seen'] = [];
  const listener: RequestListener = (req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    handler(req, res);
  };
  const server = tls
    ? createTlsServer({ key: siteCertificate().key, cert: siteCertificate().cert }, listener)
    : createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, port, seen };
}

/** A handler answering `status` with `body`. */
export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): RequestListener =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };

/** A DNS look-up that answers `ip` for every name, recording the names asked. */
export function lookupTo(ip: string): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const family = ip.includes(':') ? 6 : 4;
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: null, address: unknown, family?: number) => void,
  ) => {
    calls.push(hostname);
    if (options.all === true) callback(null, [{ address: ip, family }]);
    else callback(null, ip, family);
  };
  return Object.assign(lookup as unknown as LookupFunction, { calls });
}
