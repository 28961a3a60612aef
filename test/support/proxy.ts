/**
 * A real HTTP forward proxy on 127.0.0.1 for tests of HTTPS_PROXY / HTTP_PROXY support:
 * `CONNECT host:port` is tunnelled with node:net, an absolute-URI request
 * (`GET http://host:port/path`) is forwarded. Only loopback targets are served (403 otherwise),
 * so a test can never reach the network through it. Node built-ins only.
 */
import { createServer, request as forward } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface Proxy {
  /** e.g. http://127.0.0.1:34567 (no trailing slash). */
  readonly url: string;
  /** Every CONNECT target asked for (`host:port`), refused ones included, in order. */
  readonly connects: string[];
  /** Every absolute-URI request asked for (`GET http://host:port/path`), refused ones included. */
  readonly requests: string[];
  /** Stops the proxy and destroys every socket, tunnels included. */
  close(): Promise<void>;
}

/** Loopback only: a test must never reach the network through the proxy. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/** Headers that describe one hop, not the request (RFC 9110 §7.6.1), plus the proxy's own. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startProxy(): Promise<Proxy> {
  const connects: string[] = [];
  const requests: string[] = [];
  const sockets = new Set<Duplex>();
  let closing: Promise<void> | undefined;

  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const server = createServer((req, res) => forwardRequest(req, res));
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    tunnel(req, client, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const target = req.url ?? '';
    connects.push(target);
    client.on('error', () => client.destroy());
    const parsed = parseAuthority(target);
    if (!parsed) return void refuse(client, 400, 'Bad Request');
    if (!LOOPBACK.has(parsed.host)) return void refuse(client, 403, 'Forbidden');
    if (closing) return void client.destroy();

    let established = false;
    const upstream: Socket = connect(parsed.port, '127.0.0.1', () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => {
      if (established) client.destroy();
      else refuse(client, 502, 'Bad Gateway');
    });
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }

  function forwardRequest(req: IncomingMessage, res: ServerResponse): void {
    const target = req.url ?? '';
    const method = req.method ?? 'GET';
    let url: URL | undefined;
    try {
      url = target.startsWith('http://') ? new URL(target) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined) return void answer(res, 400, 'not an absolute http:// URI');
    requests.push(`${method} ${url.href}`);
    if (!LOOPBACK.has(url.hostname)) return void answer(res, 403, 'only loopback targets');

    const upstream = forward(
      {
        host: '127.0.0.1',
        port: Number(url.port || 80),
        method,
        path: `${url.pathname}${url.search}`,
        headers: endToEnd(req.headers),
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, endToEnd(reply.headers));
        reply.pipe(res);
        reply.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else answer(res, 502, 'the target did not answer');
    });
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  }

  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** `host:port` of a CONNECT request; undefined unless the port is 1..65535. */
function parseAuthority(target: string): { host: string; port: number } | undefined {
  const colon = target.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const host = target.slice(0, colon).toLowerCase();
  const portText = target.slice(colon + 1);
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65_535) return undefined;
  return { host, port };
}

function refuse(client: Duplex, status: number, reason: string): void {
  client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
  res.end(text);
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}
