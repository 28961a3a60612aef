/**
 * In-memory emulator of the deployment management service (docs/how-it-works.md, "The service's interface"): a real HTTP
 * server on 127.0.0.1 with fault injection, status and revision evolution and pagination quirks.
 * Test-only. Uses Node built-ins only and erasable TypeScript, so it also runs directly under
 * Node 24 type stripping. Options and fault hooks are described in test/EMULATOR.md.
 */
import { createServer, STATUS_CODES } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { flattenHeaders, lowerKeys } from './http-headers.ts';
import { startAddressServer } from './addresses.ts';
import type {
  AddressBehaviour,
  AddressRequest,
  AddressScript,
  AddressServer,
} from './addresses.ts';

export type {
  AddressAnswer,
  AddressBehaviour,
  AddressContext,
  AddressRequest,
  AddressScript,
} from './addresses.ts';

export const SOURCES = [
  'codehost',
  'external_docker',
  'internal_docker',
  'internal_source',
  'internal_template',
] as const;
export type Source = (typeof SOURCES)[number];

/**
 * `source_config.deployment_type` as the service's OpenAPI document first listed it. A create
 * takes any string (the service added `serverless` and `dedicated`), stored and returned as sent.
 */
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

/** Tenant id given to every deployment unless `tenantId` is set. */
export const DEFAULT_TENANT_ID = '7e4a1c2b-5d3f-4a6e-9b8c-0d1e2f3a4b5c';

export interface Repository {
  host_integration_id: string;
  id: number;
  name: string;
  owner: string;
  url: string;
  default_branch: string;
}

export interface Secret {
  name: string;
  value: string;
}

export interface SecretReference {
  name: string;
  secret_name: string;
  secret_key: string;
}

export interface Deployment {
  name: string;
  source: Source;
  source_config: Record<string, unknown>;
  source_revision_config: Record<string, unknown>;
  secrets: Secret[];
  secret_references: SecretReference[] | null;
  id: string;
  tenant_id: string;
  created_at: string;
  updated_at: string;
  /** AWAITING_DATABASE | READY | UNUSED | AWAITING_DELETE | UNKNOWN, or anything a test sets. */
  status: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  image_version: string | null;
}

/**
 * What a seed may carry beyond the deployment's own fields: the ids of the tag values attached to
 * it, which the listing's `tag_value_ids` filters by. Kept in the emulator's state, not in the
 * deployment's fields (a Deployment has no tags in the interface).
 */
export interface SeedDeployment extends Partial<Deployment> {
  tagValueIds?: string[];
}

/** One entry of a FastAPI-style 422 body: {"detail": ValidationIssue[]}. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** building: queued, not live yet; live: went live (the newest live one is active); failed: its
 * build failed, it never goes live; skipped: a newer commit was queued before it was built. */
export type RevisionState = 'building' | 'live' | 'failed' | 'skipped';

/** One revision of a deployment, as `emu.revisions(id)` returns it (a copy). */
export interface Revision {
  id: string;
  /** The commit it builds; null for sources other than codehost. */
  commitSha: string | null;
  repoRef: string | null;
  state: RevisionState;
  /** The emulator's clock (`now`, default Date.now()) when it was queued. */
  queuedAt: number;
  /** Polls (lists filtered by deployment_ids) that saw it building while the deployment was READY. */
  polls: number;
}

export type PaginationQuirk =
  | 'normal'
  | 'offset-stuck'
  | 'offset-backwards'
  | 'offset-negative'
  | 'offset-ignored'
  | 'never-ending'
  | 'oversized';

export interface EmulatorOptions {
  /** When set, requests without this exact value in `apiKeyHeader` get 401. */
  apiKey?: string;
  /** Default "x-api-key". */
  apiKeyHeader?: string;
  /** Header name → exact value; a missing or different value gets 403. */
  requiredHeaders?: Record<string, string>;
  /** tenant_id of every deployment. Default DEFAULT_TENANT_ID. */
  tenantId?: string;
  /** A create with an existing name gets 409. Default true. */
  uniqueNames?: boolean;
  /** Status of a created deployment. Default "AWAITING_DATABASE". */
  initialStatus?: string;
  /** Turn READY (or `finalStatus`) after this many list requests filtered by deployment_ids returned it. */
  readyAfterPolls?: number;
  /** Turn READY (or `finalStatus`) this many ms after the deployment was stored. */
  readyAfterMs?: number;
  /** What a deployment turns into instead of READY. Needs readyAfterPolls or readyAfterMs. */
  finalStatus?: string;
  /** Added before every answer. */
  latencyMs?: number;
  /** Wait between validating a create and committing it (uniqueness is checked at commit). */
  createDelayMs?: number;
  /**
   * Hold each validated create until this many are held, then let them all go on together
   * (once): parallel runs all reach their POST before any is stored, however busy the machine.
   */
  holdCreates?: number;
  /** How GET /v2/deployments pages. Default "normal". */
  pagination?: PaginationQuirk;
  /** Port on 127.0.0.1, read by startEmulator only. Default 0 (ephemeral). */
  port?: number;
  /**
   * Serve over TLS (node:https) with this PEM key and certificate; `url` is then https://. Read by
   * startEmulator only. Default: plain HTTP. See test/support/tls.ts for a throwaway certificate.
   */
  tls?: { key: string; cert: string };
  /** A building revision goes live after this many polls saw it building while READY. Default 0. */
  buildPolls?: number;
  /** ...and at least this many ms after it was queued or the deployment turned READY. Default 0. */
  buildMs?: number;
  /** Every build fails when it completes: the revision never goes live. */
  failBuilds?: boolean;
  /** A created deployment is left out of this many listing reads that would have matched it. */
  listingLagReads?: number;
  /** A created deployment is left out of listings until this many ms after it was stored. */
  listingLagMs?: number;
  /** "lowercase": a created deployment's name is stored lower-cased; 409 compares that. */
  normalizeNames?: 'lowercase';
  /**
   * A create of a codehost deployment on a branch whose head nobody set (`setHead`, `push`):
   * `made-up` (the default) builds a made-up commit; `refuse` answers 422 saying to push one,
   * as the emulator's command does: a made-up commit is another commit than the target, so a
   * run that targets one waits for it and fails.
   */
  unknownHead?: 'made-up' | 'refuse';
  /** The clock for readyAfterMs, buildMs, listingLagMs, queuedAt, created_at and updated_at. */
  now?: () => number;
  /**
   * Serve the deployments' own addresses (EMULATOR.md, "Addresses"); read by startEmulator only.
   * `true`: every deployment stored (created or seeded) without a `custom_url` gets one,
   * `http://127.0.0.1:PORT/<name>`; a function: those it says yes to; `manual`: only those
   * `serveAddress` names.
   */
  addresses?: boolean | 'manual' | ((deployment: Deployment) => boolean);
  /** The behaviour of every address, under each deployment's own (`serveAddress`). */
  addressBehaviour?: AddressBehaviour;
}

