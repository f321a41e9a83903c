// The folder a notebook's kernel starts in on a node (notebooks/onUse/notebookFolder.ts), against an engine
// node (OpenSSH sshd) with Debian's Jupyter server and IPython kernel: "Use Home Folder" is asked once per
// workspace folder and node and remembered in workspace state (a kernel shut down and started again, or one
// reattached after every connection of this host was dropped as at a window reload, is not asked again and
// runs in the home folder); Sync Folder to Node for that folder changes the answer (the kernel then starts in
// the synced folder), and once that sync stops the question comes back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { useJobKit } from './jobKit';
import { freshHome, pickNode, runCellOf, showNotebook } from './notebookKit';
import { writeFiles } from './realCluster';

const NOTEBOOK = JSON.stringify({
  cells: [
    {
      cell_type: 'code',
      id: 'c0',
      metadata: {},
      execution_count: null,
      outputs: [],
      source: ['import os\n', 'os.getcwd()'],
    },
  ],
  metadata: { language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
});

suite('Notebooks: the kernel’s folder on the node, asked once', function () {
  this.timeout(180_000);
  const kit = useJobKit('nb-folder', 'nbfolder');
  let home: string;
  let nb: vscode.NotebookDocument;
  const notebooks = () => kit.ext.testing.notebooks();
  const nodeHome = () => path.join(kit.cluster.nodeDir, 'home');
  const confirms = (p: ScriptedPrompter) => p.shown.filter((s) => s.kind === 'confirm');
  /** This suite's remembered answers (other suites' clusters may have theirs). */
  const remembered = () =>
    Object.fromEntries(
      Object.entries(kit.ext.testing.workspaceState.get('tensorpool.notebookFolders', {})).filter(([k]) =>
        k.includes(`|${kit.cluster.id}|`),
      ),
    );

  /** Run the cell with these answers scripted; the working folder it printed and the prompter. */
  async function run(script: string[] = []): Promise<{ cwd: string; p: ScriptedPrompter }> {
    const p = new ScriptedPrompter(script);
    kit.ext.setPrompter(p);
    await runCellOf(nb, 0);
    const item = nb.cellAt(0).outputs.flatMap((o) => o.items)[0];
    const text = item ? new TextDecoder().decode(item.data) : '';
    assert.equal(nb.cellAt(0).executionSummary?.success, true, text);
    return { cwd: text.replace(/^'|'$/g, ''), p };
  }

  suiteSetup(async function () {
    this.timeout(60_000);
    home = freshHome('nb-folder-home');
    kit.ext.testing.configure({ home: () => home, isTrusted: () => true });
    writeFiles(kit.folder, { 'where.ipynb': NOTEBOOK });
    nb = await showNotebook(path.join(kit.folder, 'where.ipynb'));
    await pickNode(kit.ext, nb, kit.cluster);
  });

  setup(() => kit.ext.testing.configure({ home: () => home, isTrusted: () => true }));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.stopSync');
    await vscode.commands.executeCommand('tensorpool.shutDownKernel');
    const entry = notebooks().controllers.byNode(kit.cluster.id, kit.cluster.instanceId);
    if (entry)
      await notebooks()
        .stopServer(entry.target)
        .catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('"Use Home Folder" once: a new kernel and a reattached one are not asked again, and run in the home', async () => {
    const first = await run(['Use Home Folder']);
    assert.equal(confirms(first.p).length, 1, 'asked the first time');
    assert.match(confirms(first.p)[0].message ?? '', /^Sync .+ to node 1 of nb-folder for this notebook\?$/);
    assert.equal(first.cwd, nodeHome());
    assert.deepEqual(Object.values(remembered()), ['home'], JSON.stringify(remembered()));
    // The kernel shut down: the next run starts a new kernel, unasked, in the home folder.
    assert.equal(await vscode.commands.executeCommand('tensorpool.shutDownKernel'), true);
    const again = await run();
    assert.equal(confirms(again.p).length, 0, JSON.stringify(again.p.shown));
    assert.equal(again.cwd, nodeHome());
    // Every connection of this host dropped (a window reload): reattached, unasked, the same folder.
    const stored = kit.ext.testing.workspaceState.get('tensorpool.notebookKernels', {})[nb.uri.toString()];
    assert.equal(stored?.path, 'where.ipynb', 'the session path is kept with the kernel');
    await notebooks().dropConnections();
    const reattached = await run();
    assert.equal(confirms(reattached.p).length, 0, JSON.stringify(reattached.p.shown));
    assert.equal(reattached.cwd, nodeHome());
    assert.ok(kit.ext.testing.logTail.some((l) => l.includes(`Reattached to kernel ${stored.kernelId}`)));
  });

  test('Sync Folder to Node changes the answer; once the sync stops, the question comes back', async () => {
    kit.ext.setPrompter(new ScriptedPrompter([kit.cluster.name, ACCEPT]));
    const synced = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tensorpool.syncFolderToNode',
      vscode.Uri.file(kit.folder),
    );
    assert.equal(synced?.ok, true, JSON.stringify(synced));
    assert.equal(await vscode.commands.executeCommand('tensorpool.shutDownKernel'), true);
    const inSync = await run();
    assert.equal(confirms(inSync.p).length, 0);
    assert.equal(inSync.cwd, path.join(nodeHome(), 'nbfolder'), 'the synced folder');
    assert.deepEqual(remembered(), {}, 'the home answer is forgotten');
    await vscode.commands.executeCommand('tensorpool.stopSync');
    assert.equal(await vscode.commands.executeCommand('tensorpool.shutDownKernel'), true);
    const asked = await run(['Use Home Folder']);
    assert.equal(confirms(asked.p).length, 1, 'asked again');
    assert.equal(asked.cwd, nodeHome());
  });
});
