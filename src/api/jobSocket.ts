/**
 * The two job WebSockets (spec "Jobs", undici's WebSocket). The token goes only in the first message,
 * `{"TENSORPOOL_KEY": token}`; never in the URL, a header or a log line.
 *
 *   pushJob: sends the job file's text; runs each `command` the service asks for through the caller's
 *   runCommand (which owns trust, consent and where it runs) and reports `command_result`. Close 1000 =
 *   submitted; 1006 = the outcome is unknown (never resubmitted here: the caller offers the job list);
 *   any other code = refused, the reason is the service's message. Never retried.
 *   listenJob: one connection to /job/listen/{id}: every `{message?, status?}` to onMessage, then how it
 *   ended. Reconnecting (followJob, jobFollow.ts) is a listen again, never a push.
 * Like the official client, a ping goes out every 5 s (keeps proxies and NATs from dropping a quiet
 * stream). A peer that answers neither with a message nor a pong (undici reports pongs on its
 * `undici:websocket:pong` diagnostics channel) for two ping intervals is taken as gone: the socket ends
 * as 1006 (push: outcome unknown; listen: followJob reconnects) instead of waiting forever.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { CloseEvent, Dispatcher, MessageEvent, WebSocket as UndiciWebSocket } from 'undici';
import * as l10n from '@vscode/l10n';
import type { LogLevel } from './log';
import { webSockets } from './undici';

/** What a socket needs from its side: the Transport, or the log reader's stand-in in a worker thread. */
export interface SocketHost {
  socketTarget(path: string): Promise<{
    url: string;
    token: string | undefined;
    dispatcher: Dispatcher | undefined;
    userAgent: string;
  }>;
  log(level: LogLevel, message: string): void;
  readonly secrets: { redact(text: string): string };
}

export type JobOs = 'Linux' | 'Darwin' | 'Windows';

export interface PushRequest {
  /** The job file's raw text (the service validates it). */
  readonly tpConfig: string;
  /** Python's platform.system() spelling, as the official client sends. */
  readonly system: JobOs;
  readonly clusterId: string;
  /** Destroy the cluster when the job ends. */
  readonly teardown: boolean;
}

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface PushMessage {
  readonly message?: string;
  readonly jobId?: string;
  /** A command the service asks to run locally (shown before it runs). */
  readonly command?: string;
  readonly showStdout?: boolean;
}

export interface PushHandlers {
  readonly onMessage?: (m: PushMessage) => void;
  /** Run a service-sent command (in the job file's folder, after consent). A throw counts as exit 1. */
  readonly runCommand: (command: string, opts: { showStdout: boolean }) => Promise<CommandResult>;
  readonly signal?: AbortSignal;
}

export type PushOutcome =
  | { readonly kind: 'submitted'; readonly jobId: string | undefined }
  /** 1006 (or cancelled after sending): the job may or may not exist. Check the job list; never resubmit blindly. */
  | { readonly kind: 'unknown'; readonly jobId: string | undefined; readonly reason: string }
  | {
      readonly kind: 'refused';
      readonly code: number;
      readonly reason: string;
      readonly jobId: string | undefined;
    }
  /** The connection never opened: nothing was sent, so nothing happened. */
  | { readonly kind: 'not-sent'; readonly reason: string };

export interface ListenMessage {
  readonly message?: string;
  readonly status?: string;
}

export type ListenOutcome =
  | { readonly kind: 'success' | 'error'; readonly message: string | undefined }
  /** Closed without a final status (1006 = connection lost): the job may still be running. */
  | { readonly kind: 'ended'; readonly code: number; readonly reason: string; readonly opened: boolean }
  | { readonly kind: 'cancelled' };

export interface SocketOptions {
  /** Ping interval (default 5000 ms, as the official client). */
  readonly pingMs?: number;
  /** Give up (close, outcome 'ended' 1006) after this long without a message; default none. */
  readonly idleTimeoutMs?: number;
  /** Give up (as 1006) after this long without a message or a pong; default two ping intervals. */
  readonly deadAfterMs?: number;
}

