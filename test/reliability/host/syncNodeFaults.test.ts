// Sync Folder to Node when things go wrong, in the real extension host against a real node (OpenSSH sshd,
// real rsync and ssh): rsync missing on the node (a node whose shell finds no rsync on its PATH), the node's
// disk full (simulated: the node's rsync answers with rsync's own words for ENOSPC and ends), files that
// vanish or change during the first sync (exit 24 is no failure; which files is said), permission denied on
// either side (a file here nobody may read; a read-only folder on the node owned by another user: as root,
// the rsync on that side runs without the capabilities that let root read, write or chmod anything), the
// node's sessions dropped in the middle of a large first sync (it stops, says so, Retry resends it whole),
// Cancel of a first sync (no rsync left here or on the node, the status bar says cancelled, no cut-off file
// under its name),
// and the cluster destroyed during one (the sync stops). Each fault ends with a clear sentence; nothing is lost.
import * as assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ACCEPT, ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { processesIn, realCluster, removeCluster, type RealCluster } from '../../integration/realCluster';
import { freshAccount } from './common';
import { control, until } from './util';

type Outcome = { ok: boolean; why?: string } | undefined;
const sha = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const asRoot = process.getuid?.() === 0;
/** An rsync (here or on the node) that runs without root's power to read and write anything. */
/** An rsync on the node that cannot change what it does not own (root without those powers). */
const NOT_OWNER =
  '#!/bin/sh\nexec setpriv --bounding-set=-dac_override,-dac_read_search,-fowner,-chown /usr/bin/rsync "$@"\n';
const NO_OVERRIDE =
  '#!/bin/sh\nexec setpriv --bounding-set=-dac_override,-dac_read_search /usr/bin/rsync "$@"\n';

