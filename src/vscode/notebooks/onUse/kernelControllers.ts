/**
 * The kernel picker's TensorPool entries: one NotebookController for `jupyter-notebook` (VS Code's own .ipynb
 * serializer) per node of a running cluster with an address to log in to, named for the cluster and node,
 * with its GPUs (`8×H100`) and the cluster's hourly price when the service quoted one. Kept in step with the
 * cluster list: a cluster that leaves it (destroyed) takes its entries with it, and a notebook attached to one
 * is told why. A node known to refuse the user's keys (nodeLogins.ts: checked once while a notebook is
 * visible) has no entry; its cluster has one that says so instead (refusedEntries.ts).
 */
import * as vscode from 'vscode';
import { clusterLabel, clusterPhase, type Cluster, type Instance } from '../../../model/cluster';
import { gpuLabel } from '../../../model/jupyterNode';
import type { ClustersController } from '../../clusters';
import type { ClusterPrices } from '../../cost';
import type { ConnectTarget } from '../../connect/onUse';
import { notices } from '../../shared/notices';
import type { NodeLogins } from './nodeLogins';
import { RefusedEntries } from './refusedEntries';

const NOTEBOOK_TYPE = 'jupyter-notebook';

export interface NodeController {
  readonly controller: vscode.NotebookController;
  target: ConnectTarget;
}

export interface ControllerHandlers {
  execute(cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument, c: NodeController): Promise<void>;
  interrupt(notebook: vscode.NotebookDocument, c: NodeController): Promise<void>;
  /** The node's entry is gone (its cluster left the list): drop what is connected to it. */
  gone(c: NodeController, why: string): void;
  /** The notebooks that should pick this entry first (they ran on it before). */
  preferred(c: NodeController): readonly vscode.NotebookDocument[];
}

const controllerId = (clusterId: string, instanceId: string) =>
  `tensorpool-${clusterId}-${instanceId}`.replace(/[^\w.-]/g, '_');

function price(perHour: number | undefined): string | undefined {
  return perHour === undefined ? undefined : vscode.l10n.t('${0}/h', perHour.toFixed(2));
}

export class KernelControllers implements vscode.Disposable {
  private readonly byId = new Map<string, NodeController>();
  /** The notebooks each entry is selected for. */
  readonly selected = new Map<vscode.NotebookDocument, NodeController>();
  private readonly selectedChange = new vscode.EventEmitter<void>();
  /** `selected` changed (the notebooks' status bar item follows it: notebookStatusBar.ts). */
  readonly onDidChangeSelected = this.selectedChange.event;
  private readonly subscriptions: vscode.Disposable[];
  /** The entries of clusters that refuse the user's keys. */
  readonly refused = new RefusedEntries(NOTEBOOK_TYPE);

  constructor(
    private readonly list: ClustersController,
    private readonly prices: ClusterPrices,
    private readonly logins: NodeLogins,
    private readonly handlers: ControllerHandlers,
  ) {
    this.subscriptions = [
      list.onDidChange(() => this.update()),
      prices.onDidChange(() => this.update()),
      logins.onDidChange(() => this.update()),
      // A notebook shown: its nodes' logins are checked (once each until the keys change).
      vscode.window.onDidChangeVisibleNotebookEditors(() => this.update()),
      this.refused,
    ];
    this.update();
  }

  all(): readonly NodeController[] {
    return [...this.byId.values()];
  }

  byNode(clusterId: string, instanceId: string): NodeController | undefined {
    return this.byId.get(controllerId(clusterId, instanceId));
  }

