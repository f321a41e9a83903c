// The local TensorPool engine's HTTP server (node:http only). Per call:
//   1. read the body; /_engine/* goes to the control surface (loopback only, not logged)
//   2. log the call (redacted), look up a fault for method + path
//   3. optional delay, then the fault's action, or the real handling:
//      route match (404/405) -> auth (401/403) -> handler (validation, domain state) -> Reply
//   4. send the Reply (or not, or half of it), and record the status actually sent.
//
//   import { startEngine } from '../../engine/server';
//   const engine = await startEngine({ port: 0, pendingMs: 20, processingMs: 40 });
//   ... fetch(engine.url + '/cluster/list', { headers: { authorization: `Bearer ${engine.tokens[0]}` } })
//   await engine.close();

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleControl } from './control';
import { startObjectStore } from './objectStore';
import { EngineCore } from './core';
import { NodeManager, type NodesMode } from './nodes';
import { JobRunner } from './jobRunner';
import { attachJobSockets } from './jobSockets';
import type { Fault } from './faults';
import { authError, detail, encodeBody, json, routeNotFound, type Reply } from './http';
import { redactAuthorization, redactor, type LogEntry } from './log';
import { ROUTES, matchRoute, type Route } from './routes';
import { DEFAULT_CONFIG, DEFAULT_TOKEN } from './state';
import type { PriceTable } from './quotes';
import type { SeedName, User } from './types';

export interface EngineOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default for in-process use) picks a free one. */
  port?: number;
  /** Full-access tokens; default [`tp_local_dev_token`]. Token i belongs to user `usr_<i+1>`. */
  tokens?: string[];
  /** Tokens of read-only users (same organisation): 403 on every mutating call. */
  readonlyTokens?: string[];
  seed?: SeedName;
  pendingMs?: number;
  processingMs?: number;
  retryAfterSeconds?: number;
  /** Instance types a create may ask for (default: engine/offered.ts DEFAULT_INSTANCE_TYPES). */
  instanceTypes?: string[];
  /** POST /health refuses clients older than this (default: none). */
  minClientVersion?: string;
  /** Print nothing. In-process use is quiet unless `quiet: false` is passed (the CLI does). */
  quiet?: boolean;
  /** Print one line per handled call to stderr (CLI `--verbose`). */
  verbose?: boolean;
  /** Run a real S3 server (s3rver) on the same host, a free port; the object-storage credentials point at it
   *  (engine/objectStore.ts). CLI `--s3`. */
  s3?: boolean;
  /** The quote routes' price table (engine/quotes.ts; CLI `--prices <file.json>`). */
  prices?: PriceTable;
  /** Real cluster nodes (engine/nodes.ts): 'off' (in-process default: documentation addresses nobody
   *  answers on), 'auto' (the CLI's default: real when sshd is installed, else a warning and 'off'),
   *  'require' (start fails without sshd). CLI `--real-nodes`. */
  nodes?: NodesMode;
  /** Where the nodes' folders go (CLI `--data-dir`); default a temporary folder removed at stop. */
  dataDir?: string;
  /** The nvidia-smi stand-in each GPU node's bin/nvidia-smi runs; default dist/nvidia-smi.js when it exists. */
  nvidiaSmi?: string;
  /** Jobs really run on the cluster's first node (engine/jobRunner.ts). Default: whenever the nodes are real
   *  (true without real nodes refuses to start). false: simulated jobs (made-up log lines at a set pace,
   *  generated outputs, `jobs.extraOutputs`), kept only for what a real process cannot give
   *  deterministically: the client protocol's unit tests (timed lines, exact log shapes), hostile output
   *  paths a real job cannot write, and engines without sshd. CLI `--simulated-jobs`. */
  realJobs?: boolean;
}

