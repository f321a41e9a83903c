// Sync Folder to Node when both sides change, against the engine's real nodes (OpenSSH sshd, rsync over the
// extension's own ssh; the node's copy is written directly in the node's folder, as a job or a user there
// would): a file changed on both sides since the last sync is asked about, never overwritten silently;
// "Keep the Node's" brings the node's copy here, "Keep Mine" sends this one, "Choose per File…" ticks
// which; a file changed only on the node is neither sent over nor asked about, and Pull from Node brings it
// back without a question (a pick of several files, all ticked at first), asking only for true conflicts;
// a file deleted here but changed there is kept there. Every outcome is checked by sha256 on both sides.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCEPT, ESCAPE, ScriptedPrompter, ticks } from '../fixtures/scriptedPrompter';
import { until, useJobKit } from './jobKit';
import { writeFiles } from './realCluster';

const sha = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
const text = (s: string) => createHash('sha256').update(s).digest('hex');

suite('Sync: a file changed on both sides is asked about, never overwritten', function () {
  this.timeout(90_000);
  const kit = useJobKit('sync-conflicts', 'conflict proj');
  let remote: string;
  const here = (n: string) => path.join(kit.folder, n);
  const there = (n: string) => path.join(remote, n);
  /** Both copies of `n` have the content `s` (by sha256). */
  const both = (n: string, s: string) =>
    fs.existsSync(here(n)) && sha(here(n)) === text(s) && sha(there(n)) === text(s);

  suiteSetup(async () => {
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', 200, vscode.ConfigurationTarget.Global);
    writeFiles(kit.folder, {
      'a.txt': 'a 1\n',
      'b.txt': 'b 1\n',
      'c.txt': 'c 1\n',
      'x.txt': 'x 1\n',
      'y.txt': 'y 1\n',
      'gone.txt': 'g 1\n',
      'pull/mine.txt': 'm 1\n',
    });
    remote = path.join(kit.cluster.nodeDir, 'home', path.basename(kit.folder));
    kit.ext.setPrompter(new ScriptedPrompter([kit.cluster.name, ACCEPT]));
    const r = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.equal(r?.ok, true, JSON.stringify(r));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sync.delayMs', undefined, vscode.ConfigurationTarget.Global);
  });

  test("changed on both sides, Keep the Node's: asked, the node's copy comes here, nothing sent over it", async () => {
    const p = new ScriptedPrompter(['Keep the Node’s']);
    kit.ext.setPrompter(p);
    fs.writeFileSync(there('a.txt'), 'a from the node\n');
    fs.writeFileSync(here('a.txt'), 'a saved here\n');
    await until('both have the node’s a.txt', async () => {
      await kit.ext.testing.sync.flushed();
      return both('a.txt', 'a from the node\n');
    });
    assert.equal(p.shown[0]?.kind, 'confirm');
    assert.match(p.shown[0]?.message ?? '', /^a\.txt changed both here and on node 1 since the last sync/);
    assert.deepEqual(p.shown[0]?.items, ['Keep Mine', 'Keep the Node’s']);
    assert.equal(kit.ext.testing.sync.conflicts(), 0);
    assert.equal(kit.ext.testing.sync.state()?.kind, 'synced');
  });

  test('changed on both sides, Keep Mine: the copy here is sent; until answered, it is held and shown', async () => {
    let answer: (a: string) => void = () => undefined;
    const asked = new Promise<string>((r) => (answer = r));
    // The answer waits: meanwhile the status bar says a file changed on both sides, and the node's stays.
    const p = new (class extends ScriptedPrompter {
      override async confirm(o: Parameters<ScriptedPrompter['confirm']>[0]) {
        this.shown.push({ kind: 'confirm', message: o.message, items: [...o.actions] });
        return asked;
      }
    })([]);
    kit.ext.setPrompter(p);
    fs.writeFileSync(there('b.txt'), 'b from the node\n');
    fs.writeFileSync(here('b.txt'), 'b saved here\n');
    await until('asked', () => p.shown.length === 1);
    await kit.ext.testing.sync.flushed();
    assert.equal(kit.ext.testing.sync.conflicts(), 1);
    assert.match(kit.ext.testing.sync.text() ?? '', /· 1 changed on both sides$/);
    assert.equal(sha(there('b.txt')), text('b from the node\n'), 'not overwritten while unanswered');
    answer('Keep Mine');
    await until('both have my b.txt', async () => {
      await kit.ext.testing.sync.flushed();
      return both('b.txt', 'b saved here\n');
    });
    assert.equal(kit.ext.testing.sync.conflicts(), 0);
  });

  test('Choose per File…: the ticked keep the copy here, the others take the node’s', async () => {
    const p = new ScriptedPrompter(['Choose per File…', ticks('x.txt')]);
    kit.ext.setPrompter(p);
    // Written on the node first, then here at once: one batch, two conflicts, asked together.
    fs.writeFileSync(there('x.txt'), 'x from the node\n');
    fs.writeFileSync(there('y.txt'), 'y from the node\n');
    fs.writeFileSync(here('x.txt'), 'x saved here\n');
    fs.writeFileSync(here('y.txt'), 'y saved here\n');
    await until('x mine, y theirs', async () => {
      await kit.ext.testing.sync.flushed();
      return both('x.txt', 'x saved here\n') && both('y.txt', 'y from the node\n');
    });
    assert.match(p.shown[0]?.message ?? '', /^2 files changed both here and on node 1/);
    assert.equal(p.shown[1]?.kind, 'pickMany');
    assert.deepEqual(p.shown[1]?.items, ['x.txt', 'y.txt']);
  });

  test('changed only on the node: not sent over, not asked; a file deleted here but changed there is kept', async () => {
    const p = new ScriptedPrompter([]);
    kit.ext.setPrompter(p);
    fs.writeFileSync(there('c.txt'), 'c from the node\n');
    fs.writeFileSync(there('gone.txt'), 'g changed on the node\n');
    fs.rmSync(here('gone.txt'));
    // A later save of another file makes a batch that includes nothing of c.txt: it stays as the node has it.
    fs.writeFileSync(here('d.txt'), 'd new\n');
    await until('d.txt sent', async () => {
      await kit.ext.testing.sync.flushed();
      return fs.existsSync(there('d.txt'));
    });
    assert.equal(sha(there('c.txt')), text('c from the node\n'));
    assert.equal(sha(there('gone.txt')), text('g changed on the node\n'), 'kept on the node');
    assert.equal(p.shown.length, 0, 'nothing asked');
  });

  test('Pull from Node: several files ticked, all at first; only what changed there, asking only for a true conflict', async () => {
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), false);
    writeFiles(remote, { 'out/r1.txt': 'result 1\n', 'out/r2.txt': 'result 2\n' });
    fs.writeFileSync(there('pull/mine.txt'), 'm from the node\n');
    fs.writeFileSync(here('pull/mine.txt'), 'm changed here\n');
    fs.writeFileSync(here('x.txt'), 'x changed only here\n');
    // Only r1 and c.txt ticked: c.txt changed only there (no question), r1 is new.
    let p = new ScriptedPrompter([ticks('c.txt', 'out/r1.txt')]);
    kit.ext.setPrompter(p);
    const first = await vscode.commands.executeCommand<{ kind: string; files?: string[] }>(
      'tensorpool.pullFromNode',
    );
    assert.deepEqual(first?.files?.sort(), ['c.txt', 'out/r1.txt'], JSON.stringify(first));
    assert.equal(p.shown[0]?.kind, 'pickMany');
    assert.deepEqual(p.shown[0]?.items?.sort(), [
      'c.txt',
      'gone.txt',
      'out/r1.txt',
      'out/r2.txt',
      'pull/mine.txt',
    ]);
    assert.deepEqual(p.shown[0]?.picked, p.shown[0]?.items, 'all ticked at first');
    assert.ok(!p.shown[0]?.items?.includes('x.txt'), 'changed only here: nothing to bring back');
    assert.equal(p.shown.length, 1, 'no question for files changed only on the node');
    assert.ok(both('c.txt', 'c from the node\n') && both('out/r1.txt', 'result 1\n'));
    assert.ok(!fs.existsSync(here('out/r2.txt')), 'not ticked: not pulled');
    // Everything (Enter): the conflict is asked; Keep Mine leaves the copy here and brings the rest.
    p = new ScriptedPrompter([ACCEPT, 'Keep Mine']);
    kit.ext.setPrompter(p);
    const second = await vscode.commands.executeCommand<{ files?: string[] }>('tensorpool.pullFromNode');
    assert.deepEqual(second?.files?.sort(), ['gone.txt', 'out/r2.txt'], JSON.stringify(second));
    assert.match(p.shown[1]?.message ?? '', /^1 of these files changed here too since the last sync/);
    assert.equal(p.shown[1]?.detail, 'pull/mine.txt');
    assert.equal(sha(here('pull/mine.txt')), text('m changed here\n'), 'kept');
    // Asked again, Overwrite: the node's copy comes here.
    p = new ScriptedPrompter([ACCEPT, 'Overwrite']);
    kit.ext.setPrompter(p);
    const third = await vscode.commands.executeCommand<{ files?: string[] }>('tensorpool.pullFromNode');
    assert.deepEqual(third?.files, ['pull/mine.txt']);
    assert.ok(both('pull/mine.txt', 'm from the node\n'));
    // Escape leaves everything as it is.
    fs.writeFileSync(there('c.txt'), 'c again on the node\n');
    p = new ScriptedPrompter([ESCAPE]);
    kit.ext.setPrompter(p);
    const fourth = await vscode.commands.executeCommand<{ kind: string }>('tensorpool.pullFromNode');
    assert.equal(fourth?.kind, 'cancelled');
    assert.equal(sha(here('c.txt')), text('c from the node\n'));
    assert.equal(await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'), true);
  });
});
