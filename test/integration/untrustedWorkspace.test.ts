// Restricted Mode for real: the harness opens this folder with Workspace Trust on and never trusts it
// (runIntegration.ts, the untrusted pass, which runs only untrusted*.test.ts). Exactly two features are
// off, each saying why with a button to Workspace Trust: running the commands the service sends for a
// job, and reading a token from a workspace .env. The restricted tensorpool.apiUrl ignores the folder's
// value. Everything else (sign-in, clusters) works.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn } from './control';
import { engine } from './helpers';
import { realCluster } from './realCluster';

const UNTRUSTED = /because this workspace is not trusted/;

async function seedOneCluster(): Promise<void> {
  await control.reset('none');
  await control.seed({ clusters: 1 });
}

suite('Restricted Mode: an untrusted workspace turns off exactly the listed features, saying why', () => {
  let ext: TensorPoolExtensionApi;
  let root: string;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(root, 'the harness opens a workspace folder');
  });
  teardown(() => {
    ext.setPrompter(undefined);
    rmSync(path.join(root, '.env'), { force: true });
  });

  test("the folder is in Restricted Mode and the extension runs there, with the folder's API URL ignored", async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the harness opened an untrusted folder');
    assert.ok(vscode.extensions.getExtension('tensorpool.tensorpool-vscode')?.isActive);
    const folderSettings = readFileSync(path.join(root, '.vscode', 'settings.json'), 'utf8');
    assert.match(folderSettings, /"tensorpool\.apiUrl": "http:\/\/127\.0\.0\.1:9"/, 'the folder names a URL');
    assert.equal(vscode.workspace.getConfiguration('tensorpool').get('apiUrl'), engine.url);
    assert.equal((await signIn()).ok, true, 'sign-in works in Restricted Mode');
    await accountIs(ext, 'signedIn');
    await seedOneCluster();
    await ext.refresh();
    assert.equal(ext.testing.clusters.data?.clusters?.length, 1, 'the cluster list works');
  });

  test('a workspace .env is not read for a token: the user is told why, once, with a button to Workspace Trust', async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
    writeFileSync(path.join(root, '.env'), `TENSORPOOL_KEY=${engine.token}\n`);
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    await control.clearLog();
    await ext.testing.initializeAccount(); // settles once the offer's message was answered
    assert.equal(p.shown.length, 1);
    assert.match(p.shown[0].message ?? '', UNTRUSTED);
    assert.match(p.shown[0].message ?? '', /\.env was not read/);
    assert.deepEqual(p.shown[0].items, ['Manage Workspace Trust']);
    assert.ok(
      ext.testing.logTail.some((l) => UNTRUSTED.test(l)),
      'the reason is logged',
    );
    await ext.testing.initializeAccount();
    assert.equal(p.shown.length, 1, 'said once per window');
    assert.deepEqual(await control.calls('GET', '/me'), [], 'no token was read from it');
    assert.equal(ext.store.account.kind, 'signedOut');
  });

  test("a job's files are not uploaded: the command the service sends is not run, and the user is told why", async () => {
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    // A real node that accepts the user's key: only Restricted Mode keeps the upload from running.
    const cluster = await realCluster('restricted-run');
    await ext.refresh();
    const folder = path.join(root, 'restricted-job');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'train.py'), 'print("never uploaded")\n');
    writeFileSync(path.join(folder, 'train.tp.toml'), 'commands = ["python train.py"]\n');
    const jobs = path.join(cluster.nodeDir, 'home', 'jobs');
    const p = new ScriptedPrompter([cluster.name, 'Keep the cluster', 'Run job', ESCAPE, ESCAPE]);
    ext.setPrompter(p);
    try {
      const outcome = await vscode.commands.executeCommand<{ kind: string }>(
        'tensorpool.runJobFile',
        vscode.Uri.file(path.join(folder, 'train.tp.toml')),
      );
      assert.equal(outcome.kind, 'refused');
      const made = readdirSync(jobs);
      assert.equal(made.length, 1, 'the job folder the push made on the node');
      assert.deepEqual(
        readdirSync(path.join(jobs, made[0])),
        [],
        'the command did not run: nothing uploaded',
      );
      const said = p.shown.filter((s) => s.kind === 'confirm' && UNTRUSTED.test(s.message ?? ''));
      assert.equal(said.length, 1, 'the user is told why');
      assert.match(said[0].message ?? '', /was not run/);
      assert.deepEqual(said[0].items, ['Manage Workspace Trust']);
      assert.ok(
        !p.shown.some((s) => s.kind === 'confirm' && /run a command/.test(s.message ?? '')),
        'no consent is asked for a command that cannot run',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
