/**
 * The deployments' own addresses, for the service emulator (`startEmulator({ addresses: true })`):
 * one small HTTP server on 127.0.0.1 that the emulator owns, routing by the first path segment
 * (`http://127.0.0.1:PORT/<name>` is a deployment's `custom_url`), with the agent server's health
 * route (`GET /ok` → 200 `{"ok": true}`, any query accepted) once the deployment is live, and
 * answers a test can script. A second listener, the "other origin", serves the same routes on
 * another port, for redirects that leave the origin. Test-only; Node built-ins only and erasable
 * TypeScript (it runs under Node 24 type stripping). Described in EMULATOR.md, "Addresses".
 */
import { createServer, STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flattenHeaders, lowerKeys } from './http-headers.ts';

/** One scripted answer of a deployment's address (`emu.scriptAddress`). */
export interface AddressAnswer {
  /** Only requests to this path under the address (`/ok`); default: any path. */
  path?: string;
  /** How many requests it answers (default 1; Infinity allowed). */
  times?: number;
  /** Answer this status (with `body`, `headers`). Without `status`, `redirect` or `hang`, the
   * request gets what it would have got unscripted, after `delayMs` and with `headers` added. */
  status?: number;
  /** A string is sent as it is (text/plain unless `headers` say otherwise), else as JSON.
   * Default: `{"ok":true}` for a 2xx, else `{"detail": <reason>}`. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait this long first; Infinity: never answer (as `hang`). `close()` ends the wait. */
  delayMs?: number;
  /** Accept the request and never answer it (until `close()`, or the client gives up). */
  hang?: boolean;
  /** Redirect: a path starting with `/` is under the deployment's address (`/ready` →
   * `/<name>/ready`, same origin); anything else (a full URL) is sent as it is. */
  redirect?: string;
  /** The redirect's status. Default 302. */
  redirectStatus?: number;
}

/** What a script function is told about the deployment when a request arrives. */
export interface AddressContext {
  /** READY with its latest revision active. */
  live: boolean;
  /** How long ago (emulator clock) the active revision went live; undefined when not live. */
  liveForMs: number | undefined;
  /** Requests that reached the address since the active revision went live, this one included. */
  liveRequests: number;
}

/** A list of answers, taken in order, or a function (undefined: the unscripted answer). */
export type AddressScript =
  | AddressAnswer[]
  | ((request: AddressRequest, context: AddressContext) => AddressAnswer | undefined);

/** A deployment's standing behaviour (`emu.serveAddress(idOrName, behaviour)`). */
export interface AddressBehaviour {
  /** 401 `{"detail":"Unauthorized"}` unless the request carries this header with this value. */
  requireHeader?: { name: string; value: string };
  /** 503 for this long (emulator clock) after each revision goes live: slow to start. */
  slowStartMs?: number;
  /** ...and for this many requests after it goes live. */
  slowStartRequests?: number;
  /** Every request hangs: accepted, never answered. */
  hang?: boolean;
  /** `GET /ok` on the main origin redirects here (see AddressAnswer.redirect); the target path,
   * when it is under the address, answers as `/ok` does. */
  redirect?: string;
  redirectStatus?: number;
  /** The body of a healthy `/ok`. Default `{"ok":true}`. */
  okBody?: unknown;
  /** The status while the deployment is not live (and while it starts). Default 503. */
  notLiveStatus?: number;
  /** Every answer but a redirect (401, 404, 503, the healthy `/ok`, a scripted one) has as its body
   * what the request carried: `{"query", "headers", "path"}`, every value as sent. */
  echo?: boolean;
}

/** A request that reached the address server, as `emu.addressRequests` records it. */
export interface AddressRequest {
  /** The deployment routed to; undefined for a path that is no deployment's (404). */
  deploymentId: string | undefined;
  name: string | undefined;
  /** `main` (the deployment's `custom_url`) or `other` (the other origin's listener). */
  origin: 'main' | 'other';
  method: string;
  /** The whole pathname, not decoded (`/agent/ok`). */
  path: string;
  /** The path under the deployment's address (`/ok`); the whole path when no deployment. */
  subpath: string;
  /** Decoded query parameters. */
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Date.now() when it arrived. */
  time: number;
  /** The status answered; undefined while hung, or when the socket was destroyed. */
  status?: number;
}

/** What the address server asks the emulator. */
export interface AddressHost {
  /** The deployment with this id, if it is still in the store. */
  find(id: string): { id: string; name: string } | undefined;
  /** Live now (READY, latest revision active), and since when on the emulator's clock. */
  liveness(id: string): { live: boolean; revisionId: string | null; since: number | undefined };
  now(): number;
  /** The behaviour of every address, under each deployment's own (`addressBehaviour`). */
  defaults(): AddressBehaviour;
}

