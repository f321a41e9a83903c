/** Show GPU Monitor on a cluster or node row (or a picked cluster): one panel per cluster or node, revealed
 *  again when asked twice. Part of the lazily loaded actions. */
import * as vscode from 'vscode';
import { clusterPhase, type Cluster } from '../../../model/cluster';
import type { ClusterNode } from '../../clusters';
import type { GpuSampler, NodeTarget } from '../gpuSampler';
import { GpuMonitor, type GpuMonitorState } from './gpuMonitor';
import { notices } from '../../shared/notices';

export class GpuMonitors implements vscode.Disposable {
  private readonly open = new Map<string, GpuMonitor>();

  constructor(
    private readonly mediaRoot: vscode.Uri,
    private readonly sampler: GpuSampler,
    private readonly targets: (cluster: Cluster) => NodeTarget[],
    private readonly pick: (arg: unknown) => Promise<Cluster | undefined>,
  ) {}

  async show(arg?: unknown): Promise<boolean> {
    const node = arg as ClusterNode | undefined;
    const instance = node && typeof node === 'object' && node.kind === 'instance' ? node.instance : undefined;
    const cluster = await this.pick(arg);
    if (!cluster) return false;
    if (clusterPhase(cluster.status) !== 'running') {
      void notices.showInformationMessage(
        vscode.l10n.t(
          'The GPU monitor needs a running cluster; {0} is not running.',
          cluster.name ?? cluster.id,
        ),
      );
      return false;
    }
    const key = instance ? `${cluster.id}/${instance.id}` : cluster.id;
    const kept = this.open.get(key);
    if (kept) {
      kept.reveal();
      return true;
    }
    const nodes = instance ? [instance] : cluster.instances;
    const ids = new Set(nodes.map((n) => n.id));
    const monitor = new GpuMonitor(
      this.mediaRoot,
      cluster,
      nodes,
      this.sampler,
      () => this.targets(cluster).filter((t) => ids.has(t.instanceId)),
      () => this.open.delete(key),
    );
    this.open.set(key, monitor);
    return true;
  }

  /** The monitor of a cluster (or `clusterId/instanceId`), for the test API. */
  state(key: string): GpuMonitorState | undefined {
    return this.open.get(key)?.state();
  }

  dispose(): void {
    for (const m of this.open.values()) m.chart.close();
  }
}
