// A minimal notebook controller in the bench's extension host (issue 42's 1+1 and 100,000-line rows; used by
// ./notebookBench.ts): what any controller pays for a cell in VS Code. The same client library in this host
// (../jupyterLink.ts), a kernel of its own on the notebook's server through the extension's tunnel, and a handler
// that does only what a cell run must: start the execution, clear the cell, send the code, put the result in the
// cell, end it once the kernel is idle. A stream's text is put in the cell once, whole, at the end: the fewest
// operations any controller can ask of the window for it (nothing shown while the cell runs). No bounds, no
// reconnection, no errors said: a reference, not a product. Its Run command to the cell's end in the document,
// beside the extension's and the plain client's, says how much of the extension's time is VS Code's own.
import * as vscode from 'vscode';
import type { KernelConnection } from '@jupyterlab/services';
import { until } from '../../shared/wait';
import { settings, startKernel, type Link } from '../jupyterLink';
import { runCell, textOf } from './notebookProbe';

const ID = 'tensorpool-bench-reference';

export class ReferenceNotebook {
  private order = 0;
  private notebook: vscode.NotebookDocument | undefined;

  private constructor(
    private readonly controller: vscode.NotebookController,
    private readonly kernel: KernelConnection,
  ) {
    controller.supportedLanguages = ['python'];
    controller.supportsExecutionOrder = true;
    controller.executeHandler = async (cells) => {
      for (const cell of cells) await this.run(cell);
    };
  }

  /** An untitled notebook of a `1+1` cell and `others` in `column`, its kernel this controller, the first cell
   *  run once. */
  static async open(
    link: Link,
    others: readonly string[],
    column: vscode.ViewColumn,
  ): Promise<ReferenceNotebook> {
    const kernel = await startKernel(settings(link));
    const controller = vscode.notebooks.createNotebookController(
      ID,
      'jupyter-notebook',
      'Bench: minimal controller',
    );
    const ref = new ReferenceNotebook(controller, kernel);
    try {
      const cells = ['1+1', ...others].map(
        (code) => new vscode.NotebookCellData(vscode.NotebookCellKind.Code, code, 'python'),
      );
      const nb = await vscode.workspace.openNotebookDocument(
        'jupyter-notebook',
        new vscode.NotebookData(cells),
      );
      ref.notebook = nb;
      await vscode.window.showNotebookDocument(nb, { viewColumn: column });
      let selected = false;
      const sub = controller.onDidChangeSelectedNotebooks(
        (e) => (selected ||= e.notebook === nb && e.selected),
      );
      // This file is in the extension's folder: VS Code counts its controller as the extension's.
      await vscode.commands.executeCommand('notebook.selectKernel', {
        id: ID,
        extension: 'tensorpool.tensorpool-vscode',
      });
      await until('the minimal controller selected', () => selected, 10_000).finally(() => sub.dispose());
      await runCell(nb, 0);
      if (textOf(nb.cellAt(0), 'text/plain') !== '2')
        throw new Error('1+1 did not show 2 (minimal controller)');
      return ref;
    } catch (e) {
      await ref.close();
      throw e;
    }
  }

  /** Its `1+1` cell run: VS Code's Run command to the cell's end in the document (ms). */
  async time(): Promise<number> {
    const { ms, cell } = await this.timeCell(0);
    if (textOf(cell, 'text/plain') !== '2') throw new Error('1+1 did not show 2 (minimal controller)');
    return ms;
  }

  /** Cell `index` run: VS Code's Run command to the cell's end in the document (ms), and the cell. */
  async timeCell(index: number): Promise<{ ms: number; cell: vscode.NotebookCell }> {
    const nb = this.notebook!;
    const run = await runCell(nb, index);
    return { ms: run.t1 - run.t0, cell: nb.cellAt(index) };
  }

  private async run(cell: vscode.NotebookCell): Promise<void> {
    const execution = this.controller.createNotebookCellExecution(cell);
    execution.executionOrder = ++this.order;
    execution.start(Date.now());
    void execution.clearOutput();
    const future = this.kernel.requestExecute({
      code: cell.document.getText(),
      store_history: true,
      stop_on_error: true,
    });
    let stdout = '';
    future.onIOPub = (m) => {
      if (m.header.msg_type === 'stream') stdout += (m.content as { text?: string }).text ?? '';
      if (m.header.msg_type !== 'execute_result') return;
      const data = (m.content as { data?: Record<string, unknown> }).data ?? {};
      void execution.appendOutput(
        new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(String(data['text/plain']))]),
      );
    };
    const reply = await future.done;
    if (stdout !== '')
      void execution.appendOutput(
        new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stdout(stdout)]),
      );
    execution.end(reply.content.status === 'ok', Date.now());
  }

  /** Its editor closed, the controller gone, its kernel shut down. */
  async close(): Promise<void> {
    if (this.notebook) {
      await vscode.window.showNotebookDocument(this.notebook);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      this.notebook = undefined;
    }
    this.controller.dispose();
    await this.kernel.shutdown().catch(() => undefined);
    this.kernel.dispose();
  }
}
