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
import type { ServerLink } from './nodeServer';

/** A WebSocket class whose connections carry the token as a header. */
function authWebSocket(token: string): unknown {
  return class extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols, { headers: { Authorization: `token ${token}` }, perMessageDeflate: false });
    }
  };
}

function serverSettings(link: ServerLink): ServerConnection.ISettings {
  const base = `http://127.0.0.1:${link.local}/`;
  return ServerConnection.makeSettings({
    baseUrl: base,
    wsUrl: `ws://127.0.0.1:${link.local}/`,
    token: link.server.token,
    appendToken: false,
    init: {},
    fetch: (...a: Parameters<typeof fetch>) => fetch(...a),
    Request,
    Headers,
    WebSocket: authWebSocket(link.server.token) as typeof globalThis.WebSocket,
  });
}

export interface KernelRecord {
  readonly kernelId: string;
  readonly sessionId?: string;
}

export class KernelSession {
  private constructor(
    readonly link: ServerLink,
    readonly settings: ServerConnection.ISettings,
    readonly kernel: Kernel.IKernelConnection,
    readonly sessionId: string | undefined,
    /** Reattached to a kernel that ran before (its variables are there). */
    readonly reattached: boolean,
  ) {}

  get record(): KernelRecord {
    return { kernelId: this.kernel.id, sessionId: this.sessionId };
  }

  /** Reattach to `previous` when the server still runs it, else start a session for `path`. */
  static async open(
    link: ServerLink,
    path: string,
    previous: KernelRecord | undefined,
  ): Promise<KernelSession> {
    const settings = serverSettings(link);
    if (previous) {
      const model = await KernelAPI.getKernelModel(previous.kernelId, settings).catch(() => undefined);
      if (model) {
        const sessions = await SessionAPI.listRunning(settings).catch(() => []);
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
