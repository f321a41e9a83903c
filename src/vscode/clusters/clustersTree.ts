/**
 * The Clusters tree: a pure function of the cluster list and the store (account, followed operations).
 * Clusters with their instances as children; an error row with a retry action instead of a pile of
 * notifications; when the server answered with text only, a row that opens that text, then the clusters
 * read from it.
 *
 * Rows are stable: each has an id, the same element object for as long as the row exists (updated
 * in place), and a change event names only the rows that changed; the whole tree is redrawn only
 * when rows come, go or move (see stableNodes.ts). Whether a row changed is read from the data
 * that feeds it (dataSignature), never from built TreeItems; the Markdown tooltips are built only
 * when a row is hovered (resolveTreeItem): a list of 1,000 clusters draws in a few milliseconds.
 */
import * as vscode from 'vscode';
import type { Cluster, Instance } from '../../model/cluster';
import { clusterDescription, clusterLabel } from '../../model/labels';
import type { AttachedVolume } from '../../model/volume';
import type { Store } from '../shared/store';
import type { ClustersController } from './clusters';
import { dataSignature, recordSignature, sameKeys, StableNodes } from '../shared/stableNodes';
import { clusterContext, followedIcon, phaseIcon } from './clusterRowLook';
import { clusterTooltip } from './clusterTooltips';
import { statusRowItem, type StatusRow } from './clusterStatusRows';
import { clusterVolumeItem } from '../volumes';
import { mark, markWhen } from '../testing';
import { FirstRows } from './firstRows';
import type { Forward, PortForwards } from '../ports';
import { forwardItem } from '../ports';
import type { GpuReading } from '../../model/gpu';
import type { GpuSampler } from '../gpu';
import { gpuItem } from '../gpu';
import { NodeRows } from './nodeRows';
import { rootRows } from './rootRows';

/** Tree elements. Cluster and instance elements are kept across refreshes and updated in place. */
export type ClusterNode =
  | { readonly kind: 'cluster'; cluster: Cluster }
  | { readonly kind: 'instance'; cluster: Cluster; instance: Instance; index: number }
  | { readonly kind: 'gpu'; cluster: Cluster; instance: Instance; gpu: GpuReading }
  | { readonly kind: 'clusterVolume'; cluster: Cluster; volume: AttachedVolume }
  | { readonly kind: 'portForward'; cluster: Cluster; instance: Instance; forward: Forward }
  | StatusRow;
type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;

/** The row's key, which is also its TreeItem id. */
function nodeKey(node: ClusterNode): string {
  switch (node.kind) {
    case 'cluster':
      return `cluster:${node.cluster.id}`;
    case 'instance':
      return `instance:${node.cluster.id}:${node.instance.id}`;
    case 'gpu':
      return `gpu:${node.cluster.id}:${node.instance.id}:${node.gpu.index}`;
    case 'clusterVolume':
      return `cluster:${node.cluster.id}:volume:${node.volume.id}`;
    case 'portForward':
      return `forward:${node.cluster.id}:${node.forward.id}`;
    default:
      return `clusters:${node.kind}`;
  }
}

