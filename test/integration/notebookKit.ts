// The steps every notebook suite takes (integration and reliability): a fresh home for the ssh seams, a
// notebook shown, the node's kernel entry waited for and picked through VS Code's own command, and a cell run
// through the notebook's own Run command, waited for until its run ended in the document.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { until } from '../shared/wait';

type Notebooks = ReturnType<TensorPoolExtensionApi['testing']['notebooks']>;
export type NodeEntry = NonNullable<ReturnType<Notebooks['controllers']['byNode']>>;
interface Node {
  readonly id: string;
  readonly instanceId: string;
}

/** A fresh home for the ssh seams (its .ssh private): this suite's keys and known hosts only. */
export function freshHome(prefix: string): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  return home;
}

/** Open the notebook at `file` and show it. */
export async function showNotebook(file: string): Promise<vscode.NotebookDocument> {
  const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(nb);
  return nb;
}

/** The kernel entry of the node of `cluster`, once the kernel list has it. */
export async function nodeEntry(
  ext: TensorPoolExtensionApi,
  cluster: Node,
  timeoutMs = 20_000,
): Promise<NodeEntry> {
  const controllers = ext.testing.notebooks().controllers;
  await until(
    'the node is in the kernel list',
    () => {
      controllers.update();
      return !!controllers.byNode(cluster.id, cluster.instanceId);
    },
    timeoutMs,
  );
  return controllers.byNode(cluster.id, cluster.instanceId)!;
}

/** Pick the node of `cluster` as the kernel of `nb` (the kernel picker's command); its entry once picked. */
export async function pickNode(
  ext: TensorPoolExtensionApi,
  nb: vscode.NotebookDocument,
  cluster: Node,
): Promise<NodeEntry> {
  const entry = await nodeEntry(ext, cluster);
  await vscode.commands.executeCommand('notebook.selectKernel', {
    id: entry.controller.id,
    extension: 'tensorpool.tensorpool-vscode',
  });
  await until(
    'the notebook picked the node',
    () => ext.testing.notebooks().controllers.selected.get(nb) === entry,
  );
  return entry;
}

/** Run cell i of `nb` (the notebook's own Run command) and wait until its run ended; the cell and how long. */
export async function runCellOf(
  nb: vscode.NotebookDocument,
  i: number,
  timeoutMs = 90_000,
): Promise<{ cell: vscode.NotebookCell; ms: number }> {
  const started = Date.now();
  const done = vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: i, end: i + 1 }],
    document: nb.uri,
  });
  await until(
    `cell ${i} ran`,
    () => {
      const s = nb.cellAt(i).executionSummary;
      return (s?.timing?.endTime ?? 0) >= started && s?.success !== undefined;
    },
    timeoutMs,
  );
  await done;
  return { cell: nb.cellAt(i), ms: Date.now() - started };
}