/** When each open socket last had a pong (undici publishes them on a diagnostics channel). */
const lastPong = new WeakMap<object, number>();
let watchingPongs = false;
function watchPongs(): void {
  if (watchingPongs) return;
  watchingPongs = true;
  subscribe('undici:websocket:pong', (m) => {
    const ws = (m as { websocket?: object } | undefined)?.websocket;
    if (ws) lastPong.set(ws, Date.now());
  });
}

/** The `system` a push sends (Python's platform.system() spelling) for a Node platform. */
export function pushSystem(platform: NodeJS.Platform = process.platform): JobOs {
  return platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'Darwin' : 'Linux';
}

const unknownReason = (): string =>
  l10n.t(
    'The connection was lost during the submission: the job may or may not exist. Check the job list before submitting again.',
  );

interface Conn {
  readonly ws: UndiciWebSocket;
  readonly send: (obj: unknown) => void;
  readonly ended: Promise<{ code: number; reason: string; opened: boolean }>;
}

/** Open `path` (through the client's proxy/TLS dispatcher), send the token as the first message, hand every
 *  parsed message to onData. */
async function connect(
  transport: SocketHost,
  path: string,
  onData: (data: Record<string, unknown>, conn: Conn) => void,
  opts: SocketOptions & { signal?: AbortSignal },
): Promise<Conn> {
  const target = await transport.socketTarget(path);
  const { WebSocket, ping } = webSockets();
  const ws = new WebSocket(target.url, {
    dispatcher: target.dispatcher,
    headers: { 'user-agent': target.userAgent, 'x-client-type': 'vscode' },
  });
  ws.binaryType = 'arraybuffer';
  watchPongs();
  let opened = false;
  let heard = 0;
  let timer: NodeJS.Timeout | undefined;
  let idle: NodeJS.Timeout | undefined;
  let finish: (r: { code: number; reason: string; opened: boolean }) => void = () => undefined;
  const send = (obj: unknown) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  };
  const touch = () => {
    if (!opts.idleTimeoutMs) return;
    clearTimeout(idle);
    idle = setTimeout(() => ws.close(4000, 'idle'), opts.idleTimeoutMs);
  };
  const pingMs = opts.pingMs ?? 5000;
  const deadMs = opts.deadAfterMs ?? 2 * pingMs;
  const conn: Conn = {
    ws,
    send,
    ended: new Promise((resolve) => {
      let done = false;
      finish = (r) => {
        if (done) return;
        done = true;
        clearInterval(timer);
        clearTimeout(idle);
        opts.signal?.removeEventListener('abort', abort);
        resolve(r);
      };
      ws.addEventListener('open', () => {
        opened = true;
        heard = Date.now();
        transport.log('debug', `WebSocket ${path} open`);
        ws.send(JSON.stringify({ TENSORPOOL_KEY: target.token ?? '' }));
        timer = setInterval(() => {
          if (ws.readyState !== WebSocket.OPEN) return;
          const quiet = Date.now() - Math.max(heard, lastPong.get(ws) ?? 0);
          if (quiet < deadMs) return ping(ws);
          const reason = l10n.t(
            'No answer from TensorPool for {0} s: the connection seems lost.',
            Math.round(quiet / 1000),
          );
          transport.log('debug', `WebSocket ${path}: ${reason}`);
          ws.close(4000, 'no answer');
          finish({ code: 1006, reason, opened }); // a dead peer may never finish the closing handshake
        }, pingMs);
        touch();
      });
      ws.addEventListener('message', (e: MessageEvent) => {
        heard = Date.now();
        touch();
        let data: unknown;
        try {
          data = JSON.parse(
            typeof e.data === 'string' ? e.data : Buffer.from(e.data as ArrayBuffer).toString(),
          );
        } catch {
          return transport.log('warn', `WebSocket ${path}: a message that is not JSON was ignored`);
        }
        if (data && typeof data === 'object' && !Array.isArray(data))
          onData(data as Record<string, unknown>, conn);
      });
      ws.addEventListener('error', () => undefined);
      ws.addEventListener('close', (e: CloseEvent) => {
        const reason = transport.secrets.redact(e.reason ?? '');
        transport.log('debug', `WebSocket ${path} closed ${e.code}${reason ? ` (${reason})` : ''}`);
        finish({ code: e.code === 4000 && reason === 'idle' ? 1006 : e.code, reason, opened });
      });
    }),
  };
  // eslint-disable-next-line tensorpool/l10n -- the WebSocket close reason, sent to the service
  const abort = () => ws.close(1000, 'cancelled by the user');
  opts.signal?.addEventListener('abort', abort, { once: true });
  if (opts.signal?.aborted) abort();
  return conn;
}