export class ClustersTreeProvider implements vscode.TreeDataProvider<ClusterNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ClusterNode | ClusterNode[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  private readonly nodes = new StableNodes<ClusterNode>();
  /** Keys of the top-level rows as last handed out; undefined until the first time. */
  private rootKeys: string[] | undefined;
  /**
   * The top-level rows as of the last sync. Every input of the tree (the list, the store, the volumes through
   * refreshView) announces its changes, and each change syncs at once; so between changes these are
   * the rows, and VS Code asking again (after the change event, on expand, on showing the view)
   * costs nothing.
   */
  private roots: ClusterNode[] | undefined;
  /** VS Code's first ask at startup waits for the startup's rows (firstRows.ts). */
  private readonly first = new FirstRows<ClusterNode[]>();
  /** The keys of a cluster row's nodes, as of its last change (they follow from its signature). */
  private readonly childKeys = new Map<string, string[]>();
  private readonly forwardsChanged: vscode.Disposable | undefined;
  private readonly forwards: PortForwards | undefined;
  /** Node rows and what is under them (GPUs, forwarded ports). */
  private readonly nodeRows: NodeRows;

  constructor(
    private readonly list: ClustersController,
    private readonly store: Store,
    /** Storage volumes attached to a cluster when its record does not list them (volumes view data). */
    private readonly volumesOf: (clusterId: string) => readonly AttachedVolume[] = () => [],
    /** The stored token was read (before that, "signed out" is only the state the window starts in). */
    private readonly accountKnown: () => boolean = () => true,
    /** GPU telemetry of the watched nodes (their rows change as samples arrive); a running cluster's
     *  hourly price when the service gave one (its tooltip); ports forwarded from nodes (listed under their node). */
    private readonly extras: {
      gpu?: GpuSampler;
      hourly?: (c: Cluster) => number | undefined;
      forwards?: PortForwards;
    } = {},
  ) {
    const gpu = extras.gpu;
    this.nodeRows = new NodeRows(gpu, extras.forwards);
    const fromStore = store.onDidChange((topic) => {
      if (topic !== 'objectStorage') this.update();
    });
    const fromList = list.onDidChange(() => this.update());
    this.forwards = extras.forwards;
    this.forwardsChanged = this.forwards?.onDidChange(() => this.update());
    const samples = gpu?.onDidChange((ids) => this.gpuChanged(ids));
    this.subscription = {
      dispose: () => (fromStore.dispose(), fromList.dispose(), samples?.dispose()),
    };
  }

  /** New telemetry for some nodes: redraw what it changed (nodeRows.ts). */
  private gpuChanged(instanceIds: readonly string[]): void {
    const rows = this.nodeRows.telemetryChanged(
      instanceIds,
      (id) =>
        this.nodes.find((n) => n.kind === 'instance' && n.instance.id === id) as InstanceNode | undefined,
      (fresh) => (this.nodes.has(nodeKey(fresh)) ? this.nodes.take(nodeKey(fresh), fresh) : undefined),
    );
    if (rows.length > 0 && this.roots) this.emitter.fire(rows);
  }

  /** The volumes list changed: redraw the clusters whose attached volumes changed. */
  refreshView(): void {
    this.update();
  }

  /**
   * After a change of the list or the store: redraw the whole tree if rows came, went or moved, else only changed rows.
   * Nothing before VS Code first asked, nor while its first ask waits for the startup's rows.
   */
  private update(): void {
    const before = this.rootKeys;
    const { changed } = this.sync();
    if (!this.first.changed(this.interim(), () => this.firstRows())) return;
    if (!sameKeys(before, this.rootKeys!)) this.emitter.fire(undefined);
    else if (changed.length > 0) this.emitter.fire(changed);
  }

  /** Bring the kept elements up to date with the list; returns the top-level rows and what changed. */
  private sync(): { roots: ClusterNode[]; changed: ClusterNode[] } {
    const roots: ClusterNode[] = [];
    const keys: string[] = [];
    const live = new Set<string>();
    const changed: ClusterNode[] = [];
    for (const fresh of rootRows(this.list, this.store)) {
      const key = nodeKey(fresh);
      const node = this.nodes.take(key, fresh);
      roots.push(node);
      keys.push(key);
      live.add(key);
      const isChanged = this.nodes.changed(key, this.signature(node));
      if (isChanged) changed.push(node);
      if (node.kind === 'cluster') {
        let kids = isChanged ? undefined : this.childKeys.get(key);
        if (!kids) this.childKeys.set(key, (kids = this.childRows(node).map(nodeKey)));
        for (const kid of kids) live.add(kid);
        for (const f of this.forwards?.all() ?? [])
          if (f.clusterId === node.cluster.id) live.add(`forward:${f.clusterId}:${f.id}`);
      }
    }
    this.rootKeys = keys;
    this.roots = roots;
    this.nodes.prune(
      (key) =>
        live.has(key) ||
        (key.startsWith('gpu:') && live.has(`instance${key.slice(3, key.lastIndexOf(':'))}`)),
    );
    for (const key of this.childKeys.keys()) if (!live.has(key)) this.childKeys.delete(key);
    return { roots, changed };
  }

  /**
   * What a top-level row and its nodes show depends on this data only: the cluster record (its
   * instances included), the followed operation's kind and status, the attached volumes. Other rows
   * are their own data.
   */
  private signature(node: ClusterNode): string {
    if (node.kind !== 'cluster') return dataSignature(node);
    const c = node.cluster;
    const op = this.store.clusterOperation(c.id);
    const volumes = this.volumesFor(c);
    const forwarded = this.forwards?.signature(c.id);
    if (forwarded)
      return `${recordSignature(c)}|${op ? `${op.kind}:${op.status}` : ''}|${dataSignature(volumes)}|${forwarded}`;
    // The record's own signature string when nothing else feeds the row (the common case: compared
    // by identity, not character by character).
    if (!op && volumes.length === 0) return recordSignature(c);
    return `${recordSignature(c)}|${op ? `${op.kind}:${op.status}` : ''}|${dataSignature(volumes)}`;
  }

  getChildren(node?: ClusterNode): ClusterNode[] | Promise<ClusterNode[]> {
    if (!node) {
      mark('clusters.ask'); // test/bench: when VS Code first asked for the rows
      return this.first.ask(this.interim(), () => this.firstRows());
    }
    if (node.kind === 'instance')
      return this.nodeRows.children(node, (fresh) => this.nodes.take(nodeKey(fresh), fresh));
    return node.kind === 'cluster' ? this.childRows(node) : [];
  }

  /** For reveal(): a node's cluster row, a GPU's node row. */
  getParent(node: ClusterNode): ClusterNode | undefined {
    if (node.kind === 'instance' || node.kind === 'clusterVolume')
      return this.nodes.find((n) => n.kind === 'cluster' && n.cluster.id === node.cluster.id);
    if (node.kind === 'gpu')
      return this.nodes.find((n) => n.kind === 'instance' && n.instance.id === node.instance.id);
    return undefined;
  }

  private firstRows(): ClusterNode[] {
    const roots = this.roots ?? this.sync().roots;
    markWhen('clusters.firstRows', roots, (r) => r.kind === 'cluster'); // test/bench: time to first tree
    return roots;
  }

  /** The rows now are not the startup's answer yet: the token is being read or checked, or the first list is
   *  on its way. */
  private interim(): boolean {
    const account = this.store.account;
    if (account.kind === 'checking') return !this.list.data?.lastSession;
    if (account.kind === 'signedOut') return !this.accountKnown();
    const { data, error } = this.list;
    return account.kind === 'signedIn' && !data && !error;
  }

  /** A cluster's nodes, then its attached storage volumes (with their mount paths). */
  private childRows(node: Extract<ClusterNode, { kind: 'cluster' }>): ClusterNode[] {
    const instances = node.cluster.instances.map((instance, index): ClusterNode => ({
      kind: 'instance',
      cluster: node.cluster,
      instance,
      index,
    }));
    const volumes = this.volumesFor(node.cluster).map((volume): ClusterNode => ({
      kind: 'clusterVolume',
      cluster: node.cluster,
      volume,
    }));
    return [...instances, ...volumes].map((fresh) => this.nodes.take(nodeKey(fresh), fresh));
  }

  private volumesFor(cluster: Cluster): readonly AttachedVolume[] {
    return cluster.volumes ?? this.volumesOf(cluster.id);
  }

  getTreeItem(node: ClusterNode): vscode.TreeItem {
    const item = this.makeItem(node);
    item.id = nodeKey(node);
    return item;
  }

  private makeItem(node: ClusterNode): vscode.TreeItem {
    switch (node.kind) {
      case 'cluster': {
        const c = node.cluster;
        const item = new vscode.TreeItem(
          clusterLabel(c),
          c.instances.length || this.volumesFor(c).length
            ? vscode.TreeItemCollapsibleState.Collapsed
            : vscode.TreeItemCollapsibleState.None,
        );
        const op = this.store.clusterOperation(c.id);
        // The state word leads: a narrow side bar and the inline buttons cut the end of a row.
        item.description = clusterDescription(c, op?.kind);
        item.iconPath = op ? followedIcon() : phaseIcon(c.status);
        item.contextValue = clusterContext(c);
        return item;
      }
      case 'instance':
        return this.nodeRows.item(node);
      case 'gpu':
        return gpuItem(node.gpu);
      case 'clusterVolume':
        return clusterVolumeItem(node.cluster.id, node.volume);
      case 'portForward':
        return forwardItem(node.forward);
      default:
        return statusRowItem(node);
    }
  }

  /** The Markdown tooltip of a cluster or node row, built when the row is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: ClusterNode): vscode.TreeItem {
    if (node.kind === 'cluster')
      item.tooltip = clusterTooltip(
        node.cluster,
        this.store.clusterOperation(node.cluster.id),
        this.extras.hourly?.(node.cluster),
      );
    else if (node.kind === 'instance') item.tooltip = this.nodeRows.tooltip(node);
    return item;
  }

  dispose(): void {
    this.first.dispose();
    this.subscription.dispose();
    this.forwardsChanged?.dispose();
    this.emitter.dispose();
  }
}
