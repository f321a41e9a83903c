/**
 * A node's row in the Clusters tree and the rows under it: its GPUs' telemetry (gpu/gpuRows.ts) and the ports
 * forwarded from it (ports/forwardRows.ts), listed forwards first so GPU rows appearing later do not move them.
 *
 * New telemetry redraws as little as it can. A node row whose own look changed (its figures, icon or number of
 * GPUs) is redrawn with everything under it; otherwise only its GPU rows are. Redrawing a row makes VS Code
 * forget its children until it asks for them again, and an inline button clicked on one of them meanwhile runs
 * without its row: so a node with forwarded ports under it shows its brief description (`1×H100`, no figures
 * that change every sample) and is redrawn only when its icon, state or GPUs change.
 */
import * as vscode from 'vscode';
import { instanceLabel, stateWord } from '../../model/labels';
import type { GpuSampler } from '../gpu';
import { gpuTooltipLines, nodeGpuLook } from '../gpu';
import type { PortForwards } from '../ports';
import { Commands } from '../shared/commands';
import { instanceContext, phaseIcon } from './clusterRowLook';
import { instanceTooltip } from './clusterTooltips';
import type { ClusterNode } from './clustersTree';

type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;
type GpuNode = Extract<ClusterNode, { kind: 'gpu' }>;
type Look = ReturnType<typeof nodeGpuLook>;

export class NodeRows {
  /** What each node row last showed of its telemetry (telemetryChanged). */
  private readonly looks = new Map<string, string>();

  constructor(
    private readonly gpu: GpuSampler | undefined,
    private readonly forwards: PortForwards | undefined,
  ) {}

  item(node: InstanceNode): vscode.TreeItem {
    const i = node.instance;
    const look = this.gpu && nodeGpuLook(this.gpu.get(i.id));
    this.looks.set(i.id, this.lookKey(node, look)); // what the row shows now (telemetryChanged)
    const item = new vscode.TreeItem(
      instanceLabel(node.index, i),
      this.forwardCount(node)
        ? vscode.TreeItemCollapsibleState.Expanded
        : look?.gpus.length
          ? vscode.TreeItemCollapsibleState.Collapsed
          : vscode.TreeItemCollapsibleState.None,
    );
    item.description = this.description(node, look) ?? stateWord(i.status);
    item.iconPath = look?.icon ?? phaseIcon(i.status);
    // A refused login: the row's menu offers Add SSH Key… (package.json, viewItem =~ /\bkeyRefused\b/).
    item.contextValue = instanceContext(i) + (look?.refused ? ' keyRefused' : '');
    return item;
  }

  /** The rows under a node, each through `take` (the tree's kept elements). */
  children(node: InstanceNode, take: (fresh: ClusterNode) => ClusterNode): ClusterNode[] {
    const gpus = nodeGpuLook(this.gpu?.get(node.instance.id))?.gpus ?? [];
    const gpuRows = gpus.map((gpu) => take({ ...node, kind: 'gpu', gpu }));
    // The node's forwarded ports (ports/), then its GPUs.
    const forwards: ClusterNode[] = (this.forwards?.forNode(node.cluster.id, node.instance.id) ?? []).map(
      (forward) => ({ kind: 'portForward', cluster: node.cluster, instance: node.instance, forward }),
    );
    return [...forwards.map(take), ...gpuRows];
  }

  /**
   * The rows to redraw for new telemetry of `instanceIds`: `find` gives a node's kept row, `kept` a GPU row's
   * kept element when VS Code has it.
   */
  telemetryChanged(
    instanceIds: readonly string[],
    find: (instanceId: string) => InstanceNode | undefined,
    kept: (fresh: GpuNode) => ClusterNode | undefined,
  ): ClusterNode[] {
    const rows: ClusterNode[] = [];
    for (const id of instanceIds) {
      const row = find(id);
      if (!row) continue;
      const look = nodeGpuLook(this.gpu?.get(id));
      const shown = this.lookKey(row, look);
      if (this.looks.get(id) !== shown) {
        this.looks.set(id, shown);
        rows.push(row);
        continue;
      }
      for (const gpu of look?.gpus ?? []) {
        const k = kept({ ...row, kind: 'gpu', gpu });
        if (k) rows.push(k);
      }
    }
    return rows;
  }

  /** A node row's Markdown tooltip: the node, then its GPUs and their processes. */
  tooltip(node: InstanceNode): vscode.MarkdownString {
    const m = instanceTooltip(node);
    const t = this.gpu?.get(node.instance.id);
    for (const line of gpuTooltipLines(t)) m.appendMarkdown(`\n${line}`);
    // Its one link (Add SSH Key…) runs; every text from the node or the service in it is escaped.
    if (t?.refused) m.isTrusted = { enabledCommands: [Commands.addSshKey] };
    return m;
  }

  private forwardCount(node: InstanceNode): number {
    return this.forwards?.forNode(node.cluster.id, node.instance.id).length ?? 0;
  }

  /** The GPU description: brief while forwarded ports sit under the node (see above). */
  private description(node: InstanceNode, look: Look): string | undefined {
    return this.forwardCount(node) ? look?.brief : look?.description;
  }

  /** What of a node row's look telemetry can change: its description, icon and number of GPUs. */
  private lookKey(node: InstanceNode, look: Look): string {
    return `${this.description(node, look) ?? ''}|${look?.icon?.id ?? ''}|${look?.gpus.length ?? 0}`;
  }
}
