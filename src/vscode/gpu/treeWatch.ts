/**
 * Who looks at which cluster in the Clusters view: a running cluster expanded while the view is visible
 * has its nodes sampled (GpuSampler); collapsing it, hiding the view or the cluster leaving the list
 * stops that at once. Nothing is sampled for a row nobody has expanded.
 */
import type * as vscode from 'vscode';
import type { Cluster } from '../../model/cluster';
import type { ClusterNode, ClustersController } from '../clusters';
import type { GpuSampler, NodeTarget } from './gpuSampler';

const WATCHER = 'clustersView';

export class ClustersViewWatch implements vscode.Disposable {
  private readonly expanded = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    view: vscode.TreeView<ClusterNode>,
    private readonly list: ClustersController,
    private readonly sampler: GpuSampler,
    private readonly targets: (cluster: Cluster) => NodeTarget[],
    private readonly intervalMs: () => number,
    private readonly visible = () => view.visible,
  ) {
    this.subscriptions = [
      view.onDidExpandElement((e) => {
        if (e.element.kind !== 'cluster') return;
        this.expanded.add(e.element.cluster.id);
        this.update();
      }),
      view.onDidCollapseElement((e) => {
        if (e.element.kind !== 'cluster') return;
        this.expanded.delete(e.element.cluster.id);
        this.update();
      }),
      view.onDidChangeVisibility(() => this.update()),
      list.onDidChange(() => {
        if (this.expanded.size > 0) this.update();
      }),
    ];
  }

  /** Watch exactly the expanded running clusters' nodes while the view is visible. */
  update(): void {
    if (!this.visible() || this.expanded.size === 0) {
      this.sampler.unwatch(WATCHER);
      return;
    }
    const targets = this.list.clusters.filter((c) => this.expanded.has(c.id)).flatMap((c) => this.targets(c));
    this.sampler.watch(WATCHER, targets, this.intervalMs());
  }

  dispose(): void {
    this.sampler.unwatch(WATCHER);
    for (const s of this.subscriptions) s.dispose();
  }
}
