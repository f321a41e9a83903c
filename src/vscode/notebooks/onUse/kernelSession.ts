/**
 * An IPython kernel on a node's Jupyter server, through `@jupyterlab/services` (the Jupyter Server REST API
 * and the kernel WebSocket protocol): a session for the notebook's path (its folder is the kernel's working
 * folder) started, or an existing kernel reattached by id. In Node the client gets fetch from Node itself and
 * a WebSocket from `ws`, which sends the token in the Authorization header (never in a URL).
 */
import {
  KernelAPI,
  KernelConnection,
  ServerConnection,
  SessionAPI,
  type Kernel,
  type KernelMessage,
} from '@jupyterlab/services';
import * as vscode from 'vscode';
import WebSocket from 'ws';
import type { Prompter } from '../../../wizards/prompter';
import { NotebookServerError, type ServerLink } from './nodeServer';

/** A WebSocket class whose connections carry the token as a header. */
function authWebSocket(token: string): unknown {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { Authorization: `token ${token}` }, perMessageDeflate: false });
    }
  };
}

/** How long one REST request to the server may take (a hung port ends here, said as such). */
const REQUEST_MS = 30_000;

/** Why the last request of a session's settings was aborted (the client library keeps only a message). */
interface Guard {
  readonly signal?: AbortSignal;
  aborted?: 'timeout' | 'cancelled';
}

function serverSettings(link: ServerLink, guard: Guard = {}): ServerConnection.ISettings {
  const base = `http://127.0.0.1:${link.local}/`;
  return ServerConnection.makeSettings({
    baseUrl: base,
    wsUrl: `ws://127.0.0.1:${link.local}/`,
    token: link.server.token,
    appendToken: false,
    init: {},
    fetch: async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const timeout = AbortSignal.timeout(REQUEST_MS);
      const signal = guard.signal ? AbortSignal.any([guard.signal, timeout]) : timeout;
      try {
        return await fetch(input, { ...init, signal });
      } catch (e) {
        if (guard.signal?.aborted) guard.aborted = 'cancelled';
        else if (timeout.aborted) guard.aborted = 'timeout';
        throw e;
      }
    },
    Request,
    Headers,
    WebSocket: authWebSocket(link.server.token) as typeof globalThis.WebSocket,
  });
}

export interface KernelRecord {
  readonly kernelId: string;
  readonly sessionId?: string;
}

/** The kernel's states while Jupyter starts it (again). */
const STARTING = new Set<string>(['starting', 'restarting', 'autorestarting']);
/** How long a run waiting for a restarted kernel lets it say nothing before asking it for its info. */
const ASK_MS = 500;

export class KernelSession {
  /** Jupyter is starting the kernel again (it died, or Restart) and our connection is not back with it yet. */
  private restarting = false;
  private readonly backWaiters = new Set<() => void>();
  private asking: NodeJS.Timeout | undefined;

  private constructor(
    readonly link: ServerLink,
    readonly settings: ServerConnection.ISettings,
    readonly kernel: Kernel.IKernelConnection,
    readonly sessionId: string | undefined,
    /** Reattached to a kernel that ran before (its variables are there). */
    readonly reattached: boolean,
  ) {
    // After a restart the client library reconnects (status `unknown` meanwhile) and sends what was asked in
    // between once the new kernel answered its kernel_info request, or after 3 s without an answer: a request
    // can then meet a kernel whose IOPub does not reach us yet, and never end. The kernel is back when it says
    // idle or busy (IOPub) on a connection. When it restarted before our connection was back, its first
    // statuses are gone and it says nothing more until asked (the reply to the library's request can come
    // while IOPub is not connected yet): so while a run waits, it is asked for its info (ASK_MS apart), and
    // the statuses around the answer say when IOPub is there.
    const isBack = () =>
      (kernel.status === 'idle' || kernel.status === 'busy') && kernel.connectionStatus === 'connected';
    kernel.statusChanged.connect((_, status) => {
      if (STARTING.has(status)) this.restarting = true;
      else if (status === 'dead' || isBack()) this.settle();
    });
    kernel.connectionStatusChanged.connect(() => {
      if (this.restarting && isBack()) this.settle();
    });
  }

