// The status bar item of a notebook attached to a TensorPool node (notebooks/onUse/notebookStatusBar.ts),
// against an engine node (OpenSSH sshd, the node's nvidia-smi): once the notebook's kernel is the node, the
// item shows the node's GPUs (utilisation, memory) and the cluster's hourly price from the service's quote;
// with the notebook hidden no GPU sampling runs (no nvidia-smi ssh of ours, the sampler watches nothing for
// it) and the item hides; shown again, sampling resumes; closed, it stops again.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until, useJobKit } from './jobKit';
import { freshHome, nodeEntry, showNotebook } from './notebookKit';
import { sshProcesses } from './portsHelpers';
import { writeFiles } from './realCluster';

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'code', id: 'c0', metadata: {}, execution_count: null, outputs: [], source: ['1+1'] }],
  metadata: { language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
});

/** until(), saying what was seen when it timed out. */
async function waitFor(check: () => boolean, seen: () => string, timeoutMs: number): Promise<void> {
  try {
    await until('', check, timeoutMs);
  } catch {
    assert.fail(`timed out waiting for: ${seen()}`);
  }
}

suite('Notebooks: the GPUs of the node in the status bar', function () {
  this.timeout(120_000);
  const kit = useJobKit('nb-status', 'nbstatus');
  let home: string;
  let nb: vscode.NotebookDocument;
  let controllerId: string;

  const notebooks = () => kit.ext.testing.notebooks();
  const item = () => notebooks().statusBar.item;
  /** Our ssh sessions that sample GPUs (the nvidia-smi loop), not the Jupyter tunnel. */
  const samplers = () => sshProcesses(home).filter((p) => p.args.includes('nvidia-smi'));
  const select = (id: string) =>
    vscode.commands.executeCommand('notebook.selectKernel', {
      id,
      extension: 'tensorpool.tensorpool-vscode',
    });

  suiteSetup(async function () {
    this.timeout(60_000);
    home = freshHome('nb-status-home');
    kit.ext.testing.configure({ home: () => home, isTrusted: () => true });
    writeFiles(kit.folder, { 'status.ipynb': NOTEBOOK });
    nb = await showNotebook(path.join(kit.folder, 'status.ipynb'));
    controllerId = (await nodeEntry(kit.ext, kit.cluster)).controller.id;
  });

  setup(() => kit.ext.testing.configure({ home: () => home, isTrusted: () => true }));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('attached: the node GPUs and the hourly price; nothing is sampled before', async () => {
    assert.equal(notebooks().statusBar.watching, undefined, 'no kernel of ours picked: nothing watched');
    assert.equal(samplers().length, 0, 'no GPU sampling before the notebook is attached');
    await select(controllerId);
    await until(
      'the notebook is attached',
      () => notebooks().controllers.selected.get(nb)?.controller.id === controllerId,
    );
    // `$(pulse) node 1 · 1×H100 · 0% · 0/80 GB · $2.49/h` (the engine's node and quote).
    await waitFor(
      () => /node 1 · 1×H100 · \d+% · [\d.]+\/\d+ GB · \$\d+\.\d\d\/h$/.test(item().text),
      () => `the item shows the GPUs and the price (now "${item().text}")`,
      60_000,
    );
    assert.equal(notebooks().statusBar.watching, kit.cluster.instanceId);
    assert.equal(samplers().length, 1, 'one sampling session for the node');
    const cmd = item().command as vscode.Command;
    assert.equal(cmd.command, 'tensorpool.showGpuMonitor');
    assert.equal((cmd.arguments?.[0] as { instance: { id: string } }).instance.id, kit.cluster.instanceId);
    const tip = (item().tooltip as vscode.MarkdownString).value;
    assert.match(tip, /GPUs of node 1 of nb\\-status/);
    assert.match(tip, /H100/, 'the tooltip has the GPU table');
  });

  test('the notebook hidden: the sampling stops and the item hides; shown again, it resumes', async () => {
    const samples = kit.ext.testing.gpu.sampler.counts.samples;
    assert.ok(samples > 0);
    // Another editor in the notebook's place: no notebook is visible.
    const doc = await vscode.workspace.openTextDocument({ content: 'hello', language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
    await until('the notebook is hidden', () => vscode.window.visibleNotebookEditors.length === 0);
    await until('the sampling ssh ended', () => samplers().length === 0, 20_000);
    assert.equal(notebooks().statusBar.watching, undefined);
    assert.equal(kit.ext.testing.gpu.sampler.get(kit.cluster.instanceId), undefined, 'no figures kept');
    // Nothing is sampled while it stays hidden (more than one sampling interval).
    const before = kit.ext.testing.gpu.sampler.counts;
    const connections = before.connections;
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal(kit.ext.testing.gpu.sampler.counts.connections, connections, 'no new session while hidden');
    assert.equal(samplers().length, 0);
    await vscode.window.showNotebookDocument(nb);
    await waitFor(
      () => /node 1 · 1×H100 · \d+%/.test(item().text) && samplers().length === 1,
      () => `sampling resumed (item "${item().text}", ${samplers().length} sessions)`,
      60_000,
    );
    assert.equal(kit.ext.testing.gpu.sampler.counts.connections, connections + 1);
  });

  test('the notebook closed: the sampling stops', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the sampling ssh ended', () => samplers().length === 0, 20_000);
    assert.equal(notebooks().statusBar.watching, undefined);
  });
});
