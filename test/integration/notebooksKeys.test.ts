// Only nodes the user can log into are offered as notebook kernels (notebooks/onUse/nodeLogins.ts,
// refusedEntries.ts), against the engine's real nodes (OpenSSH sshd): with a notebook shown, each running node
// is checked once (`ssh … true`); a cluster created with another key only gets one entry saying it does not
// accept your SSH keys instead of a node entry, and a cell run on it says so with Add SSH Key…; nothing is
// tried again on its own (no second login while the list refreshes); once a key is added (and the node
// accepts the user's key) the cluster is checked again and its node entry appears and runs cells. With no
// notebook visible a check under way ends (its ssh killed) and is asked for again when one shows.
import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { until, useJobKit } from './jobKit';
import { freshHome, runCellOf, showNotebook } from './notebookKit';
import { sshProcesses } from './portsHelpers';
import { realCluster, removeCluster, writeFiles, type RealCluster } from './realCluster';

function publicKey(comment: string): string {
  const { publicKey: k } = generateKeyPairSync('ed25519');
  const der = k.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'code', id: 'c0', metadata: {}, execution_count: null, outputs: [], source: ['1+1'] }],
  metadata: { language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
});

suite('Notebooks: only nodes that accept your SSH keys are offered', function () {
  this.timeout(180_000);
  const kit = useJobKit('nb-keys', 'nbkeys');
  let home: string;
  let other: RealCluster;
  let nb: vscode.NotebookDocument;
  const notebooks = () => kit.ext.testing.notebooks();
  const checks = (id: string) =>
    kit.ext.testing.logTail.filter((l) => l.includes(`Login check of ${id} for notebooks`));

  async function runOn(id: string): Promise<{ text: string; success?: boolean }> {
    await vscode.commands.executeCommand('notebook.selectKernel', {
      id,
      extension: 'tensorpool.tensorpool-vscode',
    });
    await runCellOf(nb, 0);
    const items = nb.cellAt(0).outputs.flatMap((o) => o.items);
    return {
      text: items.map((i) => new TextDecoder().decode(i.data)).join(''),
      success: nb.cellAt(0).executionSummary?.success,
    };
  }

  suiteSetup(async function () {
    this.timeout(90_000);
    home = freshHome('nb-keys-home');
    kit.ext.testing.configure({ home: () => home, isTrusted: () => true });
    // A cluster created with another key only: its sshd answers and refuses the user's key.
    other = await realCluster(`nb-keys-other-${Date.now()}`, [publicKey('other@elsewhere')]);
    await kit.ext.refresh();
    writeFiles(kit.folder, { 'keys.ipynb': NOTEBOOK });
    nb = await showNotebook(path.join(kit.folder, 'keys.ipynb'));
  });

  setup(() => kit.ext.testing.configure({ home: () => home, isTrusted: () => true }));

  suiteTeardown(async () => {
    const entry = notebooks().controllers.byNode(other.id, other.instanceId);
    if (entry)
      await notebooks()
        .stopServer(entry.target)
        .catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await removeCluster(other);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('a cluster refusing your keys: one entry saying so, no node entry; a run on it says so', async () => {
    const controllers = notebooks().controllers;
    await until('the refusing cluster has its entry', () => !!controllers.refused.get(other.id), 60_000);
    assert.equal(controllers.byNode(other.id, other.instanceId), undefined, 'its node is not offered');
    await until('the accepting cluster is checked', () => checks(kit.cluster.instanceId).length > 0, 30_000);
    assert.ok(
      controllers.byNode(kit.cluster.id, kit.cluster.instanceId),
      'a node that lets you in is offered',
    );
    const entry = controllers.refused.get(other.id)!;
    assert.equal(entry.label, `TensorPool: ${other.name} (does not accept your SSH keys)`);
    assert.equal(entry.description, 'Add SSH Key…');
    const { text, success } = await runOn(entry.id);
    assert.equal(success, false);
    assert.match(text, /Node 1 of nb-keys-other-\d+ accepted none of your SSH keys.*Add SSH Key…/);
    // Nothing is tried again on its own: the list refreshed, the notebook hidden and shown again.
    await kit.ext.refresh();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showNotebookDocument(nb);
    await kit.ext.refresh();
    assert.equal(checks(other.instanceId).length, 1, checks(other.instanceId).join('\n'));
  });

  test('a key added: the cluster is checked again, its node entry appears and runs the cell', async () => {
    // The node now accepts the user's key too (as a cluster created with it would).
    const userKey = process.env.TENSORPOOL_TEST_SSH_PUBKEY;
    assert.ok(userKey, 'run through the harness');
    fs.appendFileSync(path.join(other.nodeDir, 'etc', 'authorized_keys'), `\n${userKey.trim()}\n`);
    kit.ext.setPrompter(new ScriptedPrompter(['Paste a public key…', publicKey('new@laptop'), '']));
    assert.match((await vscode.commands.executeCommand<string>('tensorpool.addSshKey')) ?? '', /^SHA256:/);
    const controllers = notebooks().controllers;
    await until(
      'the node entry appears',
      () => !!controllers.byNode(other.id, other.instanceId) && !controllers.refused.get(other.id),
      60_000,
    );
    await until('checked once more', () => checks(other.instanceId).length === 2, 30_000);
    assert.match(checks(other.instanceId)[1], /accepted/);
    assert.ok(controllers.byNode(other.id, other.instanceId), 'still offered');
    kit.ext.setPrompter(new ScriptedPrompter(['Use Home Folder']));
    const { text, success } = await runOn(controllers.byNode(other.id, other.instanceId)!.controller.id);
    assert.equal(success, true, text);
    assert.equal(text, '2');
  });

  test('no notebook visible: a login check under way ends (its ssh killed) and is asked for again when one shows', async () => {
    // A node whose sshd accepts and never answers (stopped): its check waits (ssh's own 15 s, our 30 s limit).
    const hung = await realCluster(`nb-keys-hung-${Date.now()}`);
    const sshd = Number(fs.readFileSync(path.join(hung.nodeDir, 'etc', 'sshd.pid'), 'utf8'));
    /** Our login checks (`ssh … sh -c true`), not the tunnels or the GPU sampling. */
    const loginChecks = () => sshProcesses(home).filter((p) => /sh -c '?true'?$/.test(p.args));
    try {
      process.kill(sshd, 'SIGSTOP');
      try {
        await kit.ext.refresh();
        await until('the new node is being checked', () => loginChecks().length === 1, 30_000);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await until('the check ended with the notebook hidden', () => loginChecks().length === 0, 5_000);
        assert.deepEqual(checks(hung.instanceId), [], 'a check ended this way says nothing of the node');
      } finally {
        process.kill(sshd, 'SIGCONT');
      }
      await vscode.window.showNotebookDocument(nb);
      await until('the node is checked again', () => checks(hung.instanceId).length === 1, 30_000);
      assert.match(checks(hung.instanceId)[0], /accepted/);
    } finally {
      await removeCluster(hung);
    }
  });
});
