/**
 * Which way requests go out: directly, or through VS Code's proxy settings and the proxy
 * environment variables; and which certificates they trust (Node's roots, plus the operating
 * system's store unless http.systemCertificates is off: systemCerts.ts).
 */
import type { SecureContext } from 'node:tls';
import type { Dispatcher } from 'undici';
import { systemSecureContext, tlsOptions } from './systemCerts';
import { envHttpProxyAgent } from './undici';

export interface ProxySettings {
  /** A proxy URL for every request (VS Code's http.proxy); unset: HTTPS_PROXY / HTTP_PROXY from the environment. */
  readonly url?: string;
  /** false accepts certificates that cannot be verified (VS Code's http.proxyStrictSSL). Default true. */
  readonly strictSSL?: boolean;
  /** Hosts reached directly (VS Code's http.noProxy); NO_PROXY from the environment is added. */
  readonly noProxy?: readonly string[];
  /** Sent as Proxy-Authorization to the proxy (VS Code's http.proxyAuthorization). A secret: never logged. */
  readonly authorization?: string;
  /** Trust the operating system's certificate store too (VS Code's http.systemCertificates). Default true. */
  readonly systemCertificates?: boolean;
}

/**
 * The dispatcher for the proxy settings, or undefined for undici's default (no proxy anywhere, strict
 * TLS and no extra certificates). undici does not read proxy variables by itself, and VS Code's proxy
 * support patches Node's http module, not undici, so this is done here. `secureContext` carries the
 * trusted roots (outboundDispatcher() passes the system store's).
 */
export function proxyDispatcher(
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
  secureContext?: SecureContext,
): Dispatcher | undefined {
  const url = proxy?.url?.trim() || undefined;
  const strict = proxy?.strictSSL !== false;
  const envProxy = env.https_proxy ?? env.HTTPS_PROXY ?? env.http_proxy ?? env.HTTP_PROXY;
  if (!url && !envProxy && strict && !secureContext) return undefined;
  const noProxy = [...(proxy?.noProxy ?? []), ...(env.no_proxy ?? env.NO_PROXY ?? '').split(',')]
    .map((h) => h.trim())
    .filter(Boolean)
    .join(',');
  const tls = { rejectUnauthorized: strict, ...(secureContext && strict ? { secureContext } : {}) };
  const token = proxy?.authorization?.trim() || undefined;
  return envHttpProxyAgent({
    httpProxy: url ?? env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: url ?? env.https_proxy ?? env.HTTPS_PROXY,
    noProxy,
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
    // The CONNECT (and any proxied request) carries it; never the requests to the service itself.
    ...(token ? { token } : {}),
  });
}

/**
 * proxyDispatcher() with the operating system's certificates when they are wanted (strict SSL on and
 * http.systemCertificates not off): read on the first call, then shared by every dispatcher.
 */
export async function outboundDispatcher(
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
  /** The only URL this dispatcher is for, when there is one: without TLS on its way, no certificates. */
  target?: string,
): Promise<Dispatcher | undefined> {
  const wanted =
    proxy?.strictSSL !== false &&
    proxy?.systemCertificates !== false &&
    (target === undefined || usesTls(target, proxy, env));
  return proxyDispatcher(proxy, env, wanted ? await systemSecureContext() : undefined);
}

/**
 * Whether requests to `target` use TLS anywhere: an https/wss target, or a proxy for it reached over https.
 * Plain http to the local engine needs no certificates, and reading the system store costs 40-60 ms of CPU
 * (synchronous on Node 24) on the way to the first answer.
 */
export function usesTls(
  target: string,
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (/^(?:https|wss):/i.test(target)) return true;
  const via = proxyFor(target, proxy, env);
  return via !== undefined && /^https:/i.test(via.url);
}

/** What a Node http(s) client (the S3 client with an https.Agent) needs to go out as the API client does. */
export interface NodeClientOptions {
  /** The whole list of roots to trust (Node's plus the system store's extras); undefined: Node's defaults. */
  readonly ca?: string[];
  /** false: http.proxyStrictSSL is off. */
  readonly rejectUnauthorized: boolean;
  /** The proxy for this target and the Proxy-Authorization value to send it (a secret); undefined: direct. */
  readonly proxy?: { readonly url: string; readonly authorization?: string };
}

/**
 * The TLS options and the proxy for requests to `target` (http.noProxy / NO_PROXY as undici reads them).
 * Reads the system store once per session, as the API client's dispatcher does.
 */
export async function nodeClientOptions(
  target: string,
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<NodeClientOptions> {
  const via = proxyFor(target, proxy, env);
  const tls = usesTls(target, proxy, env)
    ? await tlsOptions(proxy)
    : { rejectUnauthorized: proxy?.strictSSL !== false };
  return via ? { ...tls, proxy: via } : tls;
}

function proxyFor(
  target: string,
  proxy: ProxySettings | undefined,
  env: NodeJS.ProcessEnv,
): { url: string; authorization?: string } | undefined {
  const u = new URL(target);
  const https = u.protocol === 'https:' || u.protocol === 'wss:';
  const url =
    proxy?.url?.trim() ||
    (https ? (env.https_proxy ?? env.HTTPS_PROXY) : undefined) ||
    env.http_proxy ||
    env.HTTP_PROXY;
  if (!url) return undefined;
  const port = Number(u.port) || (https ? 443 : 80);
  const host = u.hostname.toLowerCase();
  const list = [...(proxy?.noProxy ?? []), ...(env.no_proxy ?? env.NO_PROXY ?? '').split(/[,\s]/)]
    .map((e) => e.trim())
    .filter(Boolean);
  const direct = list.some((entry) => {
    if (entry === '*') return true;
    const m = /^(.+):(\d+)$/.exec(entry);
    if (m && Number(m[2]) !== port) return false;
    const name = (m ? m[1] : entry).replace(/^\*?\./, '').toLowerCase();
    return host === name || host.endsWith(`.${name}`);
  });
  if (direct) return undefined;
  const authorization = proxy?.authorization?.trim() || undefined;
  return authorization ? { url, authorization } : { url };
}
