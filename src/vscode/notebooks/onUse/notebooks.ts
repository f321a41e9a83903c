/**
 * Notebooks on TensorPool nodes, loaded when the first `.ipynb` opens (dist/notebooks.js, esbuild.mjs): the
 * kernel picker's entries and their kernels (notebookKernels.ts), and the commands Restart Kernel, Shut Down
 * Kernel and Stop Jupyter on Node. `@jupyterlab/services` is in this bundle only.
 */
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import { notices } from '../../shared/notices';
import { NotebookKernels, type NotebookDeps as KernelDeps } from './notebookKernels';
import { NotebookStatusBar, type NotebookGpuDeps } from './notebookStatusBar';

export type NotebookDeps = KernelDeps & {
  /** The GPU telemetry, for the status bar item of the node a visible notebook runs on. */
  readonly gpu: NotebookGpuDeps;
};

export class Notebooks extends NotebookKernels {
  /** The GPUs of the node a visible notebook runs on (notebookStatusBar.ts). */
  readonly statusBar: NotebookStatusBar;

  constructor(private readonly deps: NotebookDeps) {
    super(deps, deps.gpu.sampler);
    this.statusBar = new NotebookStatusBar(this.controllers, deps.gpu, deps.prices);
  }

  override dispose(): void {
    this.statusBar.dispose();
    super.dispose();
  }

  private noKernel(): void {
    void notices.showInformationMessage(
      vscode.l10n.t(
        'The active notebook has no TensorPool kernel running: run a cell on a TensorPool node first.',
      ),
    );
  }

  async restartCommand(): Promise<boolean> {
    const ok = await this.restart();
    if (!ok) this.noKernel();
    return ok;
  }

  async shutDownCommand(): Promise<boolean> {
    const ok = await this.shutDown();
    if (!ok) this.noKernel();
    return ok;
  }

  /** Stop Jupyter on Node: the node row, or a pick; asked first (its kernels end). */
  async stopJupyterCommand(arg?: unknown): Promise<boolean> {
    const ports = await this.deps.ports();
    const t = await ports.target(arg, vscode.l10n.t('Stop Jupyter on Node'));
    if (!t) return false;
    const stop = vscode.l10n.t('Stop Jupyter');
    const answer = await this.deps.prompts().confirm({
      message: vscode.l10n.t('Stop Jupyter on node {0} of {1}?', t.node, clusterLabel(t.cluster)),
      detail: vscode.l10n.t(
        'Every kernel it runs ends, with its variables. Notebooks start a new one on their next run.',
      ),
      actions: [stop],
      modal: true,
    });
    if (answer !== stop) return false;
    try {
      const stopped = await this.stopServer(t);
      void notices.showInformationMessage(
        stopped
          ? vscode.l10n.t('Jupyter stopped on node {0} of {1}.', t.node, clusterLabel(t.cluster))
          : vscode.l10n.t('No Jupyter of ours ran on node {0} of {1}.', t.node, clusterLabel(t.cluster)),
      );
      return stopped;
    } catch (e) {
      void notices.showErrorMessage(e instanceof Error ? e.message : String(e));
      return false;
    }
  }
}

export function createNotebooks(deps: NotebookDeps): Notebooks {
  return new Notebooks(deps);
}
