// The Clusters view at startup: the list the last session loaded is kept (globalState, no secrets) and shown
// while the stored token is checked, then replaced by the fresh list; it is dropped when the check names
// another account, and forgotten on sign-out (src/vscode/clusters/clusters.ts, session.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { LastClusters } from '../../src/vscode/shared/storedState';
import { until } from '../shared/wait';
import { accountIs, api, control, signIn } from './control';
import { engine } from './helpers';

const KEY = 'tensorpool.lastClusters';

function kept(ext: TensorPoolExtensionApi): LastClusters | undefined {
  return ext.testing.globalState()[KEY] as LastClusters | undefined;
}

async function rowLabels(ext: TensorPoolExtensionApi): Promise<string[]> {
  const provider = ext.views.clusters;
  const nodes = (await provider.getChildren(undefined)) ?? [];
  const labels: string[] = [];
  for (const n of nodes) {
    const i = await provider.getTreeItem(n);
    labels.push(typeof i.label === 'string' ? i.label : (i.label?.label ?? ''));
  }
  return labels;
}

/** What a new window starts with: nothing in the store, then the stored token's check (not awaited). */
function startAgain(ext: TensorPoolExtensionApi): Promise<void> {
  ext.testing.clusters.clear();
  return ext.testing.initializeAccount();
}

suite('Clusters: the last session’s list at startup', () => {
  let ext: TensorPoolExtensionApi;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await control.seed({ clusters: 3, prefix: 'lastsession' })).created, 3);
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
  });
  teardown(() => control.clearFaults());
  suiteTeardown(async () => {
    await control.clearFaults();
    if (ext.store.account.kind !== 'signedIn') assert.equal((await signIn()).ok, true);
  });

  test('a loaded list is kept for the next start, without secrets', async () => {
    await ext.refresh();
    await until('the list kept for the next start', () => kept(ext)?.clusters.length === 3, 10_000, 50);
    const last = kept(ext)!;
    assert.equal(last.apiUrl, engine.url);
    assert.equal(last.includeOrg, false);
    assert.ok(last.accountId, 'the account it belongs to');
    const all = JSON.stringify(ext.testing.globalState());
    assert.ok(!all.includes(engine.token), 'the token is not in globalState');
  });

  test('shown while the stored token is checked, marked as the last session’s, then replaced by the fresh list', async () => {
    await until('the list kept', () => kept(ext)?.clusters.length === 3, 10_000, 50);
    const names = kept(ext)!.clusters.map((c) => c.name ?? c.id);
    await control.fault({ method: 'GET', path: '/me', delayMs: 1500, times: 1 });
    await control.fault({ method: 'GET', path: '/cluster/list', delayMs: 1500, times: 1 });
    const checked = startAgain(ext);
    await until(
      'the last session’s rows',
      () => ext.testing.clusters.data?.lastSession !== undefined,
      5000,
      20,
    );
    assert.equal(ext.store.account.kind, 'checking', 'the token is still being checked');
    assert.deepEqual((await rowLabels(ext)).sort(), [...names].sort());
    await checked;
    await accountIs(ext, 'signedIn');
    await until(
      'the fresh list',
      () => ext.testing.clusters.data !== undefined && ext.testing.clusters.data.lastSession === undefined,
      10_000,
      20,
    );
    assert.deepEqual((await rowLabels(ext)).sort(), [...names].sort());
  });

  test('dropped when the check signs in another account', async () => {
    await until('the list kept', () => kept(ext)?.clusters.length === 3, 10_000, 50);
    await control.fault({
      method: 'GET',
      path: '/me',
      delayMs: 800,
      status: 200,
      body: { id: 'usr_someone_else', email: 'someone.else@example.com' },
      times: 1,
    });
    await control.fault({ method: 'GET', path: '/cluster/list', delayMs: 3000, times: 1 });
    const checked = startAgain(ext);
    await until(
      'the last session’s rows',
      () => ext.testing.clusters.data?.lastSession !== undefined,
      5000,
      20,
    );
    await checked;
    await accountIs(ext, 'signedIn');
    assert.equal(ext.testing.clusters.data?.lastSession, undefined, 'another account’s rows are not kept');
    assert.ok(
      !(await rowLabels(ext)).some((l) => l.startsWith('lastsession')),
      'no row of the other account',
    );
  });

  test('signing out forgets it; nothing is shown at the next start', async () => {
    await ext.refresh();
    await until('the list kept', () => kept(ext)?.clusters.length === 3, 10_000, 50);
    await vscode.commands.executeCommand('tensorpool.signOut');
    await accountIs(ext, 'signedOut');
    await until('the kept list forgotten', () => kept(ext) === undefined, 5000, 50);
    assert.deepEqual(await rowLabels(ext), []);
  });
});
