/**
 * An HTTPS proxy for npm that plays codeload.github.com, for a test of `npx github:OWNER/REPO#v1`
 * with no access to GitHub: npm (pacote) resolves the tag with `git ls-remote` (which the test
 * points at a local repository through git's `url.<base>.insteadOf`) and then downloads
 * `https://codeload.github.com/OWNER/REPO/tar.gz/SHA`. The proxy answers that `CONNECT` itself,
 * over TLS with a certificate for codeload.github.com, and serves what GitHub serves: `git
 * archive` of the commit with the prefix `REPO-SHA/`. Every other target is refused (403), so
 * nothing reaches the network through it. Node built-ins and the `git` command only.
 */
import { spawn } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import type { Certificate } from './tls.ts';

export const CODELOAD = 'codeload.github.com';

export interface Codeload {
  /** e.g. http://127.0.0.1:34567, for npm_config_https_proxy. */
  readonly url: string;
  /** Every CONNECT target asked for (`host:port`), refused ones included, in order. */
  readonly connects: string[];
  /** Every request to codeload.github.com (`GET /OWNER/REPO/tar.gz/SHA`) and its status. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Serves `repository` (`OWNER/REPO`) from the git directory `gitDir` as codeload does. */
export async function startCodeload(
  repository: string,
  gitDir: string,
  certificate: Certificate,
): Promise<Codeload> {
  const connects: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Duplex>();
  const repo = repository.split('/')[1] ?? '';

  const site = createHttpServer((req, res) => {
    const status = serve(req, res);
    requests.push(`${req.method ?? 'GET'} ${req.url ?? ''} ${status}`);
  });

  /** Answers one request to codeload; returns the status it answered. */
  function serve(req: IncomingMessage, res: ServerResponse): number {
    const match = /^\/([^/]+\/[^/]+)\/tar\.gz\/([0-9a-f]{40})$/.exec(req.url ?? '');
    if (req.method !== 'GET' || match?.[1] !== repository) {
      res.writeHead(404).end('Not Found');
      return 404;
    }
    const sha = match[2] ?? '';
    const git = spawn(
      'git',
      ['--git-dir', gitDir, 'archive', '--format=tar.gz', `--prefix=${repo}-${sha}/`, sha],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    res.writeHead(200, { 'content-type': 'application/x-gzip' });
    git.stdout.pipe(res);
    git.on('error', () => res.destroy());
    return 200;
  }

  const proxy = createHttpServer((_req, res) => res.writeHead(403).end('CONNECT only'));
  proxy.on('connection', (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  proxy.on('connect', (req: IncomingMessage, client: Duplex) => {
    const target = req.url ?? '';
    connects.push(target);
    client.on('error', () => client.destroy());
    if (target !== `${CODELOAD}:443`) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    const secure = new TLSSocket(client, {
      isServer: true,
      key: certificate.key,
      cert: certificate.cert,
    });
    secure.on('error', () => client.destroy());
    site.emit('connection', secure);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = proxy.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
