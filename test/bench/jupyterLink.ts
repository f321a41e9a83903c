// The bench's own connections to the notebook's Jupyter server (issue 42): the same client library the
// extension uses (@jupyterlab/services, with fetch from Node and a `ws` WebSocket that sends the token in a
// header, as src/vscode/notebooks/onUse/kernelSession.ts does), for the plain client (./notebookClient.ts, a
// Node process of its own) and the minimal controller (./host/notebookReference.ts, in the extension host).
import { KernelAPI, KernelConnection, ServerConnection, type Kernel } from '@jupyterlab/services';
import WebSocket from 'ws';

export interface Link {
  port: number;
  token: string;
}

export function settings(link: Link): ServerConnection.ISettings {
  const token = link.token;
  return ServerConnection.makeSettings({
    baseUrl: `http://127.0.0.1:${link.port}/`,
    wsUrl: `ws://127.0.0.1:${link.port}/`,
    token,
    appendToken: false,
    init: {},
    fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => fetch(input, init),
    Request,
    Headers,
    WebSocket: class extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { headers: { Authorization: `token ${token}` }, perMessageDeflate: false });
      }
    } as unknown as typeof globalThis.WebSocket,
  });
}

export function connected(kernel: Kernel.IKernelConnection): Promise<void> {
  if (kernel.connectionStatus === 'connected') return Promise.resolve();
  return new Promise((resolve) => {
    const on = (_: unknown, s: Kernel.ConnectionStatus) => {
      if (s !== 'connected') return;
      kernel.connectionStatusChanged.disconnect(on);
      resolve();
    };
    kernel.connectionStatusChanged.connect(on);
  });
}

/** A new kernel of its own on the server, connected. */
export async function startKernel(s: ServerConnection.ISettings): Promise<KernelConnection> {
  const model = await KernelAPI.startNew({ name: 'python3' }, s);
  const kernel = new KernelConnection({ model, serverSettings: s, handleComms: false, username: 'bench' });
  await connected(kernel);
  return kernel;
}
