// Sign-in, the token in SecretStorage checked against /me, the status bar, the Accounts menu.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { engine } from './helpers';
import { accountIs, api, control, setApiUrl, signIn, sleep } from './control';

suite('Account: sign-in, token check, status bar', () => {
  let ext: TensorPoolExtensionApi;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('demo');
  });
  teardown(async () => {
    await control.clearFaults();
    await setApiUrl(engine.url);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
  });

  test('activation did no network I/O and the status bar exists with a stable name', async () => {
    const item = ext.testing.statusBar;
    assert.equal(item.name, 'TensorPool Account');
    assert.ok(item.text.includes('TensorPool') || ext.store.account.kind === 'signedIn', item.text);
  });

  test('a wrong token is rejected with the server message and nothing is stored', async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
    await control.clearLog();
    const result = await signIn('tp_this_token_is_wrong_123');
    assert.equal(result.ok, false);
    assert.match(result.message ?? '', /rejected/i);
    assert.ok(!(result.message ?? '').includes('tp_this_token_is_wrong_123'));
    assert.equal(ext.store.account.kind, 'signedOut');
    assert.deepEqual(await vscode.authentication.getAccounts('tensorpool'), []);
    const [me] = await control.calls('GET', '/me');
    assert.equal(me.status, 401);
  });

  test('a malformed token is refused before any request', async () => {
    await control.clearLog();
    const result = await signIn('Bearer abc');
    assert.equal(result.ok, false);
    assert.match(result.message ?? '', /Bearer/);
    assert.deepEqual(await control.log(), []);
  });

  test('a good token is checked with GET /me, stored, and shown in the status bar with org and balance', async () => {
    await control.clearLog();
    const result = await signIn();
    assert.equal(result.ok, true, result.message);
    await accountIs(ext, 'signedIn');
    const me = await control.calls('GET', '/me');
    assert.equal(me.length, 1);
    assert.equal(me[0].authorization, 'Bearer [redacted]');
    assert.match(me[0].userAgent ?? '', /^tensorpool-vscode\/\d+\.\d+\.\d+ \(VS Code \d+\.\d+/);
    const item = ext.testing.statusBar;
    const label = (ext.store.account as { label: string }).label;
    assert.ok(item.text.includes(label), item.text);
    // Organisation info arrives in the background for the tooltip.
    for (let i = 0; i < 50 && !(ext.store.account as { org?: unknown }).org; i++) await sleep(50);
    const tooltip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
    assert.match(tooltip, /Organisation: /);
    assert.match(tooltip, /Balance: \$\d/);
  });

  test('the account is in the Accounts menu, backed by the same secret', async () => {
    const accounts = await vscode.authentication.getAccounts('tensorpool');
    assert.deepEqual(
      accounts.map((a) => a.label),
      [(ext.store.account as { label: string }).label],
    );
    const sessions = await ext.testing.authProvider.getSessions(undefined, {});
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].accessToken, engine.token);
  });

  test('signing out from the Accounts menu (removeSession) signs out here', async () => {
    const [session] = await ext.testing.authProvider.getSessions(undefined, {});
    await ext.testing.authProvider.removeSession(session.id);
    assert.equal(ext.store.account.kind, 'signedOut');
    assert.deepEqual(await vscode.authentication.getAccounts('tensorpool'), []);
    await ext.testing.initializeAccount();
    assert.equal(ext.store.account.kind, 'signedOut', 'the secret is gone');
    assert.equal((await signIn()).ok, true);
  });

  test('the startup check reads SecretStorage and validates against /me (checking, then signed in)', async () => {
    await control.clearLog();
    const seen: string[] = [];
    const sub = ext.store.onDidChange(() => seen.push(ext.store.account.kind));
    await ext.testing.initializeAccount();
    sub.dispose();
    assert.deepEqual(seen.filter((k, i) => k !== seen[i - 1]).slice(0, 2), ['checking', 'signedIn']);
    assert.equal(
      (await control.calls('GET', '/me')).length,
      1,
      'token read back from SecretStorage and sent',
    );
  });

  test('a 401 mid-session flips to "token rejected" once and stops automatic refresh; signing in again recovers', async () => {
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 401,
      body: { error: 'Token revoked' },
      times: 3,
    });
    await vscode.commands.executeCommand('tensorpool.refresh');
    await accountIs(ext, 'rejected');
    assert.match(ext.testing.statusBar.text, /Token Rejected/);
    assert.equal(ext.testing.statusBar.command, 'tensorpool.signIn');
    assert.equal(ext.testing.nextRefreshDelay(), undefined, 'no polling while the token is rejected');
    await vscode.commands.executeCommand('tensorpool.refresh');
    assert.equal(ext.store.account.kind, 'rejected');
    await control.clearFaults();
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
  });

  test('403 on the account check shows "no permission"', async () => {
    await control.fault({
      method: 'GET',
      path: '/me',
      status: 403,
      body: { error: 'Token lacks permission' },
    });
    await vscode.commands.executeCommand('tensorpool.retryAccountCheck');
    await accountIs(ext, 'forbidden');
    assert.match(ext.testing.statusBar.text, /No Permission/);
    assert.match(String(ext.testing.statusBar.tooltip), /Token lacks permission/);
  });

  test('the read-only token signs in; a mutation answers 403 and nothing changes', async () => {
    assert.equal((await signIn(engine.readonlyToken)).ok, true);
    await control.clearLog();
    const res = await fetch(`${engine.url}/cluster/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.readonlyToken}`, 'content-type': 'application/json' },
      body: '{"instance_type":"1xH100"}',
    });
    assert.equal(res.status, 403);
    assert.equal((await signIn()).ok, true);
  });

  test('an unreachable service shows "offline" with retry; fixing the URL re-validates', async () => {
    await setApiUrl('http://127.0.0.1:9');
    await accountIs(ext, 'unreachable', 20_000);
    assert.match(ext.testing.statusBar.text, /Offline/);
    assert.equal(ext.testing.statusBar.command, 'tensorpool.retryAccountCheck');
    await setApiUrl(engine.url);
    await accountIs(ext, 'signedIn', 20_000);
  });

  test('an http:// URL for a remote host is refused before any request', async () => {
    await control.clearLog();
    await setApiUrl('http://engine.tensorpool.dev');
    await accountIs(ext, 'unreachable', 10_000);
    assert.match((ext.store.account as { message: string }).message, /unencrypted/);
    assert.deepEqual(await control.log(), []);
  });

  test('sign out clears the secret, the session and the tree', async () => {
    await setApiUrl(engine.url);
    await accountIs(ext, 'signedIn', 10_000);
    await vscode.commands.executeCommand('tensorpool.signOut');
    assert.equal(ext.store.account.kind, 'signedOut');
    assert.deepEqual(await vscode.authentication.getAccounts('tensorpool'), []);
    assert.deepEqual(await ext.views.clusters.getChildren(undefined), []);
    await control.clearLog();
    await ext.testing.initializeAccount();
    assert.equal(ext.store.account.kind, 'signedOut', 'nothing left in SecretStorage');
    assert.deepEqual(await control.log(), []);
    assert.match(ext.testing.statusBar.text, /Sign In/);
  });

  test('the token appears nowhere: log, settings, global state, status bar', async () => {
    assert.equal((await signIn()).ok, true);
    await ext.refresh(); // let the refresh that signing in started finish first
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 500,
      body: { message: `echo ${engine.token}` },
      times: 10,
    });
    await vscode.commands.executeCommand('tensorpool.refresh');
    await control.clearFaults();
    const places = [
      ext.testing.logTail.join('\n'),
      JSON.stringify(vscode.workspace.getConfiguration('tensorpool')),
      JSON.stringify(ext.testing.globalState()),
      ext.testing.statusBar.text,
      String(
        (ext.testing.statusBar.tooltip as vscode.MarkdownString | undefined)?.value ??
          ext.testing.statusBar.tooltip,
      ),
      JSON.stringify({ ...ext.testing.clusters.data, error: ext.testing.clusters.error }),
      JSON.stringify(ext.store.account),
    ];
    assert.ok(ext.testing.logTail.length > 5, 'the log has content');
    for (const p of places) assert.ok(!p.includes(engine.token), `token found in: ${p.slice(0, 200)}`);
    assert.ok(ext.testing.logTail.join('\n').includes('[redacted]'), 'the echoed token was masked');
  });
});
