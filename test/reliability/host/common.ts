// Shared setup for the host suites: one signed-in account with a few running clusters, the views
// hidden (so automatic refreshes do not add calls while a test counts them), and the create
// wizard's standard answers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { accountIs, api, control, engine, hideViews, seedClusters, setApiUrl, signIn } from './util';

/** The create wizard's answers up to and including "Create cluster" (2 nodes, so a kept value is visible). */
export function createAnswers(name: string, nodes = '2'): string[] {
  return ['1xH100', nodes, name, 'No new key', '', 'Off', 'Create cluster'];
}

/** A fresh engine state with `keep-1..3` running, signed in, views hidden, the list loaded. */
export async function freshAccount(): Promise<TensorPoolExtensionApi> {
  const ext = await api();
  await control.reset('none');
  await control.config({ pendingMs: 200, processingMs: 600, retryAfterSeconds: 1 });
  await seedClusters(3, 'keep');
  await ensureSignedIn(ext);
  await hideViews();
  await ext.refresh();
  await ext.refresh(); // a refresh started before the reset may still have been in flight
  return ext;
}

/** Back to the engine URL and a signed-in account (after tests that changed either). */
export async function ensureSignedIn(ext: TensorPoolExtensionApi): Promise<void> {
  if (vscode.workspace.getConfiguration('tensorpool').get('apiUrl') !== engine.url) {
    await setApiUrl(engine.url);
  }
  if (ext.store.account.kind !== 'signedIn') {
    const result = await signIn();
    assert.equal(result.ok, true, result.message);
  }
  await accountIs(ext, 'signedIn', 20_000);
}

/** The status bar shows the signed-in account (a list error is not an account problem). */
export function statusShowsAccount(ext: TensorPoolExtensionApi): void {
  const account = ext.store.account;
  assert.equal(account.kind, 'signedIn');
  assert.ok(ext.testing.statusBar.text.includes(account.label), ext.testing.statusBar.text);
}

/**
 * Requests in the engine's log that may change something: not GETs, and not the POST /health version
 * check that starts every account check (it changes nothing). Engine control calls are never logged.
 */
export async function mutations(): Promise<string[]> {
  return (await control.log())
    .filter((e) => e.method !== 'GET' && !(e.method === 'POST' && e.path === '/health'))
    .map((e) => `${e.method} ${e.path} -> ${e.status}`);
}

/** The list reads a view makes on its own (a timer, a section shown), and the price quotes the create wizards
 *  read while the user answers (GETs; the price of a choice, never the refused request). Not /me: a token
 *  check counts. */
const BACKGROUND_READS = new Set([
  '/cluster/quote',
  '/storage/quote',
  '/cluster/list',
  '/storage/list',
  '/user/ssh-key/list',
  '/job/list',
  '/object-storage/credentials',
  '/object-storage/bucket/list',
]);

/** Every request in the engine's log except the reads views make by themselves (what input can cause). */
export async function causedRequests(): Promise<string[]> {
  return (await control.log())
    .filter((e) => !(e.method === 'GET' && BACKGROUND_READS.has(e.path)))
    .filter((e) => !(e.method === 'POST' && e.path === '/health'))
    .map((e) => `${e.method} ${e.path} -> ${e.status}`);
}
