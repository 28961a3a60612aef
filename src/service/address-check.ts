/**
 * One bounded check of a deployment's address (docs/how-it-works.md, "Live means answering"):
 * only https:// or a loopback http://, never a link-local or metadata address, redirects only
 * to the same origin, TLS verified, the proxy honoured. Header and query values are secrets,
 * hidden in all it says, even where the answer echoes them.
 */
import { STATUS_CODES } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { shownAddress, webAddressFault } from '../common/address.js';
import { CancelledError } from '../common/errors.js';
import { Redactor } from '../common/redact.js';
import { untrusted } from '../common/runtime.js';
import { networkFailure } from './answers.js';
import { boundedBody, ExchangeBound } from './exchange-bound.js';
import {
  FORBIDDEN_ADDRESS,
  FORBIDDEN_WORDS,
  forbiddenResolution,
  guardedLookup,
  isForbiddenHost,
} from './address-guard.js';
import { queryValues } from './health-address.js';
import { loadUndici, loadedUndici, proxyDispatcher, type ProxySettings } from './proxy.js';

/** An agent that scales to zero may take this long to answer. */
export const CHECK_TIMEOUT_MS = 30_000;
/** The expected text is looked for in these bytes only. */
export const MAX_BODY_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;
const EXCERPT_CHARACTERS = 200;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface CheckOptions {
  headers?: Readonly<Record<string, string>>;
  proxy?: ProxySettings;
  /** The whole exchange's bound, redirects and body included. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Guarded all the same. */
  lookup?: LookupFunction;
  /** Instead of the system's (a runner uses NODE_EXTRA_CA_CERTS). */
  ca?: string;
  /** The run's redaction, applied to all that was read before the cut: a secret is hidden whole. */
  redact?: (text: string) => string;
}

export interface CheckResult {
  ok: boolean;
  /** The last answer's, when one came. */
  status?: number;
  error?: string;
  /** A failing answer's first 200 characters as received, secrets masked, on one line, escaped. */
  bodyExcerpt?: string;
  /** The check never asks this address: nothing was sent, and asking again would not change it. */
  refused?: true;
}

/** Decided before any connection. */
function refusal(address: string): string | undefined {
  if (!URL.canParse(address)) return 'the health check address is not a valid URL';
  const url = new URL(address);
  const shown = shownAddress(url);
  switch (webAddressFault(url)) {
    case 'credentials':
      return `${shown} holds credentials: pass them as headers`;
    case 'plain-http':
      return `${shown} is not checked: http:// is allowed only for localhost, 127.0.0.0/8 and [::1]`;
    case 'scheme':
      return `${shown} is not checked: it must be an https:// address`;
  }
  if (isForbiddenHost(url.hostname)) return `${shown} is ${FORBIDDEN_WORDS}: not checked`;
  return undefined;
}

/**
 * One answer serves every agent whose check goes to the same address, each with the text its
 * body must hold (in its first 64 KiB; empty or absent: any `2xx` will do).
 */
export type Judgement = (expect: string | undefined) => CheckResult;

/** The one GET of the check; throws `CancelledError` on cancel. */
export async function askAddress(address: string, options: CheckOptions = {}): Promise<Judgement> {
  // A value too short to hide without garbling the text (`isRedactable`) stays as it is.
  const hidden = new Redactor();
  for (const value of Object.values(options.headers ?? {})) hidden.add(value);
  for (const value of queryValues(address)) hidden.add(value);
  const hide = (text: string) => hidden.redact(text);
  const refused = refusal(address);
  if (refused !== undefined) return failed({ ok: false, error: hide(refused), refused: true });
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  await loadUndici();
  const bound = new ExchangeBound(timeoutMs, options.signal);
  const route = dispatcherFor(options);
  let result: CheckResult | { status: number; body: Buffer };
  try {
    result = await exchange(new URL(address), options, route, bound.signal, hidden);
  } catch (error) {
    if (bound.cancelled) throw new CancelledError();
    const forbidden = forbiddenCause(error);
    if (forbidden !== undefined)
      return failed({ ok: false, error: hide(forbidden), refused: true });
    const { problem } = networkFailure(error, bound.timedOut, timeoutMs);
    return failed({ ok: false, error: hide(problem) });
  } finally {
    bound.end();
    route.dispatcher.destroy().catch(() => undefined);
  }
  if (!('body' in result))
    return failed(result.error === undefined ? result : { ...result, error: hide(result.error) });
  const { status, body } = result;
  // Redacted once for all who judge the answer.
  const redact = options.redact ?? ((text: string) => text);
  let shown: string | undefined;
  const redactedText = () => (shown ??= redact(body.toString('utf8')));
  return (expect) => judge(status, body, expect, hidden, redactedText);
}