  /** The entries as the cluster list says now. */
  update(): void {
    const data = this.list.data;
    if (!data || data.lastSession) return;
    const seen = new Set<string>();
    const refusing = new Map<string, ConnectTarget>();
    const unknown: ConnectTarget[] = [];
    for (const cluster of this.list.clusters) {
      if (clusterPhase(cluster.status) !== 'running') continue;
      cluster.instances.forEach((instance, i) => {
        if (!instance.ip) return;
        const target = { cluster, instance, node: i + 1 };
        if (this.logins.refused(instance.id)) {
          if (!refusing.has(cluster.id)) refusing.set(cluster.id, target);
          return;
        }
        unknown.push(target);
        const id = controllerId(cluster.id, instance.id);
        seen.add(id);
        const c = this.byId.get(id) ?? this.create(id, target);
        c.target = target;
        this.describe(c.controller, cluster, instance, i + 1);
      });
    }
    this.refused.update(refusing);
    if (vscode.window.visibleNotebookEditors.some((e) => e.notebook.notebookType === NOTEBOOK_TYPE))
      this.logins.check(unknown);
    else this.logins.stopChecks();
    for (const [id, c] of this.byId)
      if (!seen.has(id)) {
        const listed = this.list.clusters.find((x) => x.id === c.target.cluster.id);
        this.remove(
          id,
          !listed
            ? vscode.l10n.t('{0} was destroyed', clusterLabel(c.target.cluster))
            : this.logins.refused(c.target.instance.id)
              ? vscode.l10n.t('{0} does not accept your SSH keys', clusterLabel(listed))
              : /destroy|delet|terminat/i.test(listed.status ?? '')
                ? vscode.l10n.t('{0} is being destroyed', clusterLabel(listed))
                : vscode.l10n.t('{0} is {1}', clusterLabel(listed), listed.status?.toLowerCase() ?? ''),
        );
      }
  }

  private create(id: string, target: ConnectTarget): NodeController {
    const controller = vscode.notebooks.createNotebookController(id, NOTEBOOK_TYPE, id);
    // Python first (new cells get it); every other language too, so a cell in one is refused with a message
    // (execute) rather than skipped without a word.
    controller.supportedLanguages = ['python'];
    void vscode.languages.getLanguages().then((all) => {
      controller.supportedLanguages = ['python', ...all.filter((l) => l !== 'python')];
    });
    controller.supportsExecutionOrder = true;
    const c: NodeController = { controller, target };
    controller.executeHandler = (cells, notebook) => this.handlers.execute(cells, notebook, c);
    controller.interruptHandler = (notebook) => this.handlers.interrupt(notebook, c);
    controller.onDidChangeSelectedNotebooks(({ notebook, selected }) => {
      if (selected) this.selected.set(notebook, c);
      else if (this.selected.get(notebook) === c) this.selected.delete(notebook);
      this.selectedChange.fire();
    });
    this.byId.set(id, c);
    for (const n of this.handlers.preferred(c))
      controller.updateNotebookAffinity(n, vscode.NotebookControllerAffinity.Preferred);
    return c;
  }

  private describe(
    controller: vscode.NotebookController,
    cluster: Cluster,
    instance: Instance,
    n: number,
  ): void {
    const nodes = cluster.numNodes ?? cluster.instances.length;
    controller.label =
      nodes > 1
        ? vscode.l10n.t('TensorPool: {0} · node {1}', clusterLabel(cluster), n)
        : vscode.l10n.t('TensorPool: {0}', clusterLabel(cluster));
    controller.description = [gpuLabel(cluster.instanceType), price(this.prices.hourly(cluster))]
      .filter(Boolean)
      .join(' · ');
    controller.detail = vscode.l10n.t('Python on node {0} ({1}) of cluster {2}', n, instance.id, cluster.id);
  }

  private remove(id: string, why: string): void {
    const c = this.byId.get(id);
    if (!c) return;
    this.byId.delete(id);
    const attached = [...this.selected].filter(([, x]) => x === c).map(([n]) => n);
    for (const n of attached) this.selected.delete(n);
    if (attached.length) this.selectedChange.fire();
    this.handlers.gone(c, why);
    c.controller.dispose();
    if (attached.length)
      void notices.showWarningMessage(
        vscode.l10n.t(
          'The kernel of {0} on node {1} is gone: {2}. Pick another kernel to run its cells.',
          attached.map((n) => n.uri.path.split('/').pop()).join(', '),
          c.target.node,
          why,
        ),
      );
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.selectedChange.dispose();
    for (const c of this.byId.values()) c.controller.dispose();
    this.byId.clear();
  }
}
