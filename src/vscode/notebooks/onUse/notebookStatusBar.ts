/**
 * The GPUs of the node a notebook runs on, in the status bar: `$(pulse) node 1 · 8×H100 · 87% · 61/80 GB ·
 * $23.92/h` while a visible notebook's selected kernel is a TensorPool node (the active notebook's first,
 * else the first visible one's). The figures are the GPU telemetry's (gpu/gpuSampler.ts, one ssh session per
 * node shared with the Clusters view and the monitor), asked for only while such a notebook is visible:
 * hidden, closed or switched to another kernel, this watcher lets go of the node at once and the item hides.
 * The hourly price is the service's quote (cost/clusterPrices.ts), left out when there is none. A click opens
 * the node's GPU monitor.
 */
import * as vscode from 'vscode';
import { clusterLabel, type Cluster } from '../../../model/cluster';
import type { ClusterPrices } from '../../cost';
import { gpuTooltipLines, nodeGpuLook, type GpuSampler, type NodeTarget } from '../../gpu';
import { Commands } from '../../shared/commands';
import { md } from '../../shared/tooltipText';
import type { NodeController } from './kernelControllers';

/** The sampler's watcher id for this item. */
const NOTEBOOK_WATCHER = 'notebookStatus';

/** Which notebooks run on which entry, and when that changes (kernelControllers.ts). */
export interface AttachedNotebooks {
  readonly selected: ReadonlyMap<vscode.NotebookDocument, NodeController>;
  readonly onDidChangeSelected: vscode.Event<void>;
}

export interface NotebookGpuDeps {
  readonly sampler: GpuSampler;
  /** How to reach a running cluster's nodes (gpu/gpuSetup.ts targets). */
  readonly targets: (cluster: Cluster) => NodeTarget[];
}

/** A sample every 3 s: a glance, not a chart (the monitor samples faster while it is open). */
const INTERVAL_MS = 3000;

export class NotebookStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private shown: NodeController | undefined;
  /** The node this item asked the sampler for (undefined: nothing watched). */
  private watched: string | undefined;
  private readonly subscriptions: vscode.Disposable[];
  intervalMs = INTERVAL_MS;

  constructor(
    private readonly attached: AttachedNotebooks,
    private readonly gpu: NotebookGpuDeps,
    private readonly prices: ClusterPrices,
  ) {
    this.item = vscode.window.createStatusBarItem(
      'tensorpool.notebookGpus',
      vscode.StatusBarAlignment.Right,
      100,
    );
    this.item.name = vscode.l10n.t('TensorPool notebook GPUs');
    const { sampler } = gpu;
    this.subscriptions = [
      attached.onDidChangeSelected(() => this.update()),
      vscode.window.onDidChangeVisibleNotebookEditors(() => this.update()),
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      vscode.workspace.onDidCloseNotebookDocument(() => this.update()),
      prices.onDidChange(() => this.draw()),
      sampler.onDidChange((ids) => {
        if (this.shown && ids.includes(this.shown.target.instance.id)) this.draw();
      }),
    ];
    this.update();
  }

  /** The entry whose GPUs show: the active notebook's, else the first visible notebook's on one of ours. */
  private pick(): NodeController | undefined {
    const active = vscode.window.activeNotebookEditor?.notebook;
    const mine = active && this.attached.selected.get(active);
    if (mine) return mine;
    for (const e of vscode.window.visibleNotebookEditors) {
      const c = this.attached.selected.get(e.notebook);
      if (c) return c;
    }
    return undefined;
  }

  /** Watch (or let go of) the node as the visible notebooks and their kernels say now. */
  update(): void {
    const c = this.pick();
    this.shown = c;
    const target = c && this.gpu.targets(c.target.cluster).find((t) => t.instanceId === c.target.instance.id);
    if (!c || !target) {
      if (this.watched !== undefined) this.gpu.sampler.unwatch(NOTEBOOK_WATCHER);
      this.watched = undefined;
      this.item.hide();
      return;
    }
    // The same node again changes nothing in the sampler (watch() is idempotent for a watcher).
    this.gpu.sampler.watch(NOTEBOOK_WATCHER, [target], this.intervalMs);
    this.watched = target.instanceId;
    this.draw();
    this.item.show();
  }

  /** Whether the sampler is asked for a node by this item now (tests). */
  get watching(): string | undefined {
    return this.watched;
  }

  private draw(): void {
    const c = this.shown;
    if (!c) return;
    const { cluster, instance, node } = c.target;
    const t = this.gpu.sampler.get(instance.id);
    const look = nodeGpuLook(t);
    const perHour = this.prices.hourly(cluster);
    const parts = [
      vscode.l10n.t('node {0}', node),
      look?.description ?? vscode.l10n.t('reading GPUs…'),
      perHour === undefined ? undefined : vscode.l10n.t('${0}/h', perHour.toFixed(2)),
    ];
    const icon = look ? (look.refused ? 'warning' : (look.icon?.id ?? 'circuit-board')) : 'loading~spin';
    this.item.text = `$(${icon}) ${parts.filter(Boolean).join(' · ')}`;
    const tooltip = new vscode.MarkdownString(
      [
        vscode.l10n.t(
          '**GPUs of node {0} of {1}**, the kernel of this notebook',
          node,
          md(clusterLabel(cluster)),
        ),
        ...gpuTooltipLines(t),
        '',
        vscode.l10n.t('Click to open the GPU monitor of this node.'),
      ].join('\n'),
    );
    tooltip.isTrusted = { enabledCommands: [Commands.addSshKey] };
    this.item.tooltip = tooltip;
    this.item.backgroundColor = look?.refused
      ? new vscode.ThemeColor('statusBarItem.warningBackground')
      : undefined;
    this.item.command = {
      title: vscode.l10n.t('Show GPU Monitor'),
      command: Commands.showGpuMonitor,
      // The node's row, as the Clusters view would hand it (gpuMonitors.ts opens that node's monitor).
      arguments: [{ kind: 'instance', cluster, instance, index: node - 1 }],
    };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    if (this.watched !== undefined) this.gpu.sampler.unwatch(NOTEBOOK_WATCHER);
    this.watched = undefined;
    this.item.dispose();
  }
}
