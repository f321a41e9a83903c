/**
 * The HTTP transport under the client: one place for the base URL rule, auth header, user agent,
 * the per-attempt timeout and cancellation, and redacted logging. What it delegates: the proxy
 * (proxy.ts), when to retry (retry.ts), reading answers (parse.ts, statusErrors.ts) and what went
 * wrong when none came (diagnose.ts).
 */
import type { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { validateApiUrl } from '../model/validate';
import { cancelledError, failureError, timeoutError } from './diagnose';
import { UnauthorizedError, ValidationError, type ErrorContext, type TensorPoolError } from './errors';
import { levelShows, type LogLevel, type LogSink } from './log';
import { parseSuccess, snippet } from './parse';
import { outboundDispatcher, type ProxySettings } from './proxy';
import { SecretRegistry } from './redact';
import { abortableSleep, isIdempotent, parseRetryAfter, retryDelay, type RetryPolicy } from './retry';
import { statusError } from './statusErrors';
import { request } from './undici';

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
  /** VS Code's http.proxy / proxyStrictSSL / noProxy / proxyAuthorization / systemCertificates; HTTPS_PROXY,
   *  HTTP_PROXY and NO_PROXY apply too. */
  readonly proxy?: ProxySettings;
  readonly secrets?: SecretRegistry;
  readonly log?: LogSink;
  /** The least severe level the sink shows (default trace); lines below it are not even built. */
  readonly logLevel?: () => LogLevel | 'off';
  /** Called on every 401, before the error is thrown (the account store flips to "token rejected"). */
  readonly onUnauthorized?: (error: UnauthorizedError) => void;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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

/** Trace lines show at most this much of a body; the cut is made with room to spare before redaction,
 *  so a secret is never split at the edge of what is redacted. */
const TRACE_BODY = 2000;
const SECRET_MARGIN = 1024;

type RawAnswer = { status: number; headers: Dispatcher.ResponseData['headers']; text: string };

export class Transport {
  readonly baseUrl: string;
  readonly secrets: SecretRegistry;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Made on the first request (the system certificates are read then, once per session). */
  private dispatcher: Promise<Dispatcher | undefined> | undefined;
  private ownDispatcher: Promise<Dispatcher | undefined> | undefined;

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
    this.retry = {
      maxRetries: options.maxRetries ?? 3,
      retryBaseMs: options.retryBaseMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 15_000,
    };
    this.sleep = options.sleep ?? abortableSleep;
    // The Proxy-Authorization value is a secret: masked wherever it could show (a proxy's error page).
    const proxyAuth = options.proxy?.authorization?.trim();
    this.secrets.add(proxyAuth);
    this.secrets.add(proxyAuth?.replace(/^\S+\s+/, ''));
  }

  async call<T>(call: Call<T>, opts: CallOptions = {}): Promise<Answer<T>> {
    const idempotent = isIdempotent(call.method);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(call, opts);
      } catch (e) {
        const err = e as TensorPoolError;
        const delay = idempotent ? retryDelay(err, attempt, this.retry) : undefined;
        if (delay === undefined) throw err;
        this.log(
          'debug',
          () =>
            `${call.method} ${call.path}: ${err.message}; retry ${attempt + 1}/${this.retry.maxRetries} in ${delay} ms`,
        );
        try {
          await this.sleep(delay, opts.signal);
        } catch {
          throw cancelledError({ method: call.method, path: call.path });
        }
      }
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
    if (opts.signal?.aborted) throw cancelledError(ctx);
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
    const dispatcher = await this.serviceDispatcher();
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
    const attempt = (async (): Promise<RawAnswer> => {
      const res = await request(this.url(call.path, call.query), {
        method: call.method,
        headers,
        body: payload,
        ...(opts.signal ? { signal: opts.signal } : {}),
        dispatcher,
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
    let answer: RawAnswer | 'timeout';
    try {
      answer = await Promise.race([attempt, timedOut]);
    } catch (e) {
      throw failureError(e, ctx, {
        baseUrl: this.baseUrl,
        viaDispatcher: dispatcher !== undefined,
        responded,
        timeoutMs,
        signal: opts.signal,
        secrets: this.secrets,
      });
    } finally {
      clearTimeout(timer);
    }
    if (answer === 'timeout') {
      attempt.catch(() => undefined);
      throw timeoutError(ctx, this.baseUrl, timeoutMs);
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
      return { status, retryAfterMs, data: parseSuccess(call, text, sctx, this.secrets) };
    }
    const err = statusError(
      { status, text, contentType: header(responseHeaders, 'content-type'), retryAfterMs },
      sctx,
      this.secrets,
    );
    if (err instanceof UnauthorizedError) this.options.onUnauthorized?.(err);
    throw err;
  }

  /** The proxy/TLS dispatcher (undefined: undici's default), for requests to any URL outside call() such as
   *  presigned downloads. */
  outboundDispatcher(): Promise<Dispatcher | undefined> {
    this.dispatcher ??= this.options.dispatcher
      ? Promise.resolve(this.options.dispatcher)
      : outboundDispatcher(this.options.proxy);
    return this.dispatcher;
  }

  /** The dispatcher for the service itself (call() and the job WebSockets): the system certificates are read
   *  only when TLS is on the way to it. */
  private serviceDispatcher(): Promise<Dispatcher | undefined> {
    this.ownDispatcher ??= this.options.dispatcher
      ? Promise.resolve(this.options.dispatcher)
      : outboundDispatcher(this.options.proxy, process.env, this.baseUrl);
    return this.ownDispatcher;
  }

  /** What a WebSocket to `path` needs (src/api/jobSocket.ts): its ws(s):// URL, never carrying the token; the
   *  token, for the first message only; the proxy/TLS dispatcher; the user agent. */
  async socketTarget(path: string): Promise<{
    url: string;
    token: string | undefined;
    dispatcher: Dispatcher | undefined;
    userAgent: string;
  }> {
    const dispatcher = await this.serviceDispatcher();
    const token = this.options.getToken();
    if (token) this.secrets.add(token);
    const url = this.baseUrl.replace(/^http(s?):/i, 'ws$1:') + path;
    return { url, token, dispatcher, userAgent: this.options.userAgent };
  }

  /** The proxy settings for a worker thread that opens the same sockets itself (undefined when the caller
   *  gave its own dispatcher, which cannot cross threads). */
  socketProxy(): { proxy: ProxySettings | undefined } | undefined {
    return this.options.dispatcher ? undefined : { proxy: this.options.proxy };
  }

  /** Log a line; a function is only called (and its text only redacted) when the level is shown. */
  log(level: LogLevel, message: string | (() => string)): void {
    const sink = this.options.log;
    if (!sink || !levelShows(level, this.options.logLevel?.() ?? 'trace')) return;
    sink(level, this.secrets.redact(typeof message === 'string' ? message : message()));
  }
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