/**
 * A fault is taken by the first request that matches `method` and `path` (both optional) and
 * lasts `times` requests (default 1, Infinity allowed). See EMULATOR.md.
 */
export interface Fault {
  method?: string;
  /** Exact pathname, or a RegExp tested against the pathname. */
  path?: string | RegExp;
  /** Query parameters the request must carry, each with exactly this (decoded) value, or one the RegExp matches. */
  query?: Record<string, string | RegExp>;
  times?: number;
  /** Answer with this status (and `body`, `headers`) instead of running the real handler. */
  status?: number;
  /** With `status`: a string is sent as-is (text/plain), anything else as JSON. Default {"detail": reason}. */
  body?: unknown;
  /** With `status`: the answer's headers. Without `status`: added to the real answer. */
  headers?: Record<string, string>;
  /** Destroy the socket without answering: before handling, or after the real handler ran. */
  drop?: 'before' | 'after';
  /** Wait this long before handling. close() ends the wait. */
  delayMs?: number;
  /** Run the real handler, then send transform(copy of its body) as JSON. */
  bodyTransform?: (body: unknown) => unknown;
  /** Run the real handler, then send this text instead of its body (content-type stays JSON). */
  rawBody?: string;
  /** Send only the first N bytes of the answer's text (content-length N): a cut answer. */
  truncateAt?: number;
  /** Answer `status` (default 200) with a JSON body that never ends, until the client goes away,
   * close() is called or `endlessMaxBytes` (default 4 GiB) were sent; then destroy the socket. */
  endless?: boolean;
  endlessMaxBytes?: number;
}

export interface RecordedRequest {
  method: string;
  /** URL pathname, not decoded. */
  path: string;
  /** Decoded query parameters (the last value wins for a repeated name). */
  query: Record<string, string>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON if it parsed, else the raw text; undefined when there was no body. */
  body: unknown;
  /** Date.now() when the request arrived. */
  time: number;
  /** performance.now() when the request arrived, and when its answer was handed to the socket. */
  arrivedAt: number;
  answeredAt?: number;
  /** Body bytes written to the socket, once the answer has been sent (or an endless one ended). */
  bytesSent?: number;
}

export interface Emulator {
  /** e.g. http://127.0.0.1:34567 (no trailing slash); https://127.0.0.1:34567 with `tls`. */
  readonly url: string;
  /** Every request in arrival order, including ones answered by faults or dropped. */
  readonly requests: RecordedRequest[];
  /** The live store, in creation order. Tests may read and mutate it. */
  readonly deployments: Deployment[];
  /** Integration id (lower-case) → its repositories. Unknown integrations answer 404. */
  readonly repos: Map<string, Repository[]>;
  /** Registers an integration and its repositories, filling defaults. */
  seedRepos(integrationId: string, repos?: Partial<Repository>[]): Repository[];
  /** Stores a deployment, filling defaults (status READY unless given). Not checked for unique names. */
  seedDeployment(partial?: SeedDeployment): Deployment;
  seedDeployments(count: number, make?: (i: number) => SeedDeployment): Deployment[];
  /** Attaches exactly these tag values to the deployment (replacing any). Throws for an unknown id. */
  setTags(deploymentId: string, tagValueIds: string[]): void;
  /** The deployment's revisions (copies), oldest first; [] for an unknown id. */
  revisions(deploymentId: string): Revision[];
  /** The commit a create of a codehost deployment for this repository and ref starts from. */
  setHead(repoUrl: string, ref: string, sha: string): void;
  /**
   * A push of `sha` to `ref`: a new revision on every codehost deployment of that repository
   * tracking that ref with build_on_push true. Returns their ids.
   */
  push(repoUrl: string, ref: string, sha: string, options?: { fail?: boolean }): string[];
  /** Queues faults, in order. */
  inject(...faults: Fault[]): void;
  clearFaults(): void;
  /** Merges options; a key set to undefined returns to its default. */
  setOptions(options: EmulatorOptions): void;
  /** Every request to the deployments' addresses, in arrival order; [] without `addresses`. */
  readonly addressRequests: AddressRequest[];
  /**
   * Gives the deployment (id or name) an address when it has no `custom_url` (a `custom_url` it
   * has is kept, served or not), sets its behaviour (replacing the one set before; `{}` by
   * default) and returns its address. Throws without `addresses`, or for an unknown deployment.
   */
  serveAddress(idOrName: string, behaviour?: AddressBehaviour): string;
  /** Scripts the answers of the deployment's address (replacing any script); see AddressScript. */
  scriptAddress(idOrName: string, script: AddressScript): void;
  /** The deployment's address on the emulator's server, or on its other origin. Throws if none. */
  addressOf(idOrName: string, options?: { otherOrigin?: boolean }): string;
  /** Stops the server (and the addresses'), ends hung requests and destroys keep-alive sockets. */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Sent instead of JSON.stringify(body). */
  raw?: string;
  /** Only this many bytes of the text are sent. */
  truncateAt?: number;
}

interface RevisionRecord extends Revision {
  /** Its build fails when it completes. */
  fail: boolean;
  /** When it went live (the emulator's clock), for the addresses' slow start. */
  liveAt?: number;
}

interface Meta {
  storedMs: number;
  polls: number;
  settled: boolean;
  /** Oldest first; the last is the latest revision. Only the last can be building. */
  revisions: RevisionRecord[];
  /** When the deployment was last seen turning (or being) READY; undefined while not READY. */
  readySince: number | undefined;
  /** Created by POST and not listed yet (listingLagReads / listingLagMs). */
  lagging: boolean;
  lagMisses: number;
  /** Lower-cased ids of the tag values attached to it (seed `tagValueIds`, `setTags`). */
  tagValueIds: Set<string>;
}

interface QueuedFault {
  fault: Fault;
  remaining: number;
}

interface Sleeper {
  timer: ReturnType<typeof setTimeout>;
  wake: () => void;
}

