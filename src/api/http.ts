/**
 * The HTTP transport under the client: one place for the base URL rule, auth header, user agent,
 * timeouts, cancellation, retries (idempotent GETs only), error mapping and redacted logging.
 */
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { validateApiUrl } from '../model/validate';
import {
  BadResponseError,
  CancelledError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  ValidationError,
  type ErrorContext,
  type FieldError,
  type TensorPoolError,
} from './errors';
import { SecretRegistry } from './redact';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type LogSink = (level: LogLevel, message: string) => void;

export interface TransportOptions {
  /** e.g. https://engine.tensorpool.dev; http only for loopback hosts. */
  readonly baseUrl: string;
  /** Read on every call, so a new sign-in takes effect without rebuilding the client. */
  readonly getToken: () => string | undefined;
  readonly userAgent: string;
  /** Per attempt: how long to wait for the answer's headers, and at most between two body chunks. Default 30 s. */
  readonly timeoutMs?: number;
  /** How many times an idempotent GET is retried after a transient failure (default 3). */
  readonly maxRetries?: number;
  /** First backoff step (default 500 ms), doubled each retry, with jitter. */
  readonly retryBaseMs?: number;
  /** A Retry-After longer than this is not waited for: the caller gets RateLimitedError (default 15 s). */
  readonly maxRetryDelayMs?: number;
  readonly dispatcher?: Dispatcher;
  /** VS Code's http.proxy / http.proxyStrictSSL / http.noProxy; HTTPS_PROXY, HTTP_PROXY and NO_PROXY apply too. */
  readonly proxy?: ProxySettings;
  readonly secrets?: SecretRegistry;
  readonly log?: LogSink;
  /** The least severe level the sink shows (default trace); lines below it are not even built. */
  readonly logLevel?: () => LogLevel | 'off';
  /** Called on every 401, before the error is thrown (the account store flips to "token rejected"). */
  readonly onUnauthorized?: (error: UnauthorizedError) => void;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

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
  return new EnvHttpProxyAgent({
    httpProxy: url ?? env.http_proxy ?? env.HTTP_PROXY,
    httpsProxy: url ?? env.https_proxy ?? env.HTTPS_PROXY,
    noProxy,
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
  });
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the transport's per-attempt timeout. */
  readonly timeoutMs?: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | boolean | undefined>;

export interface Call<T> {
  readonly method: Method;
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  /** How to read a 2xx body; `null` means no body is expected (204 and friends). */
  readonly schema: z.ZodMiniType<T> | null;
}

export interface Answer<T> {
  readonly status: number;
  readonly data: T;
  /** The Retry-After header in milliseconds, when present and readable. */
  readonly retryAfterMs: number | undefined;
}

const LEVEL_ORDER: Record<LogLevel | 'off', number> = {
  trace: 0,
  debug: 1,
  info: 2,
  warn: 3,
  error: 4,
  off: 5,
};
/** Trace lines show at most this much of a body; the cut is made with room to spare before redaction,
 *  so a secret is never split at the edge of what is redacted. */
const TRACE_BODY = 2000;
const SECRET_MARGIN = 1024;
const IDEMPOTENT: ReadonlySet<Method> = new Set(['GET']);
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
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

export class Transport {
  readonly baseUrl: string;
  readonly secrets: SecretRegistry;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly dispatcher: Dispatcher | undefined;

  constructor(private readonly options: TransportOptions) {
    const problem = validateApiUrl(options.baseUrl);
    if (problem) {
      throw new ValidationError(
        problem,
        { method: 'CONFIG', path: 'tensorpool.apiUrl' },
        [{ field: 'apiUrl', message: problem }],
        true,
      );
    }
    this.baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
    this.secrets = options.secrets ?? new SecretRegistry();
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 15_000;
    this.sleep = options.sleep ?? abortableSleep;
    this.dispatcher = options.dispatcher ?? proxyDispatcher(options.proxy);
  }

