// Sync Folder to Node against the engine's real nodes (OpenSSH sshd, rsync over the extension's own ssh):
// after the first sync and after edits, creations, renames and deletions, every file's sha256 is equal on
// both sides (ignored files absent on the node, a link out of the folder not copied); files made on the node
// survive; Pull from Node brings back the files ticked; a path outside the home is refused before anything
// runs; a node that goes down fails the sync with a clear sentence and a Retry brings it back once it is up.
// The folder's name has shell characters.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import { ACCEPT, ESCAPE, ScriptedPrompter, ticks } from '../fixtures/scriptedPrompter';
import { accountIs, control, signIn } from './control';
import { until, useJobKit } from './jobKit';
import { processesIn, removeCluster, writeFiles } from './realCluster';

type Outcome = { ok: boolean; remote?: string; why?: string } | undefined;

/** Every file under `root` (relative path -> sha256), links as `-> target`. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(root)) return out;
  for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const p = path.join(root, rel);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = `-> ${fs.readlinkSync(p)}`;
    else if (st.isFile()) out[rel] = createHash('sha256').update(fs.readFileSync(p)).digest('hex');
  }
  return out;
}

const without = (t: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(t).filter(([k]) => !names.some((n) => k === n || k.startsWith(`${n}/`))));

suite('Sync Folder to Node against real nodes', function () {
  this.timeout(90_000);
  const kit = useJobKit('sync-itest', 'sync proj; $(touch pwned)');
  let remoteDir: string;
  const IGNORED = [
    'debug.log',
    'later.log',
    'checkpoints',
    'node_modules',
    '.git',
    'sub/secret.txt',
    'escape',
  ];

  suiteSetup(async () => {
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', 200, vscode.ConfigurationTarget.Global);
    writeFiles(kit.folder, {
      'train.py': 'print("hi")\n',
      'sub/data.csv': 'a,b\n1,2\n',
      'sub/.gitignore': 'secret.txt\n',
      'sub/secret.txt': 'never sent\n',
      '.gitignore': '*.log\n',
      'debug.log': 'noise\n',
      'node_modules/m.js': 'x\n',
      '.git/HEAD': 'ref\n',
      '-rf': 'a leading dash\n',
      'co:lon "q" \'s\'.txt': 'quotes\n',
      'π ünï.txt': 'unicode\n',
      'big.bin': 'x'.repeat(300_000),
      'train.tp.toml': 'commands = ["python train.py"]\nignore = ["checkpoints"]\n',
      'checkpoints/model.pt': 'weights\n',
    });
    fs.symlinkSync('/etc', path.join(kit.folder, 'escape'));
    fs.symlinkSync('train.py', path.join(kit.folder, 'inside'));
    remoteDir = path.join(kit.cluster.nodeDir, 'home', path.basename(kit.folder));
    // Made on the node before the sync: kept.
    writeFiles(remoteDir, { 'made-on-node.txt': 'theirs\n' });
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', undefined, vscode.ConfigurationTarget.Global);
  });

  const expected = () => ({
    ...without(tree(kit.folder), ...IGNORED),
    'made-on-node.txt': tree(remoteDir)['made-on-node.txt'],
  });

  test('a folder outside the home on the node is refused before anything runs', async () => {
    const p = new ScriptedPrompter([kit.cluster.name, '/etc', '~/../x', '~root/x', ESCAPE]);
    kit.ext.setPrompter(p);
    const r = await vscode.commands.executeCommand<Outcome>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.equal(r, undefined);
    assert.equal(p.rejections.length, 3, JSON.stringify(p.rejections));
    assert.equal(kit.ext.testing.sync.state(), undefined, 'no sync started');
  });

  test('rsync missing on this computer: which package to install, nothing copied', async () => {
    kit.ext.testing.configure({
      env: () => ({ ...process.env, PATH: path.join(kit.folder, 'no-such-bin') }),
    });
    kit.ext.setPrompter(new ScriptedPrompter([kit.cluster.name, ACCEPT]));
    const r = await vscode.commands.executeCommand<Outcome>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.ok(
      r && !r.ok && /rsync was not found on this computer.*apt install rsync/.test(r.why ?? ''),
      JSON.stringify(r),
    );
    assert.equal(kit.ext.testing.sync.state()?.kind, 'failed');
    assert.deepEqual(Object.keys(tree(remoteDir)), ['made-on-node.txt']);
    kit.ext.testing.configure({});
  });

  test("first sync: every file equal on the node (sha256), ignored ones absent, the node's own kept; progress while it runs, rsync's output file never left on the disk", async () => {
    // 30 MB of random bytes sent at 10 MB/s (rsync's --bwlimit, added by a wrapper first on the PATH): the
    // first sync takes about 3 s, so its progress is read while it runs.
    const weights = path.join(kit.folder, 'weights.bin');
    const chunk = Buffer.alloc(1 << 20);
    const fd = fs.openSync(weights, 'w');
    for (let i = 0; i < 30; i++) fs.writeSync(fd, randomFillSync(chunk));
    fs.closeSync(fd);
    const slow = fs.mkdtempSync(path.join(os.tmpdir(), 'sync-itest-slow-'));
    const real = spawnSync('sh', ['-c', 'command -v rsync'], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(path.join(slow, 'rsync'), `#!/bin/sh\nexec '${real}' --bwlimit=10m "$@"\n`, {
      mode: 0o755,
    });
    kit.ext.testing.configure({ env: () => ({ ...process.env, PATH: `${slow}:${process.env.PATH}` }) });
    const p = new ScriptedPrompter([kit.cluster.name, ACCEPT]);
    kit.ext.setPrompter(p);
    const outputFiles = () => fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('tensorpool-rsync-'));
    const seen = { files: 0, outputFiles: [] as string[] };
    const sampler = setInterval(() => {
      const state = kit.ext.testing.sync.state();
      if (state?.kind === 'syncing') seen.files = Math.max(seen.files, state.files);
      seen.outputFiles.push(...outputFiles());
    }, 20);
    let r: Outcome;
    try {
      r = await vscode.commands.executeCommand<Outcome>(
        'tensorpool.syncFolderToNode',
        vscode.Uri.file(kit.folder),
      );
    } finally {
      clearInterval(sampler);
      kit.ext.testing.configure({});
      fs.rmSync(slow, { recursive: true, force: true });
    }
    assert.deepEqual(r, { ok: true, remote: path.basename(kit.folder) });
    assert.ok(seen.files > 0, 'the first sync showed how many files it had sent');
    assert.deepEqual([...seen.outputFiles, ...outputFiles()], [], "rsync's output file was on the disk");
    // The big file goes again (the later tests' syncs stay small): the watch deletes the node's copy.
    fs.rmSync(weights);
    await until('weights.bin deleted on the node', () => !fs.existsSync(path.join(remoteDir, 'weights.bin')));
    await kit.ext.testing.sync.flushed();
    assert.equal(p.shown.find((s) => s.kind === 'input')?.value, `~/${path.basename(kit.folder)}`);
    assert.deepEqual(tree(remoteDir), expected());
    assert.equal(tree(remoteDir).inside, '-> train.py', 'a link inside the folder stays a link');
    assert.ok(!fs.existsSync(path.join(remoteDir, 'escape')), 'a link out of the folder is not copied');
    assert.ok(!fs.existsSync(path.join(kit.cluster.nodeDir, 'home', 'pwned')), 'no shell read the name');
    assert.ok(!fs.existsSync(path.join(path.dirname(kit.folder), 'pwned')));
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
    assert.equal(kit.ext.testing.sync.watching(), true);
    assert.match(kit.ext.testing.sync.text() ?? '', /^⇅ node 1 · synced \d+ s ago$/);
  });

  test('watching: edits, creations, renames and deletions reach the node; only files it sent are deleted', async () => {
    fs.writeFileSync(path.join(kit.folder, 'train.py'), 'print("edited")\n');
    writeFiles(kit.folder, {
      'new dir/new file.txt': 'new\n',
      'sub/more.csv': '3,4\n',
      'later.log': 'ignored\n',
    });
    fs.renameSync(path.join(kit.folder, 'π ünï.txt'), path.join(kit.folder, 'renamed.txt'));
    fs.rmSync(path.join(kit.folder, 'sub', 'data.csv'));
    // A local file of the name of the node's own file, never sent, then deleted: the node's stays.
    fs.writeFileSync(path.join(kit.folder, 'made-on-node.txt.local'), 'x');
    fs.rmSync(path.join(kit.folder, 'made-on-node.txt.local'));
    await until('the node has every change', async () => {
      await kit.ext.testing.sync.flushed();
      return isDeepStrictEqual(tree(remoteDir), expected());
    }).catch(() =>
      assert.fail(`${diff(tree(remoteDir), expected())}\n${kit.ext.testing.logTail.slice(-6).join('\n')}`),
    );
    const node = tree(remoteDir);
    assert.ok(!('sub/data.csv' in node) && !('π ünï.txt' in node) && 'renamed.txt' in node);
    assert.ok(!('later.log' in node), 'an ignored new file stays here');
    assert.equal(fs.readFileSync(path.join(remoteDir, 'made-on-node.txt'), 'utf8'), 'theirs\n');
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
  });

  test('one ssh connection per sync: its own master is up, on a socket in a private folder', () => {
    const m = sshMasters();
    assert.equal(m.length, 1, JSON.stringify(m));
    const socket = m[0].args[m[0].args.indexOf('-S') + 1];
    assert.match(socket, /tp-sync-[^/]+\/ssh$/);
    assert.equal(fs.statSync(path.dirname(socket)).mode & 0o777, 0o700);
    const check = spawnSync('ssh', ['-S', socket, '-O', 'check', 'node'], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  });

  test("a failure on the node in rsync's own words; Retry sends the change once it is fixed", async () => {
    fs.renameSync(remoteDir, `${remoteDir}.moved`);
    fs.writeFileSync(remoteDir, 'a file where the folder was\n');
    fs.writeFileSync(path.join(kit.folder, 'train.py'), 'print("while broken")\n');
    await until('the sync failed', async () => kit.ext.testing.sync.state()?.kind === 'failed');
    const state = kit.ext.testing.sync.state();
    assert.ok(
      state?.kind === 'failed' && /not a directory|file exists/i.test(state.why),
      JSON.stringify(state),
    );
    fs.rmSync(remoteDir);
    fs.renameSync(`${remoteDir}.moved`, remoteDir);
    kit.ext.setPrompter(new ScriptedPrompter(['Retry']));
    await vscode.commands.executeCommand('tensorpool.syncMenu');
    await kit.ext.testing.sync.flushed();
    assert.equal(fs.readFileSync(path.join(remoteDir, 'train.py'), 'utf8'), 'print("while broken")\n');
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
  });

  test('signing out stops the sync; signing in again offers to resume, and what changed meanwhile is sent', async () => {
    await vscode.commands.executeCommand('tensorpool.signOut');
    await accountIs(kit.ext, 'signedOut');
    assert.equal(kit.ext.testing.sync.state(), undefined, 'stopped at sign-out');
    fs.writeFileSync(path.join(kit.folder, 'train.py'), 'print("while signed out")\n');
    await new Promise((r) => setTimeout(r, 500));
    assert.notEqual(fs.readFileSync(path.join(remoteDir, 'train.py'), 'utf8'), 'print("while signed out")\n');
    const p = new ScriptedPrompter(['Resume']);
    kit.ext.setPrompter(p);
    assert.equal((await signIn()).ok, true);
    await kit.ext.refresh();
    await until('resumed and sent', async () => {
      await kit.ext.testing.sync.flushed();
      return fs.readFileSync(path.join(remoteDir, 'train.py'), 'utf8') === 'print("while signed out")\n';
    });
    assert.match(
      p.shown[0]?.message ?? '',
      /Resume syncing .* to ~\/sync proj; \$\(touch pwned\) on its node\?/,
    );
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
    assert.equal(kit.ext.testing.sync.watching(), true);
  });

  test('Pull from Node: lists what is new or changed there (several can be ticked); a file changed only there comes back unasked', async () => {
    await kit.ext.testing.sync.flushed();
    writeFiles(remoteDir, {
      'results/out.txt': 'made by a job\n',
      'train.py': 'print("edited on the node")\n',
    });
    const local = fs.readFileSync(path.join(kit.folder, 'train.py'), 'utf8');
    let p = new ScriptedPrompter([ticks('made-on-node.txt', 'results/out.txt')]);
    kit.ext.setPrompter(p);
    const first = await vscode.commands.executeCommand<{ kind: string; files?: string[] }>(
      'tensorpool.pullFromNode',
    );
    assert.deepEqual(first?.files?.sort(), ['made-on-node.txt', 'results/out.txt'], JSON.stringify(first));
    assert.deepEqual(p.shown[0]?.items?.sort(), ['made-on-node.txt', 'results/out.txt', 'train.py']);
    assert.equal(fs.readFileSync(path.join(kit.folder, 'train.py'), 'utf8'), local, 'not ticked: not pulled');
    assert.equal(fs.readFileSync(path.join(kit.folder, 'results/out.txt'), 'utf8'), 'made by a job\n');
    p = new ScriptedPrompter([ACCEPT]);
    kit.ext.setPrompter(p);
    const second = await vscode.commands.executeCommand<{ kind: string; files?: string[] }>(
      'tensorpool.pullFromNode',
    );
    assert.deepEqual(second?.files, ['train.py']);
    assert.equal(p.shown.length, 1, 'changed only on the node: no question');
    assert.equal(fs.readFileSync(path.join(kit.folder, 'train.py'), 'utf8'), 'print("edited on the node")\n');
    await kit.ext.testing.sync.flushed();
  });

  test('Watch off: changes wait here; Watch on again sends what changed meanwhile', async () => {
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), false);
    fs.writeFileSync(path.join(kit.folder, 'watch.txt'), 'while not watching\n');
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(!fs.existsSync(path.join(remoteDir, 'watch.txt')), 'not sent while not watching');
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
    assert.match(kit.ext.testing.sync.text() ?? '', /synced .* \(not watching\)$/);
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), true);
    await until('sent once watching again', async () => {
      await kit.ext.testing.sync.flushed();
      return fs.existsSync(path.join(remoteDir, 'watch.txt'));
    });
    assert.doesNotMatch(kit.ext.testing.sync.text() ?? '', /not watching/);
  });

  test('a file rewritten with the same size within the second it was sent in is still sent (the check after the watch was off)', async () => {
    const rel = 'same-second.txt';
    fs.writeFileSync(path.join(kit.folder, rel), 'AAAA\n');
    await until('sent', async () => {
      await kit.ext.testing.sync.flushed();
      return (
        fs.existsSync(path.join(remoteDir, rel)) &&
        fs.readFileSync(path.join(remoteDir, rel), 'utf8') === 'AAAA\n'
      );
    });
    const sent = fs.statSync(path.join(remoteDir, rel), { bigint: true }).mtimeNs;
    assert.equal(
      sent,
      fs.statSync(path.join(kit.folder, rel), { bigint: true }).mtimeNs,
      'the time went with it',
    );
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), false);
    // Rewritten while not watching, same size, its time in the same second (half a second apart).
    fs.writeFileSync(path.join(kit.folder, rel), 'BBBB\n');
    const second = Number(sent / 1_000_000_000n);
    const fraction = Number(sent % 1_000_000_000n) / 1e9;
    const t = second + (fraction < 0.5 ? fraction + 0.5 : fraction - 0.5);
    fs.utimesSync(path.join(kit.folder, rel), t, t);
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), true);
    await until('the rewrite reached the node', async () => {
      await kit.ext.testing.sync.flushed();
      return fs.readFileSync(path.join(remoteDir, rel), 'utf8') === 'BBBB\n';
    });
  });

  test('the node goes down: the sync fails with a clear sentence, and nothing here is touched', async () => {
    await control.setNodes({ down: kit.cluster.instanceId });
    fs.writeFileSync(path.join(kit.folder, 'train.py'), 'print("while down")\n');
    await until('the sync failed', async () => kit.ext.testing.sync.state()?.kind === 'failed');
    const state = kit.ext.testing.sync.state();
    assert.ok(state?.kind === 'failed' && /cannot be reached/.test(state.why), JSON.stringify(state));
    assert.match(kit.ext.testing.sync.text() ?? '', /node 1 · sync failed: The node cannot be reached/);
    assert.equal(fs.readFileSync(path.join(kit.folder, 'train.py'), 'utf8'), 'print("while down")\n');
  });

  test('Stop: the status bar item goes, the watch ends, no rsync is left running', async () => {
    assert.equal(await vscode.commands.executeCommand('tensorpool.stopSync'), true);
    assert.equal(kit.ext.testing.sync.state(), undefined);
    assert.equal(kit.ext.testing.sync.watching(), undefined);
    fs.writeFileSync(path.join(kit.folder, 'train.py'), 'after stop\n');
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(processesIn(kit.folder), [], 'no process runs in the folder');
    assert.equal(kit.ext.testing.sync.state(), undefined, 'nothing started again');
    assert.deepEqual(sshMasters(), [], "the sync's ssh master ended with it");
  });

  test('the cluster goes: the sync stops and its status bar item goes', async () => {
    kit.ext.setPrompter(new ScriptedPrompter([kit.cluster.name, ACCEPT]));
    // The node is down (the test before): the sync starts and fails, and stays until its cluster goes.
    const r = await vscode.commands.executeCommand<Outcome>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.equal(r?.ok, false);
    assert.equal(kit.ext.testing.sync.state()?.kind, 'failed');
    await removeCluster(kit.cluster);
    await kit.ext.refresh();
    await until('the sync stopped', () => kit.ext.testing.sync.state() === undefined);
    assert.equal(kit.ext.testing.sync.watching(), undefined);
  });
});

/** The paths that differ between two trees (node, expected), for a failure's message. */
function diff(node: Record<string, string>, want: Record<string, string>): string {
  const keys = [...new Set([...Object.keys(node), ...Object.keys(want)])].sort();
  return keys
    .filter((k) => node[k] !== want[k])
    .map((k) => `${JSON.stringify(k)}: node ${node[k] ?? 'absent'}, expected ${want[k] ?? 'absent'}`)
    .join('\n');
}

/** The ssh masters of folder syncs this extension host runs (`ssh -M -N -S …/tp-sync-…/ssh`). */
function sshMasters(): { pid: number; args: string[] }[] {
  const out: { pid: number; args: string[] }[] = [];
  for (const e of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const args = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      // Started by this extension host (the tests run in it), not by another run on this machine.
      const ppid = Number(fs.readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (args.includes('-M') && args.some((a) => /tp-sync-[^/]+\/ssh$/.test(a))) out.push({ pid: +e, args });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