interface Route {
  dispatcher: Dispatcher;
  /** Through a proxy, which resolves names itself: they are resolved here first. */
  proxied: boolean;
}

function dispatcherFor(options: CheckOptions): Route {
  const connect = {
    lookup: guardedLookup(options.lookup),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };
  // No `requestTls` without a CA: undici's proxy agent then takes the target's own servername,
  // while any `requestTls` object (even `{}`) makes it read the servername from there (none).
  const requestTls = options.ca === undefined ? {} : { requestTls: { ca: options.ca } };
  const viaProxy = proxyDispatcher(options.proxy ?? {}, { connect, ...requestTls });
  if (viaProxy !== undefined) return { dispatcher: viaProxy, proxied: true };
  return { dispatcher: new (loadedUndici().Agent)({ connect }), proxied: false };
}

async function exchange(
  start: URL,
  options: CheckOptions,
  route: Route,
  signal: AbortSignal,
  hidden: Redactor,
): Promise<CheckResult | { status: number; body: Buffer }> {
  const headers = { 'user-agent': 'deploy-agent-action health check', ...options.headers };
  let url = start;
  for (let redirects = 0; ; redirects++) {
    if (route.proxied) {
      const refused = await whileNotAborted(
        forbiddenResolution(url.hostname, options.lookup),
        signal,
      );
      if (refused !== undefined) return { ok: false, error: refused, refused: true };
    }
    const answer = await loadedUndici().request(url, {
      method: 'GET',
      headers,
      signal,
      dispatcher: route.dispatcher,
    });
    const status = answer.statusCode;
    const location = answer.headers.location;
    if (!REDIRECTS.has(status) || typeof location !== 'string')
      return { status, body: (await boundedBody(answer.body, MAX_BODY_BYTES)).body };
    // A redirect's body is not read; dropping it drops its connection, no error to report.
    answer.body.on('error', () => undefined).destroy();
    if (!URL.canParse(location, url.href))
      return { ok: false, status, error: `${status} redirect to an address that is not one` };
    const next = new URL(location, url);
    if (next.origin !== url.origin) {
      const error = `${status} redirect to another origin (${shownAddress(next)}): not followed`;
      return { ok: false, status, error };
    }
    if (redirects >= MAX_REDIRECTS)
      return { ok: false, status, error: `more than ${MAX_REDIRECTS} redirects: not followed` };
    url = next;
    for (const value of queryValues(url.href)) hidden.add(value);
  }
}

/** A DNS look-up cannot be stopped: rejected as soon as `signal` aborts. */
function whileNotAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function judge(
  status: number,
  body: Buffer,
  expected: string | undefined,
  hidden: Redactor,
  redactedText: () => string,
): CheckResult {
  const answered = status >= 200 && status <= 299;
  const holds = expected === undefined || expected === '' || body.includes(expected, 0, 'utf8');
  if (answered && holds) return { ok: true, status };
  const error = answered
    ? `${status} answer does not hold the expected text (in its first ${MAX_BODY_BYTES / 1024} KiB)`
    : `${status} ${STATUS_CODES[status] ?? 'answer'}`;
  // The run's secrets hidden in all that was read, then cut as received (the check's own values
  // hidden whole at the cut), then made one line: whitespace collapsed never lets text past the cut in.
  const head = hidden.redactHead(redactedText(), EXCERPT_CHARACTERS);
  const text = head.replace(/\s+/g, ' ').trim();
  if (text === '') return { ok: false, status, error };
  return { ok: false, status, error, bodyExcerpt: untrusted(text) };
}

/** A failure, the same for every expected text. */
function failed(result: CheckResult): Judgement {
  return () => result;
}

/** A forbidden resolved address refused the connection before it was made. */
function forbiddenCause(error: unknown): string | undefined {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
    if ((cause as NodeJS.ErrnoException).code === FORBIDDEN_ADDRESS) return cause.message;
  return undefined;
}