  async call<T>(call: Call<T>, opts: CallOptions = {}): Promise<Answer<T>> {
    const idempotent = IDEMPOTENT.has(call.method);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call, opts);
      } catch (e) {
        const err = e as TensorPoolError;
        const delay = idempotent && attempt < this.maxRetries ? this.retryDelay(err, attempt) : undefined;
        if (delay === undefined) throw err;
        this.log(
          'debug',
          () =>
            `${call.method} ${call.path}: ${err.message}; retry ${attempt + 1}/${this.maxRetries} in ${delay} ms`,
        );
        try {
          await this.sleep(delay, opts.signal);
        } catch {
          throw new CancelledError('The request was cancelled.', { method: call.method, path: call.path });
        }
      }
    }
  }

  /** Whether (and after how long) a failed idempotent request is worth another try. */
  private retryDelay(err: TensorPoolError, attempt: number): number | undefined {
    const backoff = Math.min(this.retryBaseMs * 2 ** attempt, this.maxRetryDelayMs);
    const jittered = Math.round(backoff * (0.75 + Math.random() * 0.5));
    switch (err.kind) {
      case 'network':
      case 'timeout':
        return jittered;
      case 'rate-limited': {
        const after = (err as RateLimitedError).retryAfterMs;
        if (after === undefined) return jittered;
        return after <= this.maxRetryDelayMs ? after : undefined;
      }
      case 'server':
        return err.status !== undefined && RETRYABLE_STATUS.has(err.status) ? jittered : undefined;
      default:
        return undefined;
    }
  }

  private url(path: string, query?: Query): string {
    let url = this.baseUrl + path;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    if (qs) url += `?${qs}`;
    return url;
  }

  private async once<T>(call: Call<T>, opts: CallOptions): Promise<Answer<T>> {
    const ctx: ErrorContext = { method: call.method, path: call.path };
    if (opts.signal?.aborted) throw new CancelledError('The request was cancelled.', ctx);
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      'x-client-type': 'vscode', // which client this is, as the official CLI sends `cli`
    };
    const token = this.options.getToken();
    if (token) {
      this.secrets.add(token);
      headers.authorization = `Bearer ${token}`;
    }
    let payload: string | undefined;
    if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    const started = Date.now();
    this.log(
      'debug',
      () => `${call.method} ${call.path}${call.query ? ` ${JSON.stringify(call.query)}` : ''}`,
    );
    if (payload) this.log('trace', () => `${call.method} ${call.path} body ${payload}`);

    // The whole attempt (headers and body) races one plain timer. Not an AbortSignal: passing one to
    // undici costs ~30 µs on every request, so a signal goes only when the caller gave one. Not undici's
    // headersTimeout either: it runs on coarse timers (1 s resolution). On a timeout the late answer is
    // still read and dropped in the background, which frees the connection; undici's own timeouts
    // (a little longer) end it if it never comes.
    let responded = false;
    const attempt = (async () => {
      const res = await request(this.url(call.path, call.query), {
        method: call.method,
        headers,
        body: payload,
        ...(opts.signal ? { signal: opts.signal } : {}),
        dispatcher: this.dispatcher,
        headersTimeout: timeoutMs + 1000,
        bodyTimeout: timeoutMs + 1000,
      });
      responded = true;
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    })();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, 'timeout');
    });
    let answer: { status: number; headers: Dispatcher.ResponseData['headers']; text: string };
    try {
      const first = await Promise.race([attempt, timedOut]);
      if (first === 'timeout') {
        attempt.catch(() => undefined);
        const msg = `No answer from ${this.host()} within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}.`;
        throw new TimeoutError(msg, { ...ctx, status: undefined }, timeoutMs, true);
      }
      answer = first;
    } catch (e) {
      if (e instanceof TimeoutError) throw e;
      if (opts.signal?.aborted) throw new CancelledError('The request was cancelled.', ctx);
      const code = errorCode(e);
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw new TimeoutError(
          `No answer from ${this.host()} in time.`,
          { ...ctx, status: undefined },
          timeoutMs,
          true,
        );
      }
      throw this.networkError(e, ctx, responded);
    } finally {
      clearTimeout(timer);
    }
    const { status, headers: responseHeaders, text } = answer;

    const retryAfterMs = parseRetryAfter(header(responseHeaders, 'retry-after'));
    this.log('debug', () => `${call.method} ${call.path} -> ${status} in ${Date.now() - started} ms`);
    this.log(
      'trace',
      () =>
        `${call.method} ${call.path} <- ${snippet(this.secrets.redact(text.slice(0, TRACE_BODY + SECRET_MARGIN)), TRACE_BODY)}`,
    );
    const sctx: ErrorContext = { ...ctx, status };

    if (status >= 200 && status < 300) {
      return { status, retryAfterMs, data: this.parseSuccess(call, text, sctx) };
    }
    throw this.httpError(status, text, header(responseHeaders, 'content-type'), retryAfterMs, sctx);
  }

  private parseSuccess<T>(call: Call<T>, text: string, ctx: ErrorContext): T {
    if (call.schema === null) return undefined as T;
    if (text.trim() === '') {
      throw new BadResponseError(
        `The server answered ${ctx.status} with an empty body where data was expected.`,
        ctx,
        '',
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const s = snippet(this.secrets.redact(text));
      throw new BadResponseError(
        `The server answered ${ctx.status} with something that is not JSON: ${s}`,
        ctx,
        s,
      );
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`)
        .join('; ');
      const s = snippet(this.secrets.redact(text));
      throw new BadResponseError(
        `The server's answer to ${call.method} ${call.path} has an unexpected shape (${where}).`,
        ctx,
        s,
      );
    }
    return parsed.data;
  }

  private httpError(
    status: number,
    text: string,
    contentType: string | undefined,
    retryAfterMs: number | undefined,
    ctx: ErrorContext,
  ): TensorPoolError {
    const body = parseJson(text);
    const detail = body && typeof body === 'object' ? (body as Record<string, unknown>).detail : undefined;
    // Field messages reach the UI on their own (the wizard shows them at their step): mask them too.
    const fieldErrors = Array.isArray(detail)
      ? detailToFieldErrors(detail).map((f) => ({ ...f, message: this.secrets.redact(f.message) }))
      : [];
    let message = serverMessage(body);
    if (message === undefined && fieldErrors.length)
      message = fieldErrors.map((f) => (f.field ? `${f.field}: ${f.message}` : f.message)).join('; ');
    // Mask before shortening: a secret cut in half by the snippet would no longer be recognised.
    if (message === undefined && text.trim() !== '' && body === undefined)
      message = textSnippet(this.secrets.redact(text), contentType);
    const said = message !== undefined ? this.secrets.redact(message) : undefined;
    const snip = snippet(this.secrets.redact(text));
    switch (status) {
      case 401: {
        const err = new UnauthorizedError(said ?? 'The API token is missing, invalid or revoked.', ctx);
        this.options.onUnauthorized?.(err);
        return err;
      }
      case 403:
        return new ForbiddenError(said ?? 'This token is not allowed to do that.', ctx);
      case 404:
        return new NotFoundError(said ?? `Not found: ${ctx.path}.`, ctx);
      case 409:
        return new ConflictError(said ?? 'The request conflicts with the current state.', ctx);
      case 400:
      case 422:
        return new ValidationError(
          said ?? 'The server rejected the request as invalid.',
          ctx,
          fieldErrors,
          false,
        );
      case 429: {
        const wait =
          retryAfterMs !== undefined
            ? ` Try again in ${Math.ceil(retryAfterMs / 1000)} s.`
            : ' Try again shortly.';
        return new RateLimitedError(
          `${(said ?? 'Too many requests').replace(/\.$/, '')}.${wait}`,
          ctx,
          retryAfterMs,
        );
      }
      default:
        if (status >= 500)
          return new ServerError(
            `${said ?? 'The TensorPool service had an internal error'} (HTTP ${status}).`,
            ctx,
          );
        return new BadResponseError(`Unexpected HTTP ${status}${said ? `: ${said}` : ''}.`, ctx, snip);
    }
  }

  private networkError(e: unknown, ctx: ErrorContext, responded: boolean): TensorPoolError {
    const code = errorCode(e);
    const host = this.host();
    const sent = responded || code === undefined || !NOT_SENT_CODES.has(code);
    let message: string;
    const raw = e instanceof Error ? e.message : '';
    const refused = errorEndpoint(e);
    const target = new URL(this.baseUrl);
    const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const viaProxy = this.dispatcher !== undefined && refused !== undefined && refused.port !== targetPort;
    if (viaProxy && code === 'ECONNREFUSED')
      message = `Connection refused by the proxy at ${refused.address}:${refused.port}: check http.proxy or HTTPS_PROXY.`;
    else if (/proxy/i.test(raw) && this.dispatcher)
      message = `The proxy refused or failed the connection to ${host} (${snippet(raw, 80)}). Check http.proxy or HTTPS_PROXY.`;
    else if (code === 'ECONNREFUSED')
      message = `Connection refused by ${host}: is the service (or the local engine) running?`;
    else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      message = `Cannot resolve ${host}: check the API URL and your network or DNS.`;
    else if (code === 'UND_ERR_CONNECT_TIMEOUT')
      message = `Could not connect to ${host} in time: check your network or proxy.`;
    else if (code && TLS_CODES.test(code))
      message = `TLS error talking to ${host} (${code}): the certificate could not be verified. Check http.proxyStrictSSL or your corporate proxy's CA.`;
    else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
      message = `The connection to ${host} was closed before an answer arrived.`;
    else message = `Network error talking to ${host}${code ? ` (${code})` : ''}.`;
    return new NetworkError(this.secrets.redact(message), ctx, code, sent);
  }

  private host(): string {
    try {
      return new URL(this.baseUrl).host;
    } catch {
      return this.baseUrl;
    }
  }

  /** Log a line; a function is only called (and its text only redacted) when the level is shown. */
  log(level: LogLevel, message: string | (() => string)): void {
    const sink = this.options.log;
    if (!sink || LEVEL_ORDER[level] < LEVEL_ORDER[this.options.logLevel?.() ?? 'trace']) return;
    sink(level, this.secrets.redact(typeof message === 'string' ? message : message()));
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

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Retry-After: delta seconds or an HTTP date. Anything else is ignored (callers use their default). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (!Number.isNaN(date) && /[a-z]/i.test(v)) return Math.max(0, date - now);
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error text, from whichever member the server used: message, error, detail (string), external_message. */
export function serverMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object')
    return typeof body === 'string' && body.trim() ? body.trim() : undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'external_message'] as const) {
    const v = b[key];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const nested = serverMessage(v);
      if (nested) return nested;
    }
  }
  return undefined;
}

/** FastAPI's `detail: [{loc: ["body", "num_nodes"], msg, type}]` as per-field messages. */
export function detailToFieldErrors(detail: unknown[]): FieldError[] {
  const out: FieldError[] = [];
  for (const d of detail) {
    if (!d || typeof d !== 'object') continue;
    const item = d as { loc?: unknown; msg?: unknown };
    const loc = Array.isArray(item.loc)
      ? item.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path')
      : [];
    const field = loc.length ? String(loc[0]) : '';
    out.push({ field, message: typeof item.msg === 'string' ? item.msg : 'Invalid value.' });
  }
  return out;
}

function textSnippet(text: string, contentType: string | undefined): string {
  if (/html/i.test(contentType ?? '') || /^\s*</.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const plain = text
      .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
      .replace(/<[^>]+>/g, ' ');
    return snippet(title || plain, 120);
  }
  return snippet(text, 200);
}

export function snippet(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