type Page = { resources: Deployment[]; offset: number };

/**
 * The filters of GET /v2/deployments, parsed once per request; an absent one is undefined. A
 * deployment is listed when it passes every filter given (AND).
 */
interface ListFilters {
  /** name_contains: a substring of `name`, case-sensitive. */
  nameContains?: string;
  /** status: equal to `status`. */
  status?: string;
  /** remote_reconciled: whether `source_config.listener_id` is set (see isRemoteReconciled). */
  remoteReconciled?: boolean;
  /** tag_value_ids: lower-cased; the deployment carries every one of them. */
  tagValueIds?: string[];
  /** image_version: equal to `image_version`. */
  imageVersion?: string;
  /** deployment_type: equal to `source_config.deployment_type`, any string. */
  deploymentType?: string;
  /** deployment_ids: lower-cased; the deployment's id is one of them. */
  ids?: Set<string>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REPOS_RE = /^\/v1\/integrations\/forge\/codehost\/([^/]+)\/repos$/;
const MAX_TIMER_MS = 2_147_483_647;
const OBJECT_MSG = 'Input should be a valid dictionary or object to extract fields from';
/** The hard cap of an `endless` answer, so a test that never aborts still ends. */
const ENDLESS_MAX_BYTES = 4 * 2 ** 30;

export async function startEmulator(initialOptions: EmulatorOptions = {}): Promise<Emulator> {
  let options: EmulatorOptions = { ...initialOptions };
  const requests: RecordedRequest[] = [];
  const deployments: Deployment[] = [];
  const repos = new Map<string, Repository[]>();
  // The emulator's own state of a deployment rides on it under a hidden (non-enumerable) key: a
  // listing reads it for every deployment it scans, and a property is cheaper than a WeakMap.
  const META = Symbol('emulator state');
  /** repoKey(url, ref) → the commit a create starts from (setHead, push). */
  const heads = new Map<string, string>();
  const sleepers = new Set<Sleeper>();
  let faults: QueuedFault[] = [];
  let closing: Promise<void> | undefined;
  /** Creates held by `holdCreates`, and whether they were let go (it holds once). */
  const held: (() => void)[] = [];
  let heldReleased = false;
  let seededCount = 0;
  let nextRepoId = 1000;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(req, res);
  };
  const tls = initialOptions.tls;
  const server =
    tls === undefined
      ? createServer(onRequest)
      : createTlsServer({ key: tls.key, cert: tls.cert }, onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(initialOptions.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const addressServer: AddressServer | undefined = initialOptions.addresses
    ? await startAddressServer({
        find: (id) => byId(id),
        liveness,
        now,
        defaults: () => options.addressBehaviour ?? {},
      })
    : undefined;

  // ---- plumbing -------------------------------------------------------------------------------

  function now(): number {
    return (options.now ?? Date.now)();
  }

  function sleep(ms: number | undefined): Promise<void> {
    if (ms === undefined || !(ms > 0) || closing) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        timer: setTimeout(
          () => {
            sleepers.delete(sleeper);
            resolve();
          },
          Math.min(ms, MAX_TIMER_MS),
        ),
        wake: resolve,
      };
      sleeper.timer.unref();
      sleepers.add(sleeper);
    });
  }

  /** Holds a create until `holdCreates` are held (see EmulatorOptions.holdCreates). */
  function holdCreate(): Promise<void> {
    const wanted = options.holdCreates ?? 0;
    if (wanted <= 1 || heldReleased || closing) return Promise.resolve();
    return new Promise((resolve) => {
      held.push(resolve);
      if (held.length < wanted) return;
      heldReleased = true;
      for (const release of held.splice(0)) release();
    });
  }

  function takeFault(
    method: string,
    path: string,
    query: Record<string, string>,
  ): Fault | undefined {
    const index = faults.findIndex((q) => faultMatches(q.fault, method, path, query));
    const queued = faults[index];
    if (!queued) return undefined;
    queued.remaining -= 1;
    if (queued.remaining <= 0) faults.splice(index, 1);
    return queued.fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const target = req.url ?? '/';
      const url = new URL(
        target.startsWith('/') ? `http://emulator${target}` : target,
        'http://emulator',
      );
      const record: RecordedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: flattenHeaders(req),
        body: undefined,
        time: Date.now(),
        arrivedAt: performance.now(),
      };
      requests.push(record);
      const raw = await readBody(req);
      record.body = parseLoosely(raw);

      const fault = takeFault(record.method, record.path, record.query);
      await sleep(fault?.delayMs);
      if (closing || fault?.drop === 'before') return void res.destroy();
      if (fault?.endless) return await streamEndless(res, record, fault);

      let answer: Answer;
      if (fault?.status !== undefined) {
        answer = cannedAnswer(fault.status, fault.body, fault.headers);
      } else {
        try {
          answer = await route(record, raw, url.searchParams);
          if (fault?.bodyTransform) {
            answer.body = fault.bodyTransform(structuredClone(answer.body));
          }
        } catch (error) {
          answer = json(500, { detail: `emulator error: ${String(error)}` });
        }
        if (fault?.headers) answer.headers = { ...answer.headers, ...lowerKeys(fault.headers) };
        if (fault?.rawBody !== undefined) answer.raw = fault.rawBody;
      }
      if (fault?.truncateAt !== undefined) answer.truncateAt = fault.truncateAt;
      if (closing || fault?.drop === 'after') return void res.destroy();

      await sleep(options.latencyMs);
      if (closing) return void res.destroy();
      record.bytesSent = send(res, answer);
      record.answeredAt = performance.now();
    } catch {
      res.destroy(); // the client went away, or the emulator is closing
    }
  }

  /**
   * `{"resources":[` and then deployments, comma after comma, for as long as the client reads.
   * Writes wait for 'drain', so an aborted or slow client costs no memory; the cap is a safety net.
   */
  async function streamEndless(
    res: ServerResponse,
    record: RecordedRequest,
    fault: Fault,
  ): Promise<void> {
    const cap = Math.max(0, fault.endlessMaxBytes ?? ENDLESS_MAX_BYTES);
    const item = JSON.stringify(filler(0));
    const chunk = Buffer.from(`,${item}`.repeat(Math.ceil(65_536 / (item.length + 1))));
    let gone = false;
    res.on('close', () => (gone = true));
    res.on('error', () => (gone = true));
    res.writeHead(fault.status ?? 200, {
      'content-type': 'application/json',
      ...lowerKeys(fault.headers ?? {}),
    });
    let next = Buffer.from(`{"resources":[${item}`);
    let sent = 0;
    while (!gone && !closing && sent < cap) {
      const piece = next.subarray(0, cap - sent);
      sent += piece.length;
      if (res.write(piece)) await new Promise((resolve) => setImmediate(resolve));
      else await drained(res);
      next = chunk;
    }
    record.bytesSent = sent;
    record.answeredAt = performance.now();
    res.destroy(); // never a clean end: the body is not JSON, whatever stopped it
  }

  function route(
    record: RecordedRequest,
    raw: string,
    query: URLSearchParams,
  ): Answer | Promise<Answer> {
    const { method, path } = record;
    // The emulator's own control, for a person trying the product by hand: no key, not the service's.
    if (path === PUSH_PATH) return method === 'POST' ? controlPush(raw) : notAllowed('POST');
    const denied = checkAccess(record.headers);
    if (denied) return denied;
    const repoMatch = REPOS_RE.exec(path);
    if (repoMatch) {
      return method === 'GET' ? listRepos(repoMatch[1] ?? '') : notAllowed('GET');
    }
    if (path === '/v2/deployments') {
      if (method === 'GET') return listDeployments(query);
      if (method === 'POST') return createDeployment(raw, record.headers['content-type']);
      return notAllowed('GET, POST');
    }
    return json(404, { detail: 'Not Found' });
  }

  /**
   * `POST /_emulator/push {repo_url, ref, sha, fail?}`: `emu.push` over HTTP, so that a person
   * running the emulator as a process can push a commit while it runs. 200 with the deployments
   * that got a revision for it; 422 naming the field for a bad body.
   */
  function controlPush(raw: string): Answer {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return json(422, { detail: 'the body must be JSON: {"repo_url", "ref", "sha"}' });
    }
    const given = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    const { repo_url: repoUrl, ref, sha, fail } = given;
    const problems = [
      typeof repoUrl === 'string' && repoUrl !== '' ? '' : 'repo_url must be the repository URL',
      typeof ref === 'string' && ref !== '' ? '' : 'ref must be a branch name',
      typeof sha === 'string' && /^[0-9a-f]{40}$/i.test(sha)
        ? ''
        : 'sha must be a full 40-hex commit sha',
      fail === undefined || typeof fail === 'boolean' ? '' : 'fail must be true or false',
    ].filter((problem) => problem !== '');
    if (problems.length > 0) return json(422, { detail: problems.join('; ') });
    const rebuilt = push(
      repoUrl as string,
      ref as string,
      (sha as string).toLowerCase(),
      fail === true,
    );
    return json(200, { repo_url: repoUrl, ref, sha: (sha as string).toLowerCase(), rebuilt });
  }

  function checkAccess(headers: Record<string, string>): Answer | undefined {
    const { apiKey, apiKeyHeader = 'x-api-key', requiredHeaders = {} } = options;
    if (apiKey !== undefined && headers[apiKeyHeader.toLowerCase()] !== apiKey) {
      return json(401, { detail: 'Invalid API key' });
    }
    for (const [name, value] of Object.entries(requiredHeaders)) {
      if (headers[name.toLowerCase()] !== value) {
        return json(403, { detail: `Forbidden: header ${name} is missing or not allowed` });
      }
    }
    return undefined;
  }

  // ---- endpoints ------------------------------------------------------------------------------

  function listRepos(rawId: string): Answer {
    const id = safeDecode(rawId);
    if (!UUID_RE.test(id)) {
      return unprocessable([
        {
          type: 'uuid_parsing',
          loc: ['path', 'integration_id'],
          msg: 'Input should be a valid UUID',
          input: id,
        },
      ]);
    }
    const list = repos.get(id.toLowerCase()) ?? repos.get(id);
    return list ? json(200, list) : json(404, { detail: 'Integration not found' });
  }

  function listDeployments(query: URLSearchParams): Answer {
    const issues: ValidationIssue[] = [];
    const limit = intParam(query, 'limit', 20, 1, 100, issues);
    const offset = intParam(query, 'offset', 0, 0, undefined, issues);
    const filters = listFilters(query, issues);
    if (issues.length > 0) return unprocessable(issues);
    const { ids } = filters;
    const time = now();
    const matches = (d: Deployment): boolean => {
      if (ids !== undefined && !ids.has(d.id.toLowerCase())) return false;
      const m = metaOf(d, time);
      if (m.lagging && stillLagging(m, time)) {
        // The service's listing lags its writes: left out, and not seen (no poll, no evolution).
        if (passes(d, m.tagValueIds, filters)) m.lagMisses += 1;
        return false;
      }
      evolve(d, m, ids !== undefined, time);
      return passes(d, m.tagValueIds, filters);
    };
    return json(200, paginate(options.pagination ?? 'normal', matches, offset, limit));
  }

  /** All pagination quirks live here. */
  function paginate(
    quirk: PaginationQuirk,
    matches: (d: Deployment) => boolean,
    offset: number,
    limit: number,
  ): Page {
    if (quirk === 'never-ending') {
      const resources = Array.from({ length: limit }, (_, i) => filler(offset + i));
      return { resources, offset: offset + limit };
    }
    if (quirk === 'offset-ignored') {
      // Every page is the first one, while the offset it returns advances as if it were not.
      const first = collect(matches, 0, limit);
      return { resources: first, offset: offset + first.length };
    }
    const page = collect(matches, offset, quirk === 'oversized' ? limit * 2 : limit);
    switch (quirk) {
      case 'offset-stuck':
        return { resources: page, offset };
      case 'offset-backwards':
        return { resources: page, offset: Math.max(offset - 1, 0) };
      case 'offset-negative':
        return { resources: page, offset: -5 };
      default:
        return { resources: page, offset: offset + page.length };
    }
  }

  /** Skips `skip` matches, then takes up to `take`; stops scanning as soon as the page is full. */
  function collect(matches: (d: Deployment) => boolean, skip: number, take: number): Deployment[] {
    const page: Deployment[] = [];
    let seen = 0;
    for (const d of deployments) {
      if (page.length >= take) break;
      if (matches(d) && seen++ >= skip) page.push(d);
    }
    return page;
  }

  function filler(index: number): Deployment {
    return makeDeployment(
      {
        name: `never-ending-filler-${index}`,
        id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      },
      'READY',
    );
  }

  async function createDeployment(raw: string, contentType: string | undefined): Promise<Answer> {
    const parsed = parseJsonBody(raw, contentType);
    if (!parsed.ok) return unprocessable(parsed.issues);
    const issues = validateCreate(parsed.value);
    if (issues.length > 0) return unprocessable(issues);
    const request = parsed.value as CreateRequest;

    await sleep(options.createDelayMs);
    await holdCreate();
    const storedName = normalizeName(request.name);
    if (
      (options.uniqueNames ?? true) &&
      deployments.some((d) => normalizeName(d.name) === storedName)
    ) {
      return json(409, { detail: `A deployment named ${storedName} already exists` });
    }
    const time = now();
    const repoRef = stringOrNull(request.source_revision_config.repo_ref);
    const head =
      request.source === 'codehost'
        ? heads.get(repoKey(request.source_config.repo_url, repoRef))
        : undefined;
    if (request.source === 'codehost' && head === undefined && options.unknownHead === 'refuse') {
      return json(422, {
        detail: `the emulator knows no head commit of ${String(request.source_config.repo_url)} ${repoRef ?? '(no ref)'}: push one first (npm run emulator -- push --ref ${repoRef ?? 'main'} --sha SHA), or start it with --head-sha`,
      });
    }
    const commit = request.source === 'codehost' ? (head ?? fakeSha()) : null;
    const first = newRevision(commit, repoRef, time);
    const deployment = makeDeployment(
      {
        name: storedName,
        source: request.source,
        source_config: request.source_config,
        source_revision_config: { ...request.source_revision_config, repo_commit_sha: commit },
        secrets: request.secrets.map(({ name, value }) => ({ name, value })),
        secret_references: request.secret_references ?? null,
        latest_revision_id: first.id,
        active_revision_id: null,
      },
      options.initialStatus ?? 'AWAITING_DATABASE',
    );
    const m = store(deployment, [first], true, time);
    build(deployment, m, false, time); // created READY (initialStatus): live at once by default
    return json(201, deployment);
  }

  function normalizeName(name: string): string {
    return options.normalizeNames === 'lowercase' ? name.toLowerCase() : name;
  }

  // ---- store and status evolution -------------------------------------------------------------

  function makeDeployment(partial: Partial<Deployment>, defaultStatus: string): Deployment {
    const stamp = isoTime(now());
    const source = partial.source ?? 'codehost';
    const status = partial.status ?? defaultStatus;
    const latest =
      partial.latest_revision_id === undefined ? randomUUID() : partial.latest_revision_id;
    const revisionConfig = { ...(partial.source_revision_config ?? { repo_ref: 'main' }) };
    if (revisionConfig.repo_commit_sha === undefined) {
      revisionConfig.repo_commit_sha = source === 'codehost' ? fakeSha() : null;
    }
    return {
      name: partial.name ?? `deployment-${++seededCount}`,
      source,
      source_config: partial.source_config ?? {},
      source_revision_config: revisionConfig,
      secrets: partial.secrets ?? [],
      secret_references: partial.secret_references ?? null,
      id: partial.id ?? randomUUID(),
      tenant_id: partial.tenant_id ?? options.tenantId ?? DEFAULT_TENANT_ID,
      created_at: partial.created_at ?? stamp,
      updated_at: partial.updated_at ?? partial.created_at ?? stamp,
      status,
      latest_revision_id: latest,
      active_revision_id:
        partial.active_revision_id !== undefined
          ? partial.active_revision_id
          : status === 'READY'
            ? latest
            : null,
      image_version: partial.image_version ?? null,
    };
  }

  function newRevision(
    commitSha: string | null,
    repoRef: string | null,
    time: number,
  ): RevisionRecord {
    return {
      id: randomUUID(),
      commitSha,
      repoRef,
      state: 'building',
      queuedAt: time,
      polls: 0,
      fail: false,
    };
  }

  /**
   * Revisions consistent with a deployment's fields, for seeds and deployments pushed into the
   * array directly: the latest is live when it is the active one, else building; an active
   * revision that is not the latest is an older live one.
   */
  function revisionsOf(d: Deployment, time: number): RevisionRecord[] {
    const config = isRecord(d.source_revision_config) ? d.source_revision_config : {};
    const repoRef = stringOrNull(config.repo_ref);
    const make = (id: string, commitSha: string | null, state: RevisionState): RevisionRecord => ({
      id,
      commitSha,
      repoRef,
      state,
      queuedAt: time,
      polls: 0,
      fail: false,
      liveAt: state === 'live' ? time : undefined,
    });
    const { latest_revision_id: latest, active_revision_id: active } = d;
    const list: RevisionRecord[] = [];
    if (active !== null && active !== latest) {
      list.push(make(active, d.source === 'codehost' ? fakeSha() : null, 'live'));
    }
    if (latest !== null) {
      list.push(
        make(latest, stringOrNull(config.repo_commit_sha), latest === active ? 'live' : 'building'),
      );
    }
    return list;
  }

  /** A seeded deployment (READY unless given), stored with its tag values. */
  function seed(partial: SeedDeployment): Deployment {
    const deployment = makeDeployment(partial, 'READY');
    const m = store(deployment);
    if (partial.tagValueIds) m.tagValueIds = tagSet(partial.tagValueIds);
    return deployment;
  }

  function store(d: Deployment, revisions?: RevisionRecord[], lagging = false, time = now()): Meta {
    deployments.push(d);
    const m = newMeta(d, revisions, time);
    m.lagging = lagging;
    attach(d, m);
    if (addressServer && wantsAddress(d) && !hasUrl(d)) {
      d.source_config = { ...d.source_config, custom_url: addressServer.assign(d.id, d.name) };
    }
    return m;
  }

  function wantsAddress(d: Deployment): boolean {
    const { addresses } = initialOptions;
    return typeof addresses === 'function' ? addresses(d) : addresses === true;
  }

  // ---- addresses ------------------------------------------------------------------------------

  function byId(id: string): Deployment | undefined {
    const key = id.toLowerCase();
    return deployments.find((d) => d.id.toLowerCase() === key);
  }

  /** The deployment an id (any case) or a name stands for; throws for none. */
  function named(idOrName: string, what: string): Deployment {
    const d = byId(idOrName) ?? deployments.find((candidate) => candidate.name === idOrName);
    if (!d) throw new Error(`${what}: no deployment with id or name ${idOrName}`);
    return d;
  }

  function addressesOf(what: string): AddressServer {
    if (!addressServer) throw new Error(`${what}: start the emulator with addresses`);
    return addressServer;
  }

  /** Live: READY with its latest revision active; since when that revision went live. */
  function liveness(id: string): {
    live: boolean;
    revisionId: string | null;
    since: number | undefined;
  } {
    const d = byId(id);
    if (!d) return { live: false, revisionId: null, since: undefined };
    const active = d.active_revision_id;
    const live = d.status === 'READY' && active !== null && active === d.latest_revision_id;
    const revision = metaOf(d).revisions.find((candidate) => candidate.id === active);
    return { live, revisionId: active, since: revision?.liveAt };
  }

  function newMeta(d: Deployment, revisions?: RevisionRecord[], time = now()): Meta {
    return {
      storedMs: time,
      polls: 0,
      settled: false,
      revisions: revisions ?? revisionsOf(d, time),
      readySince: d.status === 'READY' ? time : undefined,
      lagging: false,
      lagMisses: 0,
      tagValueIds: new Set(),
    };
  }

  function attach(d: Deployment, m: Meta): void {
    Object.defineProperty(d, META, { value: m, writable: true, configurable: true });
  }

  function metaOf(d: Deployment, time?: number): Meta {
    let m = (d as Deployment & { [META]?: Meta })[META];
    if (!m) {
      m = newMeta(d, undefined, time); // pushed into `deployments` directly
      attach(d, m);
    }
    return m;
  }

  function stillLagging(m: Meta, time: number): boolean {
    const { listingLagReads = 0, listingLagMs = 0 } = options;
    if (m.lagMisses >= listingLagReads && time - m.storedMs >= listingLagMs) m.lagging = false;
    return m.lagging;
  }

  /**
   * The state machine, run when a list read reaches a deployment: first the status
   * (readyAfterPolls / readyAfterMs → finalStatus, once), then the build of its latest revision.
   */
  function evolve(d: Deployment, m: Meta, polled: boolean, time: number): void {
    const { readyAfterPolls, readyAfterMs, finalStatus = 'READY' } = options;
    const timed = readyAfterPolls !== undefined || readyAfterMs !== undefined;
    // Nothing can change (the common case when a listing scans thousands of seeds).
    if (!timed && !polled && m.revisions[m.revisions.length - 1]?.state !== 'building') return;
    if (timed) {
      const due =
        (readyAfterPolls !== undefined && m.polls >= readyAfterPolls) ||
        (readyAfterMs !== undefined && time - m.storedMs >= readyAfterMs);
      if (due && !m.settled && d.status !== 'READY' && d.status !== finalStatus) {
        m.settled = true;
        d.status = finalStatus;
        d.updated_at = isoTime(time);
      }
    }
    build(d, m, polled, time);
    if (polled) m.polls += 1;
  }

  /** Builds only while READY: the latest revision goes live (or fails) after buildPolls / buildMs. */
  function build(d: Deployment, m: Meta, polled: boolean, time: number): void {
    if (d.status !== 'READY') {
      m.readySince = undefined;
      return;
    }
    m.readySince ??= time;
    const latest = m.revisions[m.revisions.length - 1];
    if (latest?.state !== 'building') return;
    const { buildPolls = 0, buildMs = 0 } = options;
    // A clock read a moment earlier (or a test's `now` going back) must not make the wait negative.
    const since = Math.min(time, Math.max(latest.queuedAt, m.readySince));
    if (latest.polls >= buildPolls && time - since >= buildMs) {
      latest.state = latest.fail || options.failBuilds ? 'failed' : 'live';
      if (latest.state === 'live') latest.liveAt = time;
      derive(d, m, time);
    } else if (polled) {
      latest.polls += 1;
    }
  }

  /** The public revision fields, from the revisions. Only called when a revision changed. */
  function derive(d: Deployment, m: Meta, time: number): void {
    const latest = m.revisions[m.revisions.length - 1];
    let active: RevisionRecord | undefined;
    for (let i = m.revisions.length - 1; i >= 0 && !active; i--) {
      if (m.revisions[i]?.state === 'live') active = m.revisions[i];
    }
    d.latest_revision_id = latest?.id ?? null;
    d.active_revision_id = active?.id ?? null;
    if (latest) {
      d.source_revision_config = {
        ...d.source_revision_config,
        repo_commit_sha: latest.commitSha,
      };
    }
    d.updated_at = isoTime(time);
  }

  function push(repoUrl: string, ref: string, sha: string, fail: boolean): string[] {
    const key = repoKey(repoUrl, ref);
    heads.set(key, sha);
    const time = now();
    const affected: string[] = [];
    for (const d of deployments) {
      if (
        d.source !== 'codehost' ||
        d.source_config.build_on_push !== true ||
        typeof d.source_config.repo_url !== 'string' ||
        repoKey(d.source_config.repo_url, stringOrNull(d.source_revision_config.repo_ref)) !== key
      ) {
        continue;
      }
      const m = metaOf(d);
      // Reads skip a deployment with nothing building, so READY is counted from here on.
      m.readySince = d.status === 'READY' ? time : undefined;
      // The service builds only the newest of queued commits.
      for (const revision of m.revisions) {
        if (revision.state === 'building') revision.state = 'skipped';
      }
      const revision = newRevision(sha, ref, time);
      revision.fail = fail;
      m.revisions.push(revision);
      derive(d, m, time);
      affected.push(d.id);
    }
    return affected;
  }

  // ---- the handle -----------------------------------------------------------------------------

  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    requests,
    deployments,
    repos,
    seedRepos(integrationId, list = []) {
      const filled = list.map((r): Repository => {
        const name = r.name ?? `repo-${nextRepoId}`;
        const owner = r.owner ?? 'acme';
        return {
          host_integration_id: r.host_integration_id ?? integrationId,
          id: r.id ?? nextRepoId++,
          name,
          owner,
          url: r.url ?? `https://github.com/${owner}/${name}`,
          default_branch: r.default_branch ?? 'main',
        };
      });
      const key = integrationId.toLowerCase();
      repos.set(key, [...(repos.get(key) ?? []), ...filled]);
      return filled;
    },
    revisions(deploymentId) {
      const id = deploymentId.toLowerCase();
      const d = deployments.find((candidate) => candidate.id.toLowerCase() === id);
      return d
        ? metaOf(d).revisions.map(({ fail: _fail, liveAt: _liveAt, ...revision }) => revision)
        : [];
    },
    setHead(repoUrl, ref, sha) {
      heads.set(repoKey(repoUrl, ref), sha);
    },
    push(repoUrl, ref, sha, { fail = false } = {}) {
      return push(repoUrl, ref, sha, fail);
    },
    seedDeployment(partial = {}) {
      return seed(partial);
    },
    seedDeployments(count, make = () => ({})) {
      const seeded: Deployment[] = [];
      for (let i = 0; i < count; i++) seeded.push(seed(make(i)));
      return seeded;
    },
    setTags(deploymentId, tagValueIds) {
      const id = deploymentId.toLowerCase();
      const d = deployments.find((candidate) => candidate.id.toLowerCase() === id);
      if (!d) throw new Error(`setTags: no deployment with id ${deploymentId}`);
      metaOf(d).tagValueIds = tagSet(tagValueIds);
    },
    inject(...newFaults) {
      for (const fault of newFaults) {
        const remaining = fault.times ?? 1;
        if (remaining > 0) faults.push({ fault, remaining });
      }
    },
    clearFaults() {
      faults = [];
    },
    setOptions(changes) {
      options = { ...options, ...changes };
    },
    addressRequests: addressServer?.requests ?? [],
    serveAddress(idOrName, behaviour = {}) {
      const server = addressesOf('serveAddress');
      const d = named(idOrName, 'serveAddress');
      const url = server.assign(d.id, d.name);
      if (!hasUrl(d)) d.source_config = { ...d.source_config, custom_url: url };
      server.setBehaviour(d.id, behaviour);
      return String(d.source_config.custom_url);
    },
    scriptAddress(idOrName, script) {
      const server = addressesOf('scriptAddress');
      const d = named(idOrName, 'scriptAddress');
      server.assign(d.id, d.name);
      server.setScript(d.id, script);
    },
    addressOf(idOrName, { otherOrigin = false } = {}) {
      const d = named(idOrName, 'addressOf');
      const url = addressesOf('addressOf').addressOf(d.id, otherOrigin);
      if (url === undefined) throw new Error(`addressOf: ${idOrName} has no address`);
      return url;
    },
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve) => {
          for (const sleeper of sleepers) {
            clearTimeout(sleeper.timer);
            sleeper.wake();
          }
          sleepers.clear();
          for (const release of held.splice(0)) release();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
        addressServer?.close(),
      ]).then(() => undefined);
      return closing;
    },
  };
}