  private settle(): void {
    this.restarting = false;
    if (this.asking) clearTimeout(this.asking);
    this.asking = undefined;
    for (const w of [...this.backWaiters]) w();
  }

  /** While a run waits for the kernel: ask it for its info, again every ASK_MS, until it is back. */
  private ask(): void {
    if (this.asking || !this.restarting) return;
    this.asking = setTimeout(() => {
      this.asking = undefined;
      if (!this.restarting || this.kernel.isDisposed || this.backWaiters.size === 0) return;
      if (this.kernel.connectionStatus === 'connected')
        this.kernel.requestKernelInfo().catch(() => undefined); // its busy and idle settle it
      this.ask();
    }, ASK_MS);
  }

  /** Jupyter is starting the kernel (again), or our connection to the new one is not back yet. */
  get starting(): boolean {
    return this.restarting || STARTING.has(this.kernel.status);
  }

  /** Resolves when the kernel is back after a (re)start, or at once when it is not starting. */
  back(): { done: Promise<void>; dispose(): void } {
    if (!this.starting) return { done: Promise.resolve(), dispose: () => undefined };
    let waiter: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      waiter = () => {
        this.backWaiters.delete(waiter);
        resolve();
      };
      this.backWaiters.add(waiter);
      this.ask();
    });
    return { done, dispose: () => this.backWaiters.delete(waiter) };
  }

  get record(): KernelRecord {
    return { kernelId: this.kernel.id, sessionId: this.sessionId };
  }

  /** Reattach to `previous` when the server still runs it, else start a session for `path`. */
  static async open(
    link: ServerLink,
    path: string,
    previous: KernelRecord | undefined,
    signal?: AbortSignal,
  ): Promise<KernelSession> {
    const guard: Guard = { signal };
    try {
      return await KernelSession.attach(link, path, previous, serverSettings(link, guard));
    } catch (e) {
      throw serverFailure(e, link, guard);
    }
  }

  private static async attach(
    link: ServerLink,
    path: string,
    previous: KernelRecord | undefined,
    settings: ServerConnection.ISettings,
  ): Promise<KernelSession> {
    if (previous) {
      const model = await KernelAPI.getKernelModel(previous.kernelId, settings).catch(answered(undefined));
      if (model) {
        const sessions = await SessionAPI.listRunning(settings).catch(answered([]));
        const session = sessions.find((s) => s.kernel?.id === model.id);
        return new KernelSession(link, settings, connect(model, settings), session?.id, true);
      }
    }
    const sessions = await SessionAPI.listRunning(settings);
    const same = sessions.find((s) => s.path === path && s.kernel);
    if (same?.kernel) return new KernelSession(link, settings, connect(same.kernel, settings), same.id, true);
    const name = path.split('/').pop() ?? path;
    const model = await SessionAPI.startSession(
      { path, name, type: 'notebook', kernel: { name: 'python3' } },
      settings,
    );
    if (!model.kernel) throw new Error(vscode.l10n.t('The Jupyter server started no kernel.'));
    return new KernelSession(link, settings, connect(model.kernel, settings), model.id, false);
  }

  async interrupt(): Promise<void> {
    await this.kernel.interrupt();
  }

  async restart(): Promise<void> {
    await this.kernel.restart();
  }

  /** Shut the kernel down on the server (its session goes with it). */
  async shutdown(): Promise<void> {
    if (this.sessionId)
      await SessionAPI.shutdownSession(this.sessionId, this.settings).catch(() => undefined);
    await this.kernel.shutdown().catch(() => undefined);
    this.kernel.dispose();
  }

  /** Drop our connection; the kernel runs on. */
  dispose(): void {
    this.kernel.dispose();
  }

  execute(
    code: string,
  ): Kernel.IShellFuture<KernelMessage.IExecuteRequestMsg, KernelMessage.IExecuteReplyMsg> {
    return this.kernel.requestExecute({ code, allow_stdin: true, stop_on_error: true, store_history: true });
  }
}

