/**
 * The proxy the environment names (docs/how-it-works.md, "Retries and timeouts"), read by the
 * adapter, and undici, loaded on first use: loading it is a measurable part of start-up
 * (bench/README.md). `loadedUndici()` where a dispatcher is made synchronously, after the
 * adapter loaded it.
 */
import type * as Undici from 'undici';
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import { ActionError } from '../common/errors.js';

let loaded: typeof Undici | undefined;

export async function loadUndici(): Promise<typeof Undici> {
  return (loaded ??= await import(/* webpackMode: "eager" */ 'undici'));
}

export function loadedUndici(): typeof Undici {
  if (loaded === undefined) throw new Error('undici is used before loadUndici() loaded it');
  return loaded;
}

export interface ProxySettings {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

/** Read as undici reads them: the lower-case name first. */
export function proxySettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  return {
    httpsProxy: proxyAddress(env, 'https_proxy'),
    httpProxy: proxyAddress(env, 'http_proxy'),
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
}

/** Checked before any request; the error names the variable, never its value (it may hold a password). */
function proxyAddress(
  env: Readonly<Record<string, string | undefined>>,
  lower: string,
): string | undefined {
  const name = env[lower] !== undefined ? lower : lower.toUpperCase();
  const value = env[name];
  if (value === undefined || value === '') return value;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const usable =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '';
  if (!usable) {
    throw new ActionError(
      `The proxy variable ${name} is not a proxy address: give http://host:port or https://host:port (user and password allowed), with no path, query or fragment, or unset it.`,
    );
  }
  return value;
}

/** Drops undici's "EnvHttpProxyAgent is experimental" warning (users read it as a fault), only that one. */
function withoutExperimentalWarning<T>(make: () => T): T {
  // Put back as it was, unbound: it is process's own method.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    if ((rest[0] as { code?: unknown } | null | undefined)?.code === 'UNDICI-EHPA') return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * Undefined (undici's global one) when no proxy is set. `options.connect` reaches the direct
 * agents (hosts in `NO_PROXY`), `requestTls` the target's TLS through a tunnel.
 */
export function proxyDispatcher(
  proxy: ProxySettings,
  options: Omit<EnvHttpProxyAgent.Options, 'httpsProxy' | 'httpProxy' | 'noProxy'> = {},
): Dispatcher | undefined {
  const { httpsProxy = '', httpProxy = '', noProxy = '' } = proxy;
  if (httpsProxy === '' && httpProxy === '') return undefined;
  return withoutExperimentalWarning(
    () => new (loadedUndici().EnvHttpProxyAgent)({ ...options, httpsProxy, httpProxy, noProxy }),
  );
}
