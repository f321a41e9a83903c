/**
 * The kernel each notebook last ran on, kept in workspace state by notebook URI (cluster, node, kernel and
 * session ids, the session's path on the node; never a token): the next run reattaches to it, a window that
 * reloads prefers that node's entry again, and a kernel started again there keeps its folder.
 */
import type * as vscode from 'vscode';
import type { ConnectTarget } from '../../connect/onUse';
import type { StoredKernel, WorkspaceState } from '../../shared/storedState';

export class KernelRecords {
  constructor(private readonly state: WorkspaceState) {}

  get(notebook: vscode.NotebookDocument): StoredKernel | undefined {
    return this.state.get('tensorpool.notebookKernels', {})[notebook.uri.toString()];
  }

  /** Did the notebook last run on this node? */
  ranOn(notebook: vscode.NotebookDocument, t: ConnectTarget): boolean {
    const s = this.get(notebook);
    return !!s && s.clusterId === t.cluster.id && s.instanceId === t.instance.id;
  }

  /** Keep (or forget, `undefined`) the notebook's kernel; the 50 latest are kept. */
  async set(notebook: vscode.NotebookDocument, s: StoredKernel | undefined): Promise<void> {
    const all = { ...this.state.get('tensorpool.notebookKernels', {}) };
    delete all[notebook.uri.toString()];
    if (s) all[notebook.uri.toString()] = s;
    await this.state.update('tensorpool.notebookKernels', Object.fromEntries(Object.entries(all).slice(-50)));
  }
}
