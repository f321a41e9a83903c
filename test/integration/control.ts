// The extension's test API and sign-in for the account and cluster suites, and (re-exported from
// helpers.ts) the engine's control surface.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { sleep } from '../shared/wait';
import { EXTENSION_ID, engine } from './helpers';

export { sleep } from '../shared/wait';

export { control } from './helpers';

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