// ---- pure helpers -------------------------------------------------------------------------------

interface CreateRequest {
  name: string;
  source: Source;
  source_config: Record<string, unknown>;
  source_revision_config: Record<string, unknown>;
  secrets: Secret[];
  secret_references?: SecretReference[] | null;
}

function faultMatches(
  fault: Fault,
  method: string,
  path: string,
  query: Record<string, string>,
): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
  for (const [name, value] of Object.entries(fault.query ?? {})) {
    const given = query[name];
    if (typeof value === 'string' ? given !== value : given === undefined || !value.test(given))
      return false;
  }
  if (fault.path === undefined) return true;
  if (typeof fault.path === 'string') return fault.path === path;
  fault.path.lastIndex = 0;
  return fault.path.test(path);
}

function json(status: number, body: unknown): Answer {
  return { status, body, headers: {} };
}

function unprocessable(issues: ValidationIssue[]): Answer {
  return json(422, { detail: issues });
}

function notAllowed(allow: string): Answer {
  return { status: 405, body: { detail: 'Method Not Allowed' }, headers: { allow } };
}

function cannedAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  const lowered = lowerKeys(headers);
  if (typeof body === 'string') {
    return {
      status,
      body,
      raw: body,
      headers: { 'content-type': 'text/plain; charset=utf-8', ...lowered },
    };
  }
  return { status, body: body ?? { detail: STATUS_CODES[status] ?? 'Error' }, headers: lowered };
}

