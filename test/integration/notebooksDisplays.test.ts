// update_display_data for a display of a cell that already finished (notebooks/onUse/cellOutputs.ts), against
// an engine node (OpenSSH sshd) with Debian's Jupyter server and IPython kernel: a later cell updating an
// earlier cell's display handle replaces that earlier cell's output in place, and the earlier cell keeps its
// execution count and result.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { until, useJobKit } from './jobKit';
import { freshHome, pickNode, runCellOf, showNotebook } from './notebookKit';
import { writeFiles } from './realCluster';

const CELLS = ["h = display('first', display_id=True)", "h.update('later')\n'updated'"];
const NOTEBOOK = JSON.stringify({
  cells: CELLS.map((c, i) => ({
    cell_type: 'code',
    id: `c${i}`,
    metadata: {},
    execution_count: null,
    outputs: [],
    source: c.split(/(?<=\n)/),
  })),
  metadata: { language_info: { name: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
});

const plain = (cell: vscode.NotebookCell) =>
  cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === 'text/plain')
    .map((i) => new TextDecoder().decode(i.data))
    .join('|');

suite('Notebooks: a later cell updates an earlier cell’s display', function () {
  this.timeout(180_000);
  const kit = useJobKit('nb-displays', 'nbdisplays');
  let home: string;
  let nb: vscode.NotebookDocument;
  const notebooks = () => kit.ext.testing.notebooks();

  const runCell = async (i: number) => (await runCellOf(nb, i)).cell;

  suiteSetup(async function () {
    this.timeout(60_000);
    home = freshHome('nb-displays-home');
    kit.ext.testing.configure({ home: () => home, isTrusted: () => true });
    writeFiles(kit.folder, { 'displays.ipynb': NOTEBOOK });
    nb = await showNotebook(path.join(kit.folder, 'displays.ipynb'));
    await pickNode(kit.ext, nb, kit.cluster);
  });

  setup(() => kit.ext.testing.configure({ home: () => home, isTrusted: () => true }));

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('tensorpool.shutDownKernel');
    const entry = notebooks().controllers.byNode(kit.cluster.id, kit.cluster.instanceId);
    if (entry)
      await notebooks()
        .stopServer(entry.target)
        .catch(() => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('the earlier cell’s output is replaced in place; its count and result stay', async () => {
    kit.ext.setPrompter(new ScriptedPrompter(['Use Home Folder']));
    const first = await runCell(0);
    assert.equal(plain(first), "'first'");
    const before = first.executionSummary;
    assert.equal(before?.success, true);
    const later = await runCell(1);
    assert.equal(plain(later), "'updated'", 'the later cell shows only its own result');
    await until('the earlier cell shows the update', () => plain(nb.cellAt(0)) === "'later'", 10_000);
    assert.equal(nb.cellAt(0).outputs.length, 1, 'replaced, not added');
    // The replacement and the short execution's end reach the document one after the other.
    await until('the earlier cell ended again', () => nb.cellAt(0).executionSummary?.success !== undefined);
    const after = nb.cellAt(0).executionSummary;
    assert.equal(after?.executionOrder, before?.executionOrder);
    assert.equal(after?.success, true);
    assert.equal(after?.timing?.endTime, before?.timing?.endTime);
  });
});
