// The local engine's control surface (/_engine/*) and a typed view of the extension's test API,
// for the account and cluster suites.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { sleep } from '../shared/wait';
import { EXTENSION_ID, engine } from './helpers';

export { sleep } from '../shared/wait';

export interface LogEntry {
  seq: number;
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  status: number | null;
  authorization: string | null;
  userAgent?: string | null;
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${engine.url}/_engine/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, `engine control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export const control = {
  reset: (seed: 'demo' | 'none' = 'none') => call('POST', 'reset', { seed }),
  config: (c: Record<string, unknown>) => call('POST', 'config', c),
  fault: (f: Record<string, unknown>) => call('POST', 'faults', f),
  clearFaults: () => call('DELETE', 'faults'),
  clearLog: () => call('DELETE', 'log'),
  log: async () => ((await call('GET', 'log')) as { entries: LogEntry[] }).entries,
  calls: async (method: string, path: string) =>
    (await control.log()).filter((e) => e.method === method && e.path === path),
};

export async function api(): Promise<TensorPoolExtensionApi> {
  const ext = vscode.extensions.getExtension<TensorPoolExtensionApi>(EXTENSION_ID);
  assert.ok(ext);
  const exports = await ext.activate();
  assert.ok(
    exports?.testing,
    'activate() returned no test API: is the extension running in production mode?',
  );
  return exports;
}

export async function signIn(token = engine.token): Promise<{ ok: boolean; message?: string }> {
  return vscode.commands.executeCommand<{ ok: boolean; message?: string }>('tensorpool.signIn', { token });
}

/** tensorpool.apiUrl is machine-scoped: Global writes this machine's settings (the remote's, in code-server). */
export async function setApiUrl(url: string | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration('tensorpool')
    .update('apiUrl', url, vscode.ConfigurationTarget.Global);
}

/** Wait until the store's account state has this kind (bounded). */
export async function accountIs(a: TensorPoolExtensionApi, kind: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (a.store.account.kind !== kind) {
    assert.ok(Date.now() < deadline, `account state stayed ${a.store.account.kind}, expected ${kind}`);
    await sleep(50);
  }
}
