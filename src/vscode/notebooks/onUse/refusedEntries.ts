/**
 * The kernel picker's entry for a running cluster whose node refused the user's SSH keys (nodeLogins.ts): one
 * per cluster, in place of its refused nodes' kernels, whose label says it does not accept your SSH keys.
 * Selecting it, or running a cell on it, says so with Add SSH Key… (the cell fails with the same sentence).
 */
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import type { ConnectTarget } from '../../connect/onUse';
import { Commands } from '../../shared/commands';
import { notices } from '../../shared/notices';
import { refusedMessage } from './nodeLogins';

interface RefusedEntry {
  readonly controller: vscode.NotebookController;
  /** The first node of the cluster that refused (named in the message). */
  target: ConnectTarget;
}

const refusedControllerId = (clusterId: string) => `tensorpool-refused-${clusterId}`.replace(/[^\w.-]/g, '_');

export class RefusedEntries implements vscode.Disposable {
  private readonly byCluster = new Map<string, RefusedEntry>();
  /** When each cluster's refusal was last said. */
  private readonly told = new Map<string, number>();

  constructor(private readonly notebookType: string) {}

  /** The cluster's entry (tests). */
  get(clusterId: string): vscode.NotebookController | undefined {
    return this.byCluster.get(clusterId)?.controller;
  }

  /** One entry per cluster in `refusing` (cluster id -> its first refused node); the others go. */
  update(refusing: ReadonlyMap<string, ConnectTarget>): void {
    for (const [id, t] of refusing) {
      let e = this.byCluster.get(id);
      if (!e) this.byCluster.set(id, (e = this.create(t)));
      e.target = t;
      e.controller.label = vscode.l10n.t(
        'TensorPool: {0} (does not accept your SSH keys)',
        clusterLabel(t.cluster),
      );
      e.controller.description = vscode.l10n.t('Add SSH Key…');
      e.controller.detail = vscode.l10n.t(
        'Node {0} of {1} refused the login with your SSH keys: no kernel can start there.',
        t.node,
        clusterLabel(t.cluster),
      );
    }
    for (const [id, e] of this.byCluster)
      if (!refusing.has(id)) {
        this.byCluster.delete(id);
        e.controller.dispose();
      }
  }

  private create(target: ConnectTarget): RefusedEntry {
    const controller = vscode.notebooks.createNotebookController(
      refusedControllerId(target.cluster.id),
      this.notebookType,
      refusedControllerId(target.cluster.id),
    );
    controller.supportedLanguages = ['python'];
    const e: RefusedEntry = { controller, target };
    controller.executeHandler = (cells) => {
      for (const cell of cells) {
        const run = controller.createNotebookCellExecution(cell);
        run.start(Date.now());
        void run.replaceOutput(
          new vscode.NotebookCellOutput([
            vscode.NotebookCellOutputItem.error({ name: 'TensorPool', message: refusedMessage(e.target) }),
          ]),
        );
        run.end(false, Date.now());
      }
      this.tell(e.target);
    };
    controller.onDidChangeSelectedNotebooks(({ selected }) => {
      if (selected) this.tell(e.target);
    });
    return e;
  }

  /** Say that the node refuses the user's keys, with Add SSH Key… (once for a selection and the run after). */
  private tell(t: ConnectTarget): void {
    const now = Date.now();
    if (now - (this.told.get(t.cluster.id) ?? 0) < 10_000) return;
    this.told.set(t.cluster.id, now);
    const add = vscode.l10n.t('Add SSH Key…');
    void notices.showErrorMessage(refusedMessage(t), add).then((answer) => {
      if (answer === add) void vscode.commands.executeCommand(Commands.addSshKey);
    });
  }

  dispose(): void {
    for (const e of this.byCluster.values()) e.controller.dispose();
    this.byCluster.clear();
  }
}