function connect(model: Kernel.IModel, serverSettings: ServerConnection.ISettings): Kernel.IKernelConnection {
  return new KernelConnection({ model, serverSettings, handleComms: false, username: 'tensorpool' });
}

/** `input()` in a cell: an input box (a password box for getpass); Escape interrupts the cell. */
export async function askInput(
  prompts: () => Prompter,
  session: KernelSession,
  m: KernelMessage.IStdinMessage,
): Promise<void> {
  if (m.header.msg_type !== 'input_request') return;
  const content = m.content as KernelMessage.IInputRequestMsg['content'];
  const answer = await prompts().input({
    title: vscode.l10n.t('Input for the running cell'),
    step: 1,
    totalSteps: 1,
    canGoBack: false,
    prompt: content.prompt || vscode.l10n.t('The cell asks for input'),
    password: content.password,
    value: '',
    validate: () => undefined,
  });
  session.kernel.sendInputReply(
    { status: 'ok', value: answer.kind === 'value' ? answer.value : '' },
    m.header as KernelMessage.IInputReplyMsg['parent_header'],
  );
  if (answer.kind !== 'value') await session.interrupt().catch(() => undefined);
}

/** A fallback for an error the server answered with; anything else (no answer, a timeout) goes on. */
function answered<T>(fallback: T): (e: unknown) => T {
  return (e) => {
    if (e instanceof ServerConnection.ResponseError) return fallback;
    throw e;
  };
}

/** What went wrong talking to the server, said without anything it sent that could hold a secret. */
function serverFailure(e: unknown, link: ServerLink, guard: Guard): Error {
  if (e instanceof NotebookServerError) return e;
  const node = link.target.node;
  if (guard.aborted === 'cancelled')
    return new NotebookServerError('cancelled', vscode.l10n.t('Connecting to node {0} was cancelled.', node));
  if (guard.aborted === 'timeout')
    return new NotebookServerError(
      'timeout',
      vscode.l10n.t(
        'Jupyter on node {0} did not answer within {1} seconds. Run the cell again; if it still hangs, use TensorPool: Stop Jupyter on Node and run again to start a fresh server.',
        node,
        REQUEST_MS / 1000,
      ),
    );
  const response = e instanceof ServerConnection.ResponseError ? e.response : undefined;
  const status = response?.status;
  if (status === 401 || status === 403)
    return new NotebookServerError(
      'auth',
      vscode.l10n.t(
        'Jupyter on node {0} refused the token TensorPool holds for it (HTTP {1}): it is not the server TensorPool started. Use TensorPool: Stop Jupyter on Node, then run the cell again to start a fresh one.',
        node,
        status,
      ),
    );
  const html = /html/i.test(response?.headers.get('content-type') ?? '');
  if (
    html ||
    e instanceof SyntaxError ||
    (response && !/json/i.test(response.headers.get('content-type') ?? ''))
  )
    return new NotebookServerError(
      'notJupyter',
      vscode.l10n.t(
        'What answers on the Jupyter port of node {0} is not a Jupyter server ({1}). Use TensorPool: Stop Jupyter on Node, then run the cell again to start a fresh one.',
        node,
        status
          ? vscode.l10n.t('HTTP {0}{1}', status, html ? vscode.l10n.t(' with an HTML page') : '')
          : vscode.l10n.t('an answer that is not JSON'),
      ),
    );
  if (e instanceof ServerConnection.NetworkError)
    return new NotebookServerError(
      'tunnel',
      vscode.l10n.t('The connection to Jupyter on node {0} failed: {1}', node, e.message),
    );
  return new NotebookServerError(
    'serverFailed',
    vscode.l10n.t(
      'Jupyter on node {0} could not start the kernel{1}: {2}',
      node,
      status ? ` (HTTP ${status})` : '',
      (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 300),
    ),
  );
}