export interface AddressServer {
  /** `http://127.0.0.1:PORT`, and the other origin's `http://127.0.0.1:OTHER_PORT`. */
  readonly origin: string;
  readonly otherOrigin: string;
  readonly requests: AddressRequest[];
  /** The deployment's address (its segment made once, unique), on the main or the other origin. */
  assign(id: string, name: string): string;
  /** The address already assigned to the deployment, if any. */
  addressOf(id: string, otherOrigin?: boolean): string | undefined;
  setBehaviour(id: string, behaviour: AddressBehaviour): void;
  setScript(id: string, script: AddressScript): void;
  close(): Promise<void>;
}

interface Served {
  id: string;
  segment: string;
  behaviour: AddressBehaviour;
  queue: { answer: AddressAnswer; remaining: number }[];
  fn?: (request: AddressRequest, context: AddressContext) => AddressAnswer | undefined;
  /** The active revision the counter below is for. */
  liveRevision: string | null;
  liveRequests: number;
}

interface Reply {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

interface Waiting {
  timer?: ReturnType<typeof setTimeout>;
  wake: () => void;
}

const MAX_TIMER_MS = 2_147_483_647;

export async function startAddressServer(host: AddressHost): Promise<AddressServer> {
  const requests: AddressRequest[] = [];
  const bySegment = new Map<string, Served>();
  const byId = new Map<string, Served>();
  const timers = new Set<Waiting>();
  let closing: Promise<void> | undefined;

  const main = await listen((req, res) => void handle(req, res, 'main'));
  const other = await listen((req, res) => void handle(req, res, 'other'));
  const origin = `http://127.0.0.1:${(main.address() as AddressInfo).port}`;
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;

  /** Waits `ms` (Infinity: until close()). close() ends every wait. */
  function sleep(ms: number): Promise<void> {
    if (!(ms > 0) || closing) return Promise.resolve();
    return new Promise((resolve) => {
      const entry: Waiting = { wake: resolve };
      if (ms !== Infinity) {
        entry.timer = setTimeout(
          () => {
            timers.delete(entry);
            resolve();
          },
          Math.min(ms, MAX_TIMER_MS),
        );
        entry.timer.unref();
      }
      timers.add(entry);
    });
  }

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    from: 'main' | 'other',
  ): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://address');
      const [, first = '', ...rest] = url.pathname.split('/');
      const served = bySegment.get(first);
      const deployment = served && host.find(served.id);
      const record: AddressRequest = {
        deploymentId: deployment?.id,
        name: deployment?.name,
        origin: from,
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        subpath: deployment ? `/${rest.join('/')}` : url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: flattenHeaders(req),
        time: Date.now(),
      };
      requests.push(record);
      req.resume(); // a body, if any, is not read
      const reply = served && deployment ? await answer(served, record) : reply404();
      if (reply === undefined || closing) return void res.destroy();
      record.status = reply.status;
      send(res, reply);
    } catch {
      res.destroy(); // the client went away, or the server is closing
    }
  }

  /** One request to a deployment's address: undefined means hang (never answered). */
  async function answer(served: Served, record: AddressRequest): Promise<Reply | undefined> {
    const behaviour = { ...host.defaults(), ...served.behaviour };
    const reply = await answerAsBehaved(served, record, behaviour);
    if (
      reply === undefined ||
      behaviour.echo !== true ||
      (reply.status >= 300 && reply.status < 400)
    ) {
      return reply;
    }
    const { query, headers, path } = record;
    return {
      ...reply,
      body: { query, headers, path },
      headers: { ...reply.headers, 'content-type': 'application/json' },
    };
  }

  /** The answer the behaviour and the scripts give, before `echo`. */
  async function answerAsBehaved(
    served: Served,
    record: AddressRequest,
    behaviour: AddressBehaviour,
  ): Promise<Reply | undefined> {
    const required = behaviour.requireHeader;
    if (required && record.headers[required.name.toLowerCase()] !== required.value) {
      return textReply(401, { detail: 'Unauthorized' });
    }
    const context = contextOf(served);
    const scripted = takeScripted(served, record, context);
    if (scripted) {
      await sleep(scripted.hang ? Infinity : (scripted.delayMs ?? 0));
      if (closing || scripted.hang) return undefined;
      if (scripted.redirect !== undefined) {
        return redirectReply(served, scripted.redirect, scripted.redirectStatus, scripted.headers);
      }
      if (scripted.status !== undefined) {
        return textReply(scripted.status, scripted.body, scripted.headers);
      }
      const reply = await unscriptedOrHang(served, record, behaviour, context);
      if (reply) reply.headers = { ...reply.headers, ...lowerKeys(scripted.headers ?? {}) };
      return reply;
    }
    return unscriptedOrHang(served, record, behaviour, context);
  }

  /** The unscripted answer; a hang waits until close() and answers nothing. */
  async function unscriptedOrHang(
    served: Served,
    record: AddressRequest,
    behaviour: AddressBehaviour,
    context: AddressContext,
  ): Promise<Reply | undefined> {
    const reply = unscripted(served, record, behaviour, context);
    if (reply === undefined) await sleep(Infinity);
    return reply;
  }

  /** What the address answers when no script does: hang, redirect, not live, starting, or /ok. */
  function unscripted(
    served: Served,
    record: AddressRequest,
    behaviour: AddressBehaviour,
    context: AddressContext,
  ): Reply | undefined {
    if (behaviour.hang) return undefined;
    if (behaviour.redirect !== undefined && record.origin === 'main' && record.subpath === '/ok') {
      return redirectReply(served, behaviour.redirect, behaviour.redirectStatus);
    }
    const health =
      record.subpath === '/ok' ||
      (behaviour.redirect?.startsWith('/') === true && record.subpath === behaviour.redirect);
    if (!health) return textReply(404, { detail: 'Not Found' });
    if (record.method !== 'GET' && record.method !== 'HEAD') {
      return { ...textReply(405, { detail: 'Method Not Allowed' }), headers: { allow: 'GET' } };
    }
    const notLive = behaviour.notLiveStatus ?? 503;
    if (!context.live) return textReply(notLive, { detail: 'the deployment has no live revision' });
    const starting =
      (context.liveForMs ?? 0) < (behaviour.slowStartMs ?? 0) ||
      context.liveRequests <= (behaviour.slowStartRequests ?? 0);
    if (starting) return textReply(notLive, { detail: 'the agent is starting' });
    return textReply(200, behaviour.okBody ?? { ok: true });
  }

  /** The live state, counting this request when live (the counter restarts with each revision). */
  function contextOf(served: Served): AddressContext {
    const state = host.liveness(served.id);
    if (!state.live) return { live: false, liveForMs: undefined, liveRequests: 0 };
    if (served.liveRevision !== state.revisionId) {
      served.liveRevision = state.revisionId;
      served.liveRequests = 0;
    }
    served.liveRequests += 1;
    const since = state.since ?? host.now();
    return { live: true, liveForMs: host.now() - since, liveRequests: served.liveRequests };
  }

  function takeScripted(
    served: Served,
    record: AddressRequest,
    context: AddressContext,
  ): AddressAnswer | undefined {
    if (served.fn) return served.fn(record, context);
    const index = served.queue.findIndex(
      ({ answer }) => answer.path === undefined || answer.path === record.subpath,
    );
    const queued = served.queue[index];
    if (!queued) return undefined;
    queued.remaining -= 1;
    if (queued.remaining <= 0) served.queue.splice(index, 1);
    return queued.answer;
  }

  function redirectReply(
    served: Served,
    to: string,
    status = 302,
    headers: Record<string, string> = {},
  ): Reply {
    const location = to.startsWith('/') ? `/${served.segment}${to}` : to;
    return { status, body: { detail: 'Found' }, headers: { ...lowerKeys(headers), location } };
  }

  function reply404(): Reply {
    return textReply(404, { detail: 'Not Found' });
  }

  function servedOf(id: string): Served {
    const served = byId.get(id.toLowerCase());
    if (!served) throw new Error(`the deployment ${id} has no address`);
    return served;
  }

  return {
    origin,
    otherOrigin,
    requests,
    assign(id, name) {
      const key = id.toLowerCase();
      let served = byId.get(key);
      if (!served) {
        const base = encodeURIComponent(name) || 'deployment';
        let segment = base;
        for (let n = 2; bySegment.has(segment); n++) segment = `${base}-${n}`;
        served = { id, segment, behaviour: {}, queue: [], liveRevision: null, liveRequests: 0 };
        byId.set(key, served);
        bySegment.set(segment, served);
      }
      return `${origin}/${served.segment}`;
    },
    addressOf(id, otherOrigin_ = false) {
      const served = byId.get(id.toLowerCase());
      return served && `${otherOrigin_ ? otherOrigin : origin}/${served.segment}`;
    },
    setBehaviour(id, behaviour) {
      servedOf(id).behaviour = { ...behaviour };
    },
    setScript(id, script) {
      const served = servedOf(id);
      if (typeof script === 'function') {
        served.fn = script;
        served.queue = [];
        return;
      }
      served.fn = undefined;
      served.queue = script
        .map((answer) => ({ answer, remaining: answer.times ?? 1 }))
        .filter(({ remaining }) => remaining > 0);
    },
    close() {
      closing ??= (async () => {
        for (const entry of timers) {
          if (entry.timer) clearTimeout(entry.timer);
          entry.wake();
        }
        timers.clear();
        await Promise.all([stop(main), stop(other)]);
      })();
      return closing;
    },
  };
}

async function listen(onRequest: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A string body is sent as it is (text/plain unless set), anything else as JSON. */
function textReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  const lowered = lowerKeys(headers);
  if (body === undefined) {
    body =
      status >= 200 && status < 300 ? { ok: true } : { detail: STATUS_CODES[status] ?? 'Error' };
  }
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  return { status, body, headers: { 'content-type': type, ...lowered } };
}

function send(res: ServerResponse, reply: Reply): void {
  const bodyless = reply.status === 204 || reply.status === 304 || reply.status < 200;
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const body = Buffer.from(bodyless ? '' : text);
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  res.end(body);
}
