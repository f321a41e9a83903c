/**
 * The parts of undici the client uses (request, EnvHttpProxyAgent), required from undici's own files.
 * undici's index loads all of undici while it loads: fetch, WebSocket, the caches, the mocks,
 * EventSource, and Node's zlib, dns, worker_threads and readline behind them; that was most of
 * what the first use of the API layer cost in a fresh process. These are the same files the index
 * uses, set up the way it sets them up (the same classes, the global dispatcher undici keeps on
 * globalThis), so requests go out exactly as before. test/unit/api/undiciParts.test.ts checks the
 * paths against the installed undici.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- undici's own files have no typings */
import type * as Undici from 'undici';

type RequestOptions = NonNullable<Parameters<typeof Undici.request>[1]>;
type ApiRequest = (
  this: Undici.Dispatcher,
  opts: Record<string, unknown>,
) => Promise<Undici.Dispatcher.ResponseData>;

interface Parts {
  readonly apiRequest: ApiRequest;
  readonly parseURL: (url: string) => URL;
  readonly getGlobalDispatcher: () => Undici.Dispatcher;
}

let parts: Parts | undefined;

function load(): Parts {
  if (parts) return parts;
  const api = require('undici/lib/api/index.js') as { request: ApiRequest };
  // What undici's index does first: dispatchers get request/stream/pipeline/connect/upgrade as methods
  // (a proxy tunnel is opened with connect()).
  const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
  Object.assign(Dispatcher.prototype, api);
  return (parts = {
    apiRequest: api.request,
    parseURL: (require('undici/lib/core/util.js') as Pick<Parts, 'parseURL'>).parseURL,
    getGlobalDispatcher: (require('undici/lib/global.js') as Pick<Parts, 'getGlobalDispatcher'>)
      .getGlobalDispatcher,
  });
}

/**
 * undici's request() for a string URL, as its index builds it around lib/api/api-request.js: origin
 * and path from the URL, the given dispatcher or else the global one.
 */
export function request(url: string, opts: RequestOptions = {}): Promise<Undici.Dispatcher.ResponseData> {
  const { apiRequest, parseURL, getGlobalDispatcher } = load();
  const parsed = parseURL(url);
  const dispatcher = opts.dispatcher ?? getGlobalDispatcher();
  return apiRequest.call(dispatcher, {
    ...opts,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

/** undici's EnvHttpProxyAgent (loaded only when a proxy or relaxed TLS is in use). */
export function envHttpProxyAgent(
  options: ConstructorParameters<typeof Undici.EnvHttpProxyAgent>[0],
): Undici.Dispatcher {
  load();
  const Agent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;
  return new Agent(options);
}

/** undici's WebSocket and ping, for the job sockets, loaded on the first job socket only: the file undici's
 *  index takes them from (with the fetch machinery the handshake uses), not the index and all it loads
 *  (about a third less to load on the first job socket). */
export function webSockets(): Pick<typeof Undici, 'WebSocket' | 'ping'> {
  return require('undici/lib/web/websocket/websocket.js') as Pick<typeof Undici, 'WebSocket' | 'ping'>;
}
