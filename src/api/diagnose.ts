/**
 * What went wrong when no HTTP answer came: a timeout, a refused or reset connection, DNS, TLS or
 * the proxy. The message names the likely cause and the setting to check; the error says whether
 * the request may have reached the server (only a request that was certainly not sent may be
 * retried when it mutates).
 */
import {
  CancelledError,
  NetworkError,
  TimeoutError,
  type ErrorContext,
  type TensorPoolError,
} from './errors';
import * as l10n from '@vscode/l10n';
import { snippet } from './parse';
import type { SecretRegistry } from './redact';

/** Failures that happen before a request byte is written: retrying these can never duplicate anything. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
  'UND_ERR_PRX_TLS',
  'ERR_INVALID_URL',
]);
const TLS_CODES = /CERT|SSL|TLS|EPROTO|SELF_SIGNED|VERIFY/;

/** Where the failed attempt was going and how far it got. */
export interface FailedAttempt {
  readonly baseUrl: string;
  /** Whether a proxy dispatcher (or one the caller gave) was in use. */
  readonly viaDispatcher: boolean;
  /** Whether the response headers had arrived (the failure came while reading the body). */
  readonly responded: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly secrets: SecretRegistry;
}

/** `No answer from host within 30 s.` */
export function timeoutError(ctx: ErrorContext, baseUrl: string, timeoutMs: number): TimeoutError {
  const within =
    timeoutMs >= 1000 ? l10n.t('{0} s', Math.round(timeoutMs / 1000)) : l10n.t('{0} ms', timeoutMs);
  return new TimeoutError(
    l10n.t('No answer from {0} within {1}.', hostOf(baseUrl), within),
    { ...ctx, status: undefined },
    timeoutMs,
    true,
  );
}

/** The request was cancelled (by the caller's signal) before an answer came. */
export function cancelledError(ctx: ErrorContext): CancelledError {
  return new CancelledError(l10n.t('The request was cancelled.'), ctx);
}

/** The typed error for an attempt that threw instead of answering. */
export function failureError(e: unknown, ctx: ErrorContext, at: FailedAttempt): TensorPoolError {
  if (at.signal?.aborted) return cancelledError(ctx);
  const code = errorCode(e);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(
      l10n.t('No answer from {0} in time.', hostOf(at.baseUrl)),
      { ...ctx, status: undefined },
      at.timeoutMs,
      true,
    );
  }
  // A proxy that answers the CONNECT with anything but 200 never opened the tunnel: nothing was sent.
  const tunnelRefused = at.viaDispatcher && proxyStatus(e) !== undefined;
  const sent = !tunnelRefused && (at.responded || code === undefined || !NOT_SENT_CODES.has(code));
  return new NetworkError(at.secrets.redact(networkMessage(e, code, at)), ctx, code, sent);
}

function networkMessage(e: unknown, code: string | undefined, at: FailedAttempt): string {
  const host = hostOf(at.baseUrl);
  const raw = e instanceof Error ? e.message : '';
  const refused = errorEndpoint(e);
  const target = new URL(at.baseUrl);
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const viaProxy = at.viaDispatcher && refused !== undefined && refused.port !== targetPort;
  if (viaProxy && code === 'ECONNREFUSED')
    return l10n.t(
      'Connection refused by the proxy at {0}:{1}: check http.proxy or HTTPS_PROXY.',
      refused.address,
      refused.port,
    );
  const status = at.viaDispatcher ? proxyStatus(e) : undefined;
  // 407 is the standard answer; some proxies (tinyproxy) answer wrong credentials with 401.
  if (status === 407 || status === 401)
    return l10n.t(
      'The proxy requires authentication ({0}) for {1}: check http.proxyAuthorization, or the credentials in http.proxy.',
      status === 407 ? '407 Proxy Authentication Required' : '401 Unauthorized',
      host,
    );
  if (/proxy/i.test(raw) && at.viaDispatcher)
    return l10n.t(
      'The proxy refused or failed the connection to {0} ({1}). Check http.proxy or HTTPS_PROXY.',
      host,
      snippet(raw, 80),
    );
  if (code === 'ECONNREFUSED')
    return l10n.t('Connection refused by {0}: is the service (or the local engine) running?', host);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return l10n.t('Cannot resolve {0}: check the API URL and your network or DNS.', host);
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return l10n.t('Could not connect to {0} in time: check your network or proxy.', host);
  if (code && TLS_CODES.test(code))
    return l10n.t(
      "TLS error talking to {0} ({1}): the certificate could not be verified. Check http.proxyStrictSSL, or install your corporate proxy's CA in the system certificate store (http.systemCertificates).",
      host,
      code,
    );
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return l10n.t('The connection to {0} was closed before an answer arrived.', host);
  return code
    ? l10n.t('Network error talking to {0} ({1}).', host, code)
    : l10n.t('Network error talking to {0}.', host);
}

/** The status a proxy answered a CONNECT with (undici: "Proxy response (407) !== 200 when HTTP Tunneling"). */
function proxyStatus(e: unknown): number | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const message = (cur as { message?: unknown }).message;
    const m = typeof message === 'string' ? /Proxy response \((\d{3})\) !== 200/.exec(message) : null;
    if (m) return Number(m[1]);
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The address and port a connect error names (Node puts them on the error or its cause). */
function errorEndpoint(e: unknown): { address: string; port: number } | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const c = cur as { address?: unknown; port?: unknown; cause?: unknown };
    if (typeof c.port === 'number')
      return { address: typeof c.address === 'string' ? c.address : '', port: c.port };
    cur = c.cause;
  }
  return undefined;
}
