// Sync Folder to Node under load and with hostile names, in the real extension host against a real node:
// 10,000 saves of one file in a burst are coalesced into a few transfers (the node ends with the last
// content), thousands of new files at once become one whole-folder sync (the change queue stays bounded),
// names with a newline, a leading `-`, a `:` and quotes created while watching reach the node as they are,
// and a link created pointing out of the folder is never followed nor copied.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ACCEPT, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster, removeCluster, type RealCluster } from '../../integration/realCluster';
import { freshAccount } from './common';
import { until } from './util';

suite('Reliability: folder sync under a burst of changes and hostile names', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let cluster: RealCluster;
  let folder: string;
  let remote: string;
  const transfers = () => ext.testing.logTail.filter((l) => /Synced .* of .*rel-sync/.test(l)).length;
  const settled = async (what: string, check: () => boolean) =>
    until(
      what,
      async () => {
        await ext.testing.sync.flushed();
        return check();
      },
      60_000,
      200,
    );

  suiteSetup(async function () {
    this.timeout(120_000);
    ext = await freshAccount();
    cluster = await realCluster('rel-sync');
    await ext.refresh();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    folder = path.join(root, 'rel-sync -x:y');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'hot.txt'), 'start\n');
    remote = path.join(cluster.nodeDir, 'home', path.basename(folder));
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', 200, vscode.ConfigurationTarget.Global);
    ext.setPrompter(new ScriptedPrompter([cluster.name, ACCEPT]));
    const r = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(folder),
    );
    assert.equal(r?.ok, true, JSON.stringify(r));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', undefined, vscode.ConfigurationTarget.Global);
    ext.setPrompter(undefined);
    fs.rmSync(folder, { recursive: true, force: true });
    await removeCluster(cluster);
  });

  test('10,000 saves of one file in a burst: a few transfers, the last content on the node', async () => {
    const before = transfers();
    for (let i = 0; i < 10_000; i++) fs.writeFileSync(path.join(folder, 'hot.txt'), `save ${i}\n`);
    await settled(
      'the last save on the node',
      () => fs.readFileSync(path.join(remote, 'hot.txt'), 'utf8') === 'save 9999\n',
    );
    const n = transfers() - before;
    assert.ok(n >= 1 && n <= 5, `${n} transfers for 10,000 saves`);
  });

  test('3,000 new files at once: one whole-folder sync, every file on the node', async () => {
    const before = transfers();
    fs.mkdirSync(path.join(folder, 'many'));
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(folder, 'many', `f${i}.txt`), `${i}\n`);
    await settled(
      'every new file on the node',
      () =>
        fs.existsSync(path.join(remote, 'many')) && fs.readdirSync(path.join(remote, 'many')).length === 3000,
    );
    assert.ok(
      ext.testing.logTail.some((l) => /Synced the folder of .*rel-sync/.test(l)),
      'a whole-folder sync',
    );
    assert.ok(transfers() - before <= 5, `${transfers() - before} transfers`);
  });

  test('names with a newline, a leading -, a colon and quotes, created while watching, arrive as they are', async () => {
    const names = [
      'new\nline.txt',
      '-e touch pwned',
      '--delete',
      'a:b',
      `q "double" 'single'.txt`,
      'sp ace/ünï.txt',
    ];
    fs.mkdirSync(path.join(folder, 'sp ace'));
    for (const n of names) fs.writeFileSync(path.join(folder, n), `content of ${n}`);
    await settled('every name on the node', () =>
      names.every((n) => fs.existsSync(path.join(remote, n))),
    ).catch(() =>
      assert.fail(
        `missing: ${JSON.stringify(names.filter((n) => !fs.existsSync(path.join(remote, n))))}\n${ext.testing.logTail.slice(-5).join('\n')}`,
      ),
    );
    for (const n of names) assert.equal(fs.readFileSync(path.join(remote, n), 'utf8'), `content of ${n}`, n);
    assert.ok(!fs.existsSync(path.join(remote, 'pwned')) && !fs.existsSync(path.join(folder, 'pwned')));
    assert.ok(fs.existsSync(path.join(remote, 'hot.txt')), 'nothing deleted by a name read as an option');
  });

  test('a link created pointing out of the folder is neither followed nor copied', async () => {
    fs.symlinkSync('/etc', path.join(folder, 'out-link'));
    fs.writeFileSync(path.join(folder, 'marker.txt'), 'after the link\n');
    await settled('the marker on the node', () => fs.existsSync(path.join(remote, 'marker.txt')));
    assert.ok(!fs.existsSync(path.join(remote, 'out-link')), 'no link, no copy of /etc');
    assert.equal(ext.testing.sync.state()?.kind, 'synced');
  });
});