/** Submit a job over /job/push (see the file comment). Never retried. */
export async function pushJob(
  transport: SocketHost,
  req: PushRequest,
  handlers: PushHandlers,
  opts: SocketOptions = {},
): Promise<PushOutcome> {
  let jobId: string | undefined;
  let chain = Promise.resolve();
  const conn = await connect(
    transport,
    '/job/push',
    (data, c) => {
      if (typeof data.job_id === 'string' && data.job_id && !jobId) jobId = data.job_id;
      const command = typeof data.command === 'string' ? data.command : undefined;
      const showStdout = data.command_show_stdout === true;
      handlers.onMessage?.({
        message: typeof data.message === 'string' ? data.message : undefined,
        jobId: typeof data.job_id === 'string' ? data.job_id : undefined,
        command,
        showStdout,
      });
      if (!command?.trim()) return;
      // Commands run one at a time, in the order the service sent them.
      chain = chain.then(async () => {
        let result: CommandResult;
        try {
          result = await handlers.runCommand(command, { showStdout });
        } catch (err) {
          result = { exitCode: 1, stdout: '', stderr: err instanceof Error ? err.message : String(err) };
        }
        c.send({
          type: 'command_result',
          command,
          exit_code: result.exitCode,
          command_stdout: result.stdout,
          command_stderr: result.stderr,
        });
      });
    },
    { ...opts, signal: handlers.signal },
  );
  conn.ws.addEventListener('open', () =>
    conn.send({
      tp_config: req.tpConfig,
      system: req.system,
      cluster_id: req.clusterId,
      teardown_cluster: req.teardown,
    }),
  );
  const { code, reason, opened } = await conn.ended;
  if (!opened)
    return { kind: 'not-sent', reason: l10n.t('Could not connect to TensorPool to submit the job.') };
  if (handlers.signal?.aborted)
    return { kind: 'unknown', jobId, reason: l10n.t('The submission was cancelled.') };
  if (code === 1000) return { kind: 'submitted', jobId };
  if (code === 1006 || code === 1005) return { kind: 'unknown', jobId, reason: unknownReason() };
  return {
    kind: 'refused',
    code,
    reason: reason || l10n.t('The service closed the connection (code {0}).', code),
    jobId,
  };
}

/** One connection to /job/listen/{id} (see the file comment). */
export async function listenJob(
  transport: SocketHost,
  jobId: string,
  handlers: { onMessage: (m: ListenMessage) => void; signal?: AbortSignal },
  opts: SocketOptions = {},
): Promise<ListenOutcome> {
  let final: { kind: 'success' | 'error'; message: string | undefined } | undefined;
  const conn = await connect(
    transport,
    `/job/listen/${encodeURIComponent(jobId)}`,
    (data, c) => {
      const message = typeof data.message === 'string' ? data.message : undefined;
      const status = typeof data.status === 'string' ? data.status : undefined;
      handlers.onMessage({ message, status });
      if ((status === 'success' || status === 'error') && !final) {
        final = { kind: status, message };
        c.ws.close(1000); // as the official client: the final status ends the stream
      }
    },
    { ...opts, signal: handlers.signal },
  );
  const { code, reason, opened } = await conn.ended;
  if (final) return final;
  if (handlers.signal?.aborted) return { kind: 'cancelled' };
  return { kind: 'ended', code, reason, opened };
}