/** Sends the answer; returns the body's length in bytes. */
function send(res: ServerResponse, answer: Answer): number {
  const bodyless = answer.status === 204 || answer.status === 304 || answer.status < 200;
  let body = Buffer.from(bodyless ? '' : (answer.raw ?? JSON.stringify(answer.body) ?? ''));
  if (answer.truncateAt !== undefined) body = body.subarray(0, Math.max(0, answer.truncateAt));
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    ...answer.headers,
    'content-length': String(body.length),
  });
  res.end(body);
  return body.length;
}

/** Resolves when the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Whether the deployment has a `custom_url` already (a non-empty string). */
function hasUrl(d: Deployment): boolean {
  const url = isRecord(d.source_config) ? d.source_config.custom_url : undefined;
  return typeof url === 'string' && url !== '';
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The emulator's control route for a push (`controlPush`), outside the service's paths. */
export const PUSH_PATH = '/_emulator/push';

/** Repository URLs match case-insensitively, without a trailing `/` or `.git`. */
function repoKey(repoUrl: unknown, ref: string | null): string {
  const url = typeof repoUrl === 'string' ? repoUrl.trim().toLowerCase() : '';
  return `${url
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')}\n${ref ?? ''}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

function parseLoosely(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** 40 random hex digits (two UUIDs are much cheaper than randomBytes when seeding thousands). */
function fakeSha(): string {
  return `${randomUUID()}${randomUUID()}`.replaceAll('-', '').slice(0, 40);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Like FastAPI: no content-type or a JSON one is parsed; any other content-type is raw text. */
function parseJsonBody(
  raw: string,
  contentType: string | undefined,
): { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] } {
  if (raw === '') {
    return {
      ok: false,
      issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }],
    };
  }
  const mime = (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime !== 'application/json' && !(mime.startsWith('application/') && mime.endsWith('+json'))) {
    return {
      ok: false,
      issues: [{ type: 'model_attributes_type', loc: ['body'], msg: OBJECT_MSG, input: raw }],
    };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          type: 'json_invalid',
          loc: ['body', 0],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: error instanceof Error ? error.message : String(error) },
        },
      ],
    };
  }
}

function validateCreate(body: unknown): ValidationIssue[] {
  if (!isRecord(body)) {
    return [{ type: 'model_attributes_type', loc: ['body'], msg: OBJECT_MSG, input: body }];
  }
  const issues: ValidationIssue[] = [];
  checkStrings(body, ['body'], ['name'], issues);
  if (body.name === '') {
    issues.push({
      type: 'string_too_short',
      loc: ['body', 'name'],
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    });
  }
  if (body.source === undefined) {
    issues.push(missing(['body', 'source'], body));
  } else if (!(SOURCES as readonly unknown[]).includes(body.source)) {
    const expected = `'codehost', 'external_docker', 'internal_docker', 'internal_source' or 'internal_template'`;
    issues.push({
      type: 'enum',
      loc: ['body', 'source'],
      msg: `Input should be ${expected}`,
      input: body.source,
      ctx: { expected },
    });
  }
  for (const key of ['source_config', 'source_revision_config']) {
    if (body[key] === undefined) issues.push(missing(['body', key], body));
    else if (!isRecord(body[key])) {
      issues.push({
        type: 'model_attributes_type',
        loc: ['body', key],
        msg: OBJECT_MSG,
        input: body[key],
      });
    }
  }
  const type = isRecord(body.source_config) ? body.source_config.deployment_type : undefined;
  if (type !== undefined && type !== null && typeof type !== 'string') {
    issues.push({
      type: 'string_type',
      loc: ['body', 'source_config', 'deployment_type'],
      msg: 'Input should be a valid string',
      input: type,
    });
  }
  checkList(body, 'secrets', ['name', 'value'], issues);
  if (body.secret_references !== null) {
    checkList(body, 'secret_references', ['name', 'secret_name', 'secret_key'], issues, true);
  }
  return issues;
}

function checkList(
  body: Record<string, unknown>,
  key: string,
  fields: string[],
  issues: ValidationIssue[],
  optional = false,
): void {
  const list = body[key];
  if (list === undefined) {
    if (!optional) issues.push(missing(['body', key], body));
    return;
  }
  if (!Array.isArray(list)) {
    issues.push({
      type: 'list_type',
      loc: ['body', key],
      msg: 'Input should be a valid list',
      input: list,
    });
    return;
  }
  list.forEach((item: unknown, index) => {
    const loc = ['body', key, index];
    if (isRecord(item)) checkStrings(item, loc, fields, issues);
    else issues.push({ type: 'model_attributes_type', loc, msg: OBJECT_MSG, input: item });
  });
}

function checkStrings(
  object: Record<string, unknown>,
  loc: (string | number)[],
  fields: string[],
  issues: ValidationIssue[],
): void {
  for (const field of fields) {
    const value = object[field];
    if (value === undefined) issues.push(missing([...loc, field], object));
    else if (typeof value !== 'string') {
      issues.push({
        type: 'string_type',
        loc: [...loc, field],
        msg: 'Input should be a valid string',
        input: value,
      });
    }
  }
}

function missing(loc: (string | number)[], input: unknown): ValidationIssue {
  return { type: 'missing', loc, msg: 'Field required', input };
}

function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number | undefined,
  issues: ValidationIssue[],
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const loc = ['query', name];
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) {
    issues.push({
      type: 'int_parsing',
      loc,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: raw,
    });
    return fallback;
  }
  const value = Number(raw);
  if (value < min) {
    issues.push({
      type: 'greater_than_equal',
      loc,
      msg: `Input should be greater than or equal to ${min}`,
      input: raw,
      ctx: { ge: min },
    });
  } else if (max !== undefined && value > max) {
    issues.push({
      type: 'less_than_equal',
      loc,
      msg: `Input should be less than or equal to ${max}`,
      input: raw,
      ctx: { le: max },
    });
  }
  return value;
}

/** The filters of a listing, parsed once; a malformed value adds an issue (a 422). */
function listFilters(query: URLSearchParams, issues: ValidationIssue[]): ListFilters {
  const ids = idList(query.get('deployment_ids'));
  return {
    nameContains: stringParam(query, 'name_contains'),
    status: stringParam(query, 'status'),
    remoteReconciled: boolParam(query, 'remote_reconciled', issues),
    tagValueIds: idList(query.get('tag_value_ids')),
    imageVersion: stringParam(query, 'image_version'),
    deploymentType: stringParam(query, 'deployment_type'),
    ids: ids && new Set(ids),
  };
}

/** Whether a deployment passes every filter given; each check is O(1) but the tags' (O(tags asked)). */
function passes(d: Deployment, tagValueIds: Set<string>, f: ListFilters): boolean {
  return (
    (f.nameContains === undefined || d.name.includes(f.nameContains)) &&
    (f.status === undefined || d.status === f.status) &&
    (f.imageVersion === undefined || d.image_version === f.imageVersion) &&
    (f.deploymentType === undefined || sourceConfigOf(d).deployment_type === f.deploymentType) &&
    (f.remoteReconciled === undefined || isRemoteReconciled(d) === f.remoteReconciled) &&
    (f.tagValueIds === undefined || f.tagValueIds.every((id) => tagValueIds.has(id)))
  );
}

/**
 * A Deployment has no `remote_reconciled` field. The service's deployments that a remote
 * listener (a self-hosted data plane) reconciles are the ones with `source_config.listener_id`
 * set, so that is what the filter reads.
 */
function isRemoteReconciled(d: Deployment): boolean {
  const listenerId = sourceConfigOf(d).listener_id;
  return typeof listenerId === 'string' && listenerId !== '';
}

function sourceConfigOf(d: Deployment): Record<string, unknown> {
  return isRecord(d.source_config) ? d.source_config : {};
}

function tagSet(tagValueIds: string[]): Set<string> {
  return new Set(tagValueIds.map((id) => id.trim().toLowerCase()));
}

/** A string filter; empty counts as absent, like the service's `if param:` checks. */
function stringParam(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) || undefined;
}

/** Comma-separated ids, trimmed and lower-cased, empty entries dropped; undefined when absent or empty. */
function idList(raw: string | null): string[] | undefined {
  if (!raw) return undefined;
  return raw
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
}

/** Pydantic's spellings of a boolean (any case). A Map, so `constructor` is no spelling. */
const BOOLEANS = new Map<string, boolean>([
  ...['true', 't', 'yes', 'y', 'on', '1'].map((word): [string, boolean] => [word, true]),
  ...['false', 'f', 'no', 'n', 'off', '0'].map((word): [string, boolean] => [word, false]),
]);

/** A boolean query parameter as FastAPI reads it: any other value, the empty one included, is a 422. */
function boolParam(
  query: URLSearchParams,
  name: string,
  issues: ValidationIssue[],
): boolean | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = BOOLEANS.get(raw.trim().toLowerCase());
  if (value === undefined) {
    issues.push({
      type: 'bool_parsing',
      loc: ['query', name],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: raw,
    });
  }
  return value;
}