suite('Reliability: folder sync faults on the node and here', function () {
  this.timeout(180_000);
  let ext: TensorPoolExtensionApi;
  let cluster: RealCluster;
  let root: string;
  let home: string;
  const nodeRsync = () => path.join(cluster.nodeDir, 'bin', 'rsync');
  const state = () => ext.testing.sync.state();
  const failedWith = async (re: RegExp) => {
    await until('the sync failed', () => state()?.kind === 'failed', 60_000, 100).catch((e: Error) =>
      assert.fail(
        `${e.message}\n${JSON.stringify({ state: state(), watching: ext.testing.sync.watching() })}\n${ext.testing.logTail.slice(-12).join('\n')}`,
      ),
    );
    const s = state();
    assert.ok(s?.kind === 'failed' && re.test(s.why), JSON.stringify(s));
  };
  const retried = async () => {
    ext.setPrompter(new ScriptedPrompter(['Retry']));
    await vscode.commands.executeCommand('tensorpool.syncMenu');
    await ext.testing.sync.flushed();
    assert.equal(state()?.kind, 'synced', JSON.stringify(state()));
  };
  /** A folder of the workspace with `files` (name -> content) and `bigMb` MB of random bytes in aa-big.bin. */
  const project = (name: string, files: Record<string, string>, bigMb = 0): string => {
    const folder = path.join(root, name);
    fs.mkdirSync(folder, { recursive: true });
    for (const [n, t] of Object.entries(files)) fs.writeFileSync(path.join(folder, n), t);
    if (bigMb) fs.writeFileSync(path.join(folder, 'aa-big.bin'), randomBytes(bigMb * 1024 * 1024));
    return folder;
  };
  const sync = (folder: string, answers: string[] = [ESCAPE]) => {
    ext.setPrompter(new ScriptedPrompter([cluster.name, ACCEPT, ...answers]));
    return vscode.commands.executeCommand<Outcome>('tensorpool.syncFolderToNode', vscode.Uri.file(folder));
  };
  /** Resolves once rsync writes aa-big.bin on the node (under its temporary name): the transfer is under way. */
  const bigUnderWay = (remote: string) =>
    until(
      'the big file being written on the node',
      () => fs.existsSync(remote) && fs.readdirSync(remote).some((n) => n.startsWith('.aa-big.bin.')),
      60_000,
      5,
    );

  suiteSetup(async function () {
    this.timeout(120_000);
    ext = await freshAccount();
    cluster = await realCluster('rel-sync-faults');
    await ext.refresh();
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(ws);
    root = path.join(ws, 'rel-sync-faults');
    home = path.join(cluster.nodeDir, 'home');
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', 200, vscode.ConfigurationTarget.Global);
  });
  teardown(() => {
    fs.rmSync(nodeRsync(), { force: true });
    ext.testing.configure({});
    ext.setPrompter(undefined);
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(root, { recursive: true, force: true });
    await removeCluster(cluster).catch(() => undefined); // gone already when the last test ran
  });

  test('rsync missing on the node: said so, with the package to install there; Retry once it is there', async () => {
    // The node's shell finds no rsync on its PATH: bash's own words.
    fs.writeFileSync(nodeRsync(), `#!/bin/sh\nPATH=/nonexistent exec /bin/bash -c 'rsync "$@"' bash "$@"\n`, {
      mode: 0o755,
    });
    const folder = project('faults-a', { 'a.txt': 'a\n' });
    const r = await sync(folder);
    assert.ok(
      r && !r.ok && /rsync was not found on the node.*apt install rsync/.test(r.why ?? ''),
      JSON.stringify(r),
    );
    fs.rmSync(nodeRsync());
    await retried();
    assert.equal(sha(path.join(home, 'faults-a', 'a.txt')), sha(path.join(folder, 'a.txt')));
  });

  test("the node's disk full: rsync's own words (No space left on device), nothing here lost; Retry sends it", async () => {
    fs.writeFileSync(
      nodeRsync(),
      [
        '#!/bin/sh',
        '# Simulated: the receiving rsync on a full disk says this and ends (error in file IO).',
        `echo 'rsync: [receiver] write failed on "'"$PWD"'/data.bin": No space left on device (28)' >&2`,
        "echo 'rsync error: error in file IO (code 11) at receiver.c(380) [receiver=3.2.7]' >&2",
        'exit 11',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const folder = path.join(root, 'faults-a');
    fs.writeFileSync(path.join(folder, 'data.bin'), randomBytes(100_000));
    await failedWith(/write failed on ".*data\.bin": No space left on device \(28\)$/);
    assert.match(ext.testing.sync.text() ?? '', /sync failed: rsync: \[receiver\] write failed/);
    assert.ok(fs.existsSync(path.join(folder, 'data.bin')));
    fs.rmSync(nodeRsync());
    await retried();
    assert.equal(sha(path.join(home, 'faults-a', 'data.bin')), sha(path.join(folder, 'data.bin')));
  });

  test('permission denied here: a file nobody may read is named in rsync’s words; Retry once readable', async () => {
    const folder = path.join(root, 'faults-a');
    if (asRoot) {
      const bin = path.join(root, 'bin-no-override');
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'rsync'), NO_OVERRIDE, { mode: 0o755 });
      ext.testing.configure({ env: () => ({ ...process.env, PATH: `${bin}:${process.env.PATH}` }) });
    }
    fs.writeFileSync(path.join(folder, 'secret.bin'), 'nobody reads this\n', { mode: 0o000 });
    await failedWith(/"[^"]*secret\.bin".*Permission denied \(13\)/);
    fs.chmodSync(path.join(folder, 'secret.bin'), 0o644);
    await retried();
    assert.equal(sha(path.join(home, 'faults-a', 'secret.bin')), sha(path.join(folder, 'secret.bin')));
  });

  test('permission denied on the node: a read-only folder there owned by another user, in rsync’s words; Retry once writable', async function () {
    // rsync (with -p) gives back its mode to a folder the node's user owns: this one belongs to someone else.
    if (!asRoot) this.skip();
    const folder = path.join(root, 'faults-a');
    const ro = path.join(home, 'faults-a', 'ro');
    fs.mkdirSync(path.join(folder, 'ro'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'ro', 'keep.txt'), 'k\n');
    await until('ro/ on the node', () => fs.existsSync(path.join(ro, 'keep.txt')), 20_000, 100).catch(
      (e: Error) =>
        assert.fail(`${e.message}\n${JSON.stringify(state())}\n${ext.testing.logTail.slice(-12).join('\n')}`),
    );
    await ext.testing.sync.flushed();
    fs.writeFileSync(nodeRsync(), NOT_OWNER, { mode: 0o755 });
    fs.chownSync(ro, 65534, 65534);
    fs.chmodSync(ro, 0o555);
    fs.writeFileSync(path.join(folder, 'ro', 'f.txt'), 'cannot land\n');
    await failedWith(/"[^"]*ro(\/[^"]*)?".*(Permission denied \(13\)|Operation not permitted \(1\))$/);
    fs.chownSync(ro, 0, 0);
    fs.chmodSync(ro, 0o755);
    fs.rmSync(nodeRsync(), { force: true });
    await retried();
    assert.equal(sha(path.join(ro, 'f.txt')), sha(path.join(folder, 'ro', 'f.txt')));
  });

  test('files vanishing or changing during the first sync: not a failure; which vanished is said; the last content arrives', async () => {
    const folder = project(
      'faults-b',
      { 'zz-vanish 1.txt': 'v1\n', 'zz-vanish-2.txt': 'v2\n', 'zz-changed.txt': 'before\n' },
      40,
    );
    const remote = path.join(home, 'faults-b');
    const done = sync(folder);
    await bigUnderWay(remote);
    fs.rmSync(path.join(folder, 'zz-vanish 1.txt'));
    fs.rmSync(path.join(folder, 'zz-vanish-2.txt'));
    fs.writeFileSync(path.join(folder, 'zz-changed.txt'), 'after, during the transfer\n');
    const r = await done;
    assert.equal(r?.ok, true, JSON.stringify(r));
    assert.ok(
      ext.testing.logTail.some((l) =>
        /2 file\(s\) vanished while being sent: zz-vanish 1\.txt, zz-vanish-2\.txt/.test(l),
      ),
      ext.testing.logTail.slice(-5).join('\n'),
    );
    await until(
      'the changed file’s last content on the node',
      async () => {
        await ext.testing.sync.flushed();
        return (
          fs.readFileSync(path.join(remote, 'zz-changed.txt'), 'utf8') === 'after, during the transfer\n'
        );
      },
      30_000,
      100,
    );
    assert.equal(sha(path.join(remote, 'aa-big.bin')), sha(path.join(folder, 'aa-big.bin')));
    assert.ok(!fs.existsSync(path.join(remote, 'zz-vanish 1.txt')));
    assert.equal(state()?.kind, 'synced');
  });

  test('Cancel during the first sync: no rsync left, the status bar says cancelled, no cut-off file under its name', async () => {
    const folder = project('faults-c', { 'small.txt': 's\n' }, 60);
    const remote = path.join(home, 'faults-c');
    const done = sync(folder);
    await bigUnderWay(remote);
    ext.testing.sync.cancel();
    const r = await done;
    assert.equal(r?.ok, false);
    assert.equal(state()?.kind, 'cancelled');
    assert.match(ext.testing.sync.text() ?? '', /node 1 · sync cancelled$/);
    assert.deepEqual(processesIn(folder), [], 'no rsync or ssh left here');
    await until(
      'nothing of the transfer left on the node',
      () => processesIn(home).length === 0,
      10_000,
      100,
    );
    await until(
      'no temporary file left on the node',
      () => !fs.readdirSync(remote).some((n) => n.startsWith('.aa-big.bin.')),
      10_000,
      100,
    );
    assert.ok(!fs.existsSync(path.join(remote, 'aa-big.bin')), 'nothing under its name');
    await retried();
    assert.equal(sha(path.join(remote, 'aa-big.bin')), sha(path.join(folder, 'aa-big.bin')));
  });

  test("the node's sessions dropped mid-transfer: the sync stops and says so; Retry (offered) sends it whole", async () => {
    const folder = project('faults-d', { 'small.txt': 's\n' }, 60);
    const remote = path.join(home, 'faults-d');
    const p = new ScriptedPrompter([cluster.name, ACCEPT]);
    let offered: (a: string[]) => void = () => undefined;
    const asked = new Promise<string[]>((r) => (offered = r));
    // The failure's notification: record its buttons, then take Retry once the node takes logins again.
    p.confirm = async (o) => (offered([o.message, ...o.actions]), undefined);
    ext.setPrompter(p);
    const done = vscode.commands.executeCommand<Outcome>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(folder),
    );
    await bigUnderWay(remote);
    await control.setNodes({ drop: cluster.instanceId });
    const r = await done;
    assert.ok(r && !r.ok && /cannot be reached|connection/i.test(r.why ?? ''), JSON.stringify(r));
    const [message, ...actions] = await asked;
    assert.match(message, /Sync of faults-d failed: /);
    assert.deepEqual(actions, ['Retry', 'Show Log']);
    assert.ok(
      !fs.existsSync(path.join(remote, 'aa-big.bin')) ||
        sha(path.join(remote, 'aa-big.bin')) === sha(path.join(folder, 'aa-big.bin')),
      'no cut-off file under its name',
    );
    await retried();
    assert.equal(sha(path.join(remote, 'aa-big.bin')), sha(path.join(folder, 'aa-big.bin')));
  });

  test('the cluster destroyed during a first sync: the sync stops, nothing left running', async () => {
    const folder = project('faults-e', { 'small.txt': 's\n' }, 60);
    const done = sync(folder, []);
    await bigUnderWay(path.join(home, 'faults-e'));
    await removeCluster(cluster);
    await ext.refresh();
    await done;
    await until('the sync stopped', () => state() === undefined, 30_000, 100);
    assert.deepEqual(processesIn(folder), [], 'no rsync or ssh left here');
  });
});
