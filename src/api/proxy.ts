/**
 * Which way requests go out: directly, or through VS Code's proxy settings and the proxy
 * environment variables.
 */
import type { Dispatcher } from 'undici';
import { envHttpProxyAgent } from './undici';

export interface ProxySettings {
  /** A proxy URL for every request (VS Code's http.proxy); unset: HTTPS_PROXY / HTTP_PROXY from the environment. */
  readonly url?: string;
  /** false accepts certificates that cannot be verified (VS Code's http.proxyStrictSSL). Default true. */
  readonly strictSSL?: boolean;
  /** Hosts reached directly (VS Code's http.noProxy); NO_PROXY from the environment is added. */
  readonly noProxy?: readonly string[];
}

/**
 * The dispatcher for the proxy settings, or undefined for undici's default (no proxy anywhere and
 * strict TLS). undici does not read proxy variables by itself, and VS Code's proxy support patches
 * Node's http module, not undici, so this is done here.
 */
export function proxyDispatcher(
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher | undefined {
  const url = proxy?.url?.trim() || undefined;
  const strict = proxy?.strictSSL !== false;
  const envProxy = env.https_proxy ?? env.HTTPS_PROXY ?? env.http_proxy ?? env.HTTP_PROXY;
  if (!url && !envProxy && strict) return undefined;
  const noProxy = [...(proxy?.noProxy ?? []), ...(env.no_proxy ?? env.NO_PROXY ?? '').split(',')]
    .map((h) => h.trim())
    .filter(Boolean)
    .join(',');
  const tls = { rejectUnauthorized: strict };
  return envHttpProxyAgent({
    httpProxy: url ?? env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: url ?? env.https_proxy ?? env.HTTPS_PROXY,
    noProxy,
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
  });
}
