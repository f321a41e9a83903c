/**
 * Show GPU Monitor: a cluster's (or one node's) GPUs in an editor-area chart panel (charts/chartPanel.ts,
 * uPlot): per GPU its utilisation, memory, power and temperature over the last 15 minutes at the views'
 * 2 s rate, the processes on each GPU in the status line, and the chart page's text table for screen
 * readers. It samples only while the panel is visible (its own watcher on the shared sampler: hidden, no
 * sample); when it is shown again the series resume after a gap point, so the pause shows as a break in
 * the lines and the status says since when. Part of the lazily loaded actions.
 */
import * as vscode from 'vscode';
import type { ChartLabels } from '../../../model/charts/protocol';
import type { Cluster, Instance } from '../../../model/cluster';
import type { GpuReading } from '../../../model/gpu';
import { MonitorSeries } from '../../../model/gpu/monitorSeries';
import { clusterLabel } from '../../../model/labels';
import { ChartPanel } from '../../shared/onUse/chartPanel';
import type { GpuSampler, NodeTarget } from '../gpuSampler';

const WINDOW_MS = 15 * 60_000;
const INTERVAL_MS = 2000;

type Figure = 'util' | 'mem' | 'power' | 'temp';
const FIGURES: readonly Figure[] = ['util', 'mem', 'power', 'temp'];

function figureValue(g: GpuReading, f: Figure): number {
  const v =
    f === 'util'
      ? g.utilizationGpu
      : f === 'mem'
        ? g.memoryUsedMiB === undefined
          ? undefined
          : g.memoryUsedMiB / 1024
        : f === 'power'
          ? g.powerDrawW
          : g.temperatureC;
  return v ?? NaN;
}

function figureTitle(f: Figure): string {
  return f === 'util'
    ? vscode.l10n.t('utilization (%)')
    : f === 'mem'
      ? vscode.l10n.t('memory used (GB)')
      : f === 'power'
        ? vscode.l10n.t('power (W)')
        : vscode.l10n.t('temperature (°C)');
}

function labels(): ChartLabels {
  return {
    smoothing: vscode.l10n.t('Smoothing'),
    logScale: vscode.l10n.t('Log scale'),
    showTable: vscode.l10n.t('Show as table'),
    exportCsv: vscode.l10n.t('Export CSV…'),
    metric: vscode.l10n.t('Series'),
    latestX: vscode.l10n.t('Latest time'),
    latest: vscode.l10n.t('Latest value'),
    min: vscode.l10n.t('Lowest'),
    max: vscode.l10n.t('Highest'),
    points: vscode.l10n.t('Points shown'),
    raw: vscode.l10n.t('value'),
    smoothed: vscode.l10n.t('smoothed'),
    logUnavailable: vscode.l10n.t('(linear: values at or below 0)'),
  };
}

/** What a monitor holds and what its page drew (the test API reads it). */
export interface GpuMonitorState {
  readonly visible: boolean;
  readonly series: { id: string; points: number; gaps: number }[];
  readonly drawn: readonly { id: string; points: number; width: number; height: number }[];
  readonly status: string;
  /** How often the monitor samples while it is visible. */
  readonly intervalMs: number;
}

export class GpuMonitor {
  readonly chart: ChartPanel;
  private readonly series = new MonitorSeries(WINDOW_MS, vscode.l10n.t('time'));
  private loaded = false;
  private lastTime = new Map<string, number>();
  private pausedAt: number | undefined;
  /** Nodes whose next sample comes after a pause (a gap point goes first). */
  private readonly gapNext = new Set<string>();
  private statusText = '';
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly watcher: string;