export interface RunningEngine {
  url: string;
  port: number;
  tokens: string[];
  readonlyTokens: string[];
  /** The S3 server's endpoint, when started with `s3: true`. */
  s3Endpoint?: string;
  /** The data folder holding `nodes/<instance id>/`, when the engine runs real nodes. */
  dataDir?: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1 << 20;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const READY_PREFIX = 'TensorPool local engine listening on';

export async function startEngine(opts: EngineOptions = {}): Promise<RunningEngine> {
  const tokens = unique(opts.tokens?.length ? opts.tokens : [DEFAULT_TOKEN]);
  const readonlyTokens = unique(opts.readonlyTokens ?? []);
  const both = tokens.filter((t) => readonlyTokens.includes(t));
  if (both.length) throw new Error('a token cannot be both full-access and read-only');
  if ([...tokens, ...readonlyTokens].some((t) => t.trim() === '' || /\s/.test(t)))
    throw new Error('tokens must be non-empty and contain no whitespace');

  const nodes = new NodeManager({
    mode: opts.nodes ?? 'off',
    dataDir: opts.dataDir,
    nvidiaSmi: opts.nvidiaSmi,
  });
  if (opts.realJobs && !nodes.enabled) {
    await nodes.close();
    throw new Error('real jobs need real nodes (sshd); start with real nodes on');
  }
  const jobs = (opts.realJobs ?? nodes.enabled) ? new JobRunner(nodes) : undefined;
  const objectStore = opts.s3 ? await startObjectStore({ host: opts.host }) : undefined;
  const core = new EngineCore({
    nodes,
    jobs,
    objectStore,
    tokens,
    readonlyTokens,
    seed: opts.seed ?? 'none',
    config: {
      ...DEFAULT_CONFIG,
      pendingMs: opts.pendingMs ?? DEFAULT_CONFIG.pendingMs,
      processingMs: opts.processingMs ?? DEFAULT_CONFIG.processingMs,
      retryAfterSeconds: opts.retryAfterSeconds ?? DEFAULT_CONFIG.retryAfterSeconds,
      instanceTypes: opts.instanceTypes?.length ? [...opts.instanceTypes] : DEFAULT_CONFIG.instanceTypes,
      minClientVersion: opts.minClientVersion ?? null,
      ...(opts.prices ? { prices: opts.prices } : {}),
    },
  });
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    readBody(req, (raw, tooLarge) => {
      try {
        serve(core, timers, req, res, raw, tooLarge, opts.verbose === true);
      } catch (err) {
        // Last resort: a bug must not take the engine down.
        process.stderr.write(`engine: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
        if (!res.headersSent) send(res, detail(500, 'Internal Server Error'));
      }
    });
  });
  const sockets = attachJobSockets(server, core, timers);
  // The seed's nodes listen before the engine says it is ready.
  await nodes.settled();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err: unknown) => {
    // Nothing started may outlive a start that failed (port in use).
    sockets.close();
    await objectStore?.close();
    jobs?.close();
    await nodes.close();
    throw err;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(opts.host ?? '127.0.0.1')}:${port}`;
  if (opts.quiet === false) process.stdout.write(`${READY_PREFIX} ${url}\n`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    tokens,
    readonlyTokens,
    s3Endpoint: objectStore?.endpoint,
    dataDir: nodes.dataDir,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        sockets.close();
        server.close(() => resolve());
        // Hung (fault) and keep-alive connections would keep close() waiting forever.
        server.closeAllConnections();
      })
        .then(() => objectStore?.close())
        .then(() => jobs?.close())
        .then(() => nodes.close());
      return closing;
    },
  };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** The address clients should use: a wildcard bind is reachable on loopback. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function isLoopback(address: string | undefined): boolean {
  return (
    address !== undefined &&
    (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
  );
}

function readBody(req: http.IncomingMessage, done: (raw: string, tooLarge: boolean) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => done(tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge));
  req.on('error', () => undefined);
}

function serve(
  core: EngineCore,
  timers: Set<NodeJS.Timeout>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  raw: string,
  tooLarge: boolean,
  verbose: boolean,
): void {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://engine.invalid');
  // FastAPI would redirect /cluster/list/ to /cluster/list; answering it directly is friendlier.
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;

  if (path === '/_engine' || path.startsWith('/_engine/')) {
    if (!isLoopback(req.socket.remoteAddress)) return send(res, routeNotFound());
    const reply = handleControl(core, method, path, url.searchParams, raw);
    // A reset answers once the new seed's nodes listen, so its clusters are RUNNING as before.
    if (path === '/_engine/reset' && core.options.nodes?.enabled)
      return void core.options.nodes.settled().then(() => send(res, reply));
    return send(res, reply);
  }

  const authHeader = req.headers.authorization;
  const entry = logCall(core, method, path, url.searchParams, raw, authHeader, req.headers['user-agent']);
  entry.clientType = header(req.headers['x-client-type']);
  const fault = core.faults.take(method, path);
  if (fault) entry.fault = fault.action;

  const finish = (reply: Reply, mode: 'send' | 'truncate' = 'send'): void => {
    entry.status = reply.status;
    if (verbose)
      process.stderr.write(
        `${method} ${path} -> ${reply.status}${fault ? ` [fault ${fault.action}]` : ''}\n`,
      );
    send(res, reply, mode);
  };
  const handle = (): Reply => {
    if (tooLarge) return detail(413, 'Request body too large');
    const baseUrl = `http://${req.headers.host ?? '127.0.0.1'}`;
    const { reply, user } = dispatch(core, method, path, url.searchParams, raw, authHeader, baseUrl);
    entry.user = user?.uid ?? null;
    return reply;
  };
  const act = (): void => {
    if (res.destroyed || req.socket.destroyed) return; // the client gave up during the delay
    switch (fault?.action) {
      case 'respond':
        return finish(faultReply(fault), 'send');
      case 'drop':
        req.socket.destroy();
        return;
      case 'drop-after':
        handle(); // state changes happen, the answer is lost
        req.socket.destroy();
        return;
      case 'truncate':
        return finish(handle(), 'truncate');
      case 'hang':
        return; // keep the socket open; close() or the client ends it
      default:
        return finish(handle());
    }
  };

  if (fault && fault.delayMs > 0) {
    const t = setTimeout(() => {
      timers.delete(t);
      act();
    }, fault.delayMs);
    timers.add(t);
  } else act();
}

/** Route match -> auth -> handler. Unknown paths are 404 and wrong methods 405 before auth, as in
 *  FastAPI (auth is a per-route dependency there). */
function dispatch(
  core: EngineCore,
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
  authHeader: string | undefined,
  baseUrl: string,
): { reply: Reply; user: User | null } {
  const match = matchRoute(ROUTES, method, path);
  if (match === null) return { reply: routeNotFound(), user: null };
  if ('allowed' in match)
    return {
      reply: json(405, { detail: 'Method Not Allowed' }, { Allow: match.allowed.join(', ') }),
      user: null,
    };
  const route: Route = match.route;
  const base = { state: core.state, params: match.params, query, rawBody, now: Date.now(), baseUrl };
  if (!route.auth) return { reply: route.handle(base), user: null };

  const credential = bearer(authHeader);
  if (credential === null)
    return {
      reply: authError(401, 'Not authenticated: send the header Authorization: Bearer <API token>'),
      user: null,
    };
  const user = core.state.identity.userForToken(credential);
  if (!user) return { reply: authError(401, 'Invalid API token'), user: null };
  if (user.readonly && MUTATING.has(method)) {
    return { reply: authError(403, 'This API token is read-only and cannot change anything'), user };
  }
  return { reply: route.handle({ ...base, user }), user };
}

function header(v: string | string[] | undefined): string | null {
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

function bearer(header: string | undefined): string | null {
  const m = header ? /^\s*bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1] : null;
}

function logCall(
  core: EngineCore,
  method: string,
  path: string,
  query: URLSearchParams,
  raw: string,
  authHeader: string | undefined,
  userAgent: string | undefined,
): LogEntry {
  // Redact the known tokens and whatever the caller presented (an unknown token is still a secret).
  const presented = authHeader?.replace(/^\s*bearer\s+/i, '').trim();
  const redact = redactor(presented ? [...core.secrets(), presented] : core.secrets());
  const rawBody = raw === '' ? null : redact(raw);
  let body: unknown = null;
  if (rawBody !== null) {
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = null;
    }
  }
  const q: Record<string, string> = {};
  for (const [k, v] of query) q[redact(k)] = redact(v);
  return core.log.add({
    time: new Date().toISOString(),
    method,
    path: redact(path),
    query: q,
    body,
    rawBody,
    status: null,
    user: null,
    authorization: redactAuthorization(authHeader),
    userAgent: userAgent ?? null,
    clientType: null,
    fault: null,
  });
}

/** The answer a `respond` fault gives. rawBody is sent verbatim; body is JSON; neither: a detail. */
function faultReply(f: Fault): Reply {
  const headers = { ...f.headers };
  if (f.rawBody !== null) return { status: f.status, headers, raw: f.rawBody, contentType: f.contentType };
  if (f.body !== undefined) return { status: f.status, headers, body: f.body, contentType: f.contentType };
  if (f.status === 204 || f.status === 304) return { status: f.status, headers, contentType: f.contentType };
  return {
    status: f.status,
    headers,
    body: { detail: `Injected fault (${f.status})` },
    contentType: f.contentType,
  };
}

function send(res: http.ServerResponse, reply: Reply, mode: 'send' | 'truncate' = 'send'): void {
  if (res.headersSent || res.destroyed) return;
  const text = reply.raw ?? encodeBody(reply);
  const headers: Record<string, string | number> = {};
  if (reply.raw !== undefined || reply.body !== undefined)
    headers['Content-Type'] = reply.contentType ?? 'application/json';
  Object.assign(headers, reply.headers ?? {});
  if (mode === 'truncate' && Buffer.isBuffer(text) && text.length > 1) {
    // A download cut off mid-body: the full Content-Length is announced, half is sent, the socket dies.
    res.writeHead(reply.status, { ...headers, 'Content-Length': text.length });
    res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.destroy());
    return;
  }
  if (mode === 'truncate' && text.length > 1) {
    // No Content-Length: the response is chunked and ends cleanly, so the client receives a complete
    // HTTP answer whose JSON is cut in half (a parse error, not a network error).
    res.writeHead(reply.status, headers);
    res.end(text.slice(0, Math.floor(text.length / 2)));
    return;
  }
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}
