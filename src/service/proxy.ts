/**
 * Where the service's requests go: through the proxy the step's environment
 * names (docs/how-it-works.md, "Retries and timeouts"), read by the adapter and passed in as
 * data, or straight to the service.
 */
import type { Dispatcher, EnvHttpProxyAgent } from 'undici';
import { ActionError } from '../common/errors.js';
import { loadedUndici } from './undici.js';

/**
 * The proxy variables, as the adapter read them: `https_proxy`, else
 * `HTTPS_PROXY`, and likewise for `HTTP_PROXY` and `NO_PROXY` (undici's
 * order). Absent when not set.
 */
export interface ProxySettings {
  httpsProxy?: string;
  httpProxy?: string;
  noProxy?: string;
}

/**
 * The proxy settings in an environment (the process's, as the adapter hands
 * it over), read as undici reads them: the lower-case name first.
 */
export function proxySettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): ProxySettings {
  return {
    httpsProxy: proxyAddress(env, 'https_proxy', 'HTTPS_PROXY'),
    httpProxy: proxyAddress(env, 'http_proxy', 'HTTP_PROXY'),
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
}

/**
 * A proxy variable's value, checked before any request as undici will read it: an
 * `http:` or `https:` origin (user and password allowed), no path, query or fragment.
 * The error names the variable, never its value (it may hold a password).
 */
function proxyAddress(
  env: Readonly<Record<string, string | undefined>>,
  lower: string,
  upper: string,
): string | undefined {
  const name = env[lower] !== undefined ? lower : upper;
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

/** The code of undici's one-time warning that `EnvHttpProxyAgent` is experimental. */
const EXPERIMENTAL_WARNING = 'UNDICI-EHPA';

/**
 * Runs `make` with undici's "EnvHttpProxyAgent is experimental" warning
 * dropped: the step log would show it on stderr, and users read it as a
 * fault. Every other warning goes through.
 */
function withoutExperimentalWarning<T>(make: () => T): T {
  // Put back as it was, unbound: it is process's own method.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const [options] = rest;
    const code =
      typeof options === 'object' && options !== null && 'code' in options
        ? options.code
        : undefined;
    if (code === EXPERIMENTAL_WARNING) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  };
  try {
    return make();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** What else a dispatcher through the proxy is made with (the health check's look-up). */
export type ProxyAgentOptions = Omit<
  EnvHttpProxyAgent.Options,
  'httpsProxy' | 'httpProxy' | 'noProxy'
>;

/**
 * A dispatcher through the proxy, or undefined (undici's global one) when no proxy is set.
 * `options` reach undici's agents: `connect` the direct ones (hosts in `NO_PROXY`),
 * `requestTls` the target's TLS through a tunnel.
 */
export function proxyDispatcher(
  proxy: ProxySettings,
  options: ProxyAgentOptions = {},
): Dispatcher | undefined {
  const { httpsProxy = '', httpProxy = '', noProxy = '' } = proxy;
  if (httpsProxy === '' && httpProxy === '') return undefined;
  return withoutExperimentalWarning(
    () => new (loadedUndici().EnvHttpProxyAgent)({ ...options, httpsProxy, httpProxy, noProxy }),
  );
}