  constructor(
    mediaRoot: vscode.Uri,
    private readonly cluster: Cluster,
    private readonly nodes: readonly Instance[],
    private readonly sampler: GpuSampler,
    private readonly targets: () => NodeTarget[],
    onClosed: () => void,
  ) {
    this.watcher = `monitor:${cluster.id}:${nodes.map((n) => n.id).join(',')}`;
    const title = vscode.l10n.t('GPU Monitor: {0}', clusterLabel(cluster));
    this.chart = new ChartPanel(mediaRoot, 'tensorpool.gpuMonitor', title, {
      onReady: () => {
        this.loaded = true;
        this.snapshot();
      },
      onClosed: () => {
        // Listeners first: the last unwatch clears the node's figures and tells the listeners at once,
        // and this monitor's would then ask the disposed panel whether it is visible (which throws).
        for (const s of this.subscriptions.splice(0)) s.dispose();
        this.sampler.unwatch(this.watcher);
        onClosed();
      },
    });
    const samples = sampler.onDidChange((ids) => this.take(ids));
    this.subscriptions.push(
      { dispose: () => samples.dispose() },
      this.chart.panel.onDidChangeViewState(() => this.visibility()),
    );
    this.visibility();
  }

  /** Sample while visible; hidden: no sample, and the next points start after a gap. */
  private visibility(): void {
    if (this.chart.visible) {
      this.sampler.watch(this.watcher, this.targets(), INTERVAL_MS);
    } else {
      this.loaded = false;
      this.pausedAt ??= Date.now();
      for (const n of this.nodes) this.gapNext.add(n.id);
      this.sampler.unwatch(this.watcher);
    }
  }

  private take(ids: readonly string[]): void {
    for (const [n, node] of this.nodes.entries()) {
      if (!ids.includes(node.id)) continue;
      const t = this.sampler.get(node.id);
      if (t?.state?.kind !== 'ok' || !t.time || t.stale || t.time === this.lastTime.get(node.id)) continue;
      const last = this.lastTime.get(node.id);
      const gap = last !== undefined && (this.gapNext.delete(node.id) || last < t.time - 3 * INTERVAL_MS);
      this.lastTime.set(node.id, t.time);
      for (const g of t.state.sample.gpus) {
        for (const f of FIGURES) {
          const title = () => `${vscode.l10n.t('node {0} · GPU {1}', n + 1, g.index)} · ${figureTitle(f)}`;
          // A break in the line where the panel was hidden (or the node did not answer).
          this.series.add(`${node.id}/${g.index}/${f}`, title, t.time, figureValue(g, f), gap);
        }
      }
      const procs = (t.state.processes ?? []).map((p) => {
        const gpu =
          t.state?.kind === 'ok' ? t.state.sample.gpus.find((g) => g.uuid === p.gpuUuid) : undefined;
        return vscode.l10n.t('GPU {0}: {1} {2}', gpu?.index ?? '?', p.pid, p.name);
      });
      this.statusText = [
        this.pausedAt
          ? vscode.l10n.t('Paused while hidden since {0}', new Date(this.pausedAt).toLocaleTimeString())
          : undefined,
        procs.length ? vscode.l10n.t('Processes: {0}', procs.join(', ')) : vscode.l10n.t('No GPU processes'),
      ]
        .filter((x) => x)
        .join(' · ');
      this.pausedAt = undefined;
    }
    this.flush();
  }

  private snapshot(): void {
    void this.chart.post({
      type: 'snapshot',
      title: vscode.l10n.t('GPUs of {0}', clusterLabel(this.cluster)),
      status: this.statusText || vscode.l10n.t('Waiting for the first sample…'),
      labels: labels(),
      series: this.series.snapshot(),
      canExport: false,
    });
  }

  private flush(): void {
    if (!this.loaded || !this.chart.visible) return;
    const { append, replace } = this.series.update();
    void this.chart.post({ type: 'update', append, replace, status: this.statusText });
  }

  state(): GpuMonitorState {
    return {
      visible: this.chart.visible,
      series: this.series.stats(),
      drawn: this.chart.drawn,
      status: this.statusText,
      intervalMs: INTERVAL_MS,
    };
  }

  reveal(): void {
    this.chart.reveal();
  }
}
