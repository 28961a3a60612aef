/**
 * Where the service's requests go: through the proxy the step's environment
 * names (docs/how-it-works.md, "Retries and timeouts"), read by the adapter and passed in as
 * data, or straight to the service.
 */
import { EnvHttpProxyAgent, type Dispatcher } from 'undici';

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
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY,
    httpProxy: env.http_proxy ?? env.HTTP_PROXY,
    noProxy: env.no_proxy ?? env.NO_PROXY,
  };
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
    () => new EnvHttpProxyAgent({ ...options, httpsProxy, httpProxy, noProxy }),
  );
}
