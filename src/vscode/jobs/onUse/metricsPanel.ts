/**
 * Show Metrics: a job's metric series (JobMetrics) in an editor-area chart panel (charts/chartPanel.ts),
 * one chart per metric against its step (or time), live while the log streams, with Export CSV. One panel
 * per job; updates go out at most every UPDATE_MS, only while the page is visible and loaded (a hidden
 * page is not kept: it loads again when shown, says `ready`, and gets a snapshot). Part of the lazily
 * loaded actions.
 */
import * as vscode from 'vscode';
import type { ChartChoice, ChartLabels } from '../../../model/charts/protocol';
import { SeriesSync } from '../../../model/charts/seriesSync';
import { toCsv } from '../../../model/metrics/csv';
import { ofRank, ranksOf } from '../../../model/metrics/ranks';
import type { MetricStore } from '../../../model/metrics/store';
import { ChartPanel } from '../../shared/onUse/chartPanel';
import type { HostSeams } from '../../shared/hostSeams';
import type { JobMetrics, JobMetricsEntry } from './jobMetrics';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';

const UPDATE_MS = 200;

/** What a metrics panel holds (the test API reads it). */
export interface MetricsPanelState {
  readonly jobId: string;
  readonly state: string;
  readonly series: { name: string; xKey: string; xs: readonly number[]; ys: readonly number[] }[];
  /** Whose series are shown (0 unless another rank was chosen), and the ranks the log has. */
  readonly rank: number;
  readonly ranks: readonly number[];
  /** What the page said it drew, per chart. */
  readonly drawn: readonly { id: string; points: number; width: number; height: number }[];
}

function labels(): ChartLabels {
  return {
    smoothing: vscode.l10n.t('Smoothing'),
    logScale: vscode.l10n.t('Log scale'),
    showTable: vscode.l10n.t('Show as table'),
    exportCsv: vscode.l10n.t('Export CSV…'),
    metric: vscode.l10n.t('Metric'),
    latestX: vscode.l10n.t('Latest x'),
    latest: vscode.l10n.t('Latest value'),
    min: vscode.l10n.t('Lowest'),
    max: vscode.l10n.t('Highest'),
    points: vscode.l10n.t('Points shown'),
    raw: vscode.l10n.t('value'),
    smoothed: vscode.l10n.t('smoothed'),
    logUnavailable: vscode.l10n.t('(linear: values at or below 0)'),
  };
}

/** The metric-line styles the parser reads (said when a job's log has none). */
function formats(): string[] {
  return [
    vscode.l10n.t(
      "JSON objects and Python dicts, numbers bare or quoted: {\"step\": 10, \"loss\": 0.42}, {'loss': '1.235', 'epoch': '0.04'}",
    ),
    vscode.l10n.t(
      'key=value and key: value pairs, with step, epoch, iter or it as x: step=100 loss=0.42 lr=1e-4',
    ),
    vscode.l10n.t(
      'name value, with a running average in parentheses and units on values: iter 10: loss 4.2, time 12.3ms | Loss 6.9 (7.1)',
    ),
    vscode.l10n.t('Column tables whose header line comes first (Ultralytics YOLO: Epoch GPU_mem box_loss …)'),
    vscode.l10n.t('Keras: 100/100 - loss: 0.2310 - accuracy: 0.9312'),
    vscode.l10n.t('tqdm postfixes: 12%|█▎ | 120/1000 [00:10<01:20, 11.0it/s, loss=0.123, lr=1e-4]'),
    vscode.l10n.t(
      'Lines of Transformers, TRL, Lightning, mmengine, detectron2, Megatron, DeepSpeed, torchtitan, fairseq, timm, nanoGPT and llm.c; with several ranks, rank 0 first',
    ),
  ];
}

/** A panel as the test API sees it. */
export interface MetricsPanelHandle {
  state(): MetricsPanelState;
  /** Show another rank's series, as the page's Rank select does. */
  showRank(rank: number): void;
  export(): Promise<string | undefined>;
}

class MetricsPanel implements MetricsPanelHandle {
  readonly chart: ChartPanel;
  private sync = new SeriesSync();
  private store: MetricStore | undefined;
  private loaded = false;
  /** The rank whose series are shown, and the ranks offered in the last snapshot. */
  private rank = 0;
  private ranks: readonly number[] = [0];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly listener: vscode.Disposable;

  constructor(
    mediaRoot: vscode.Uri,
    private readonly entry: JobMetricsEntry,
    private readonly label: string,
    private readonly log: Log,
    private readonly host: HostSeams,
    onClosed: () => void,
  ) {
    this.chart = new ChartPanel(mediaRoot, 'tensorpool.metrics', vscode.l10n.t('Metrics: {0}', label), {
      onReady: () => {
        this.loaded = true;
        this.snapshot();
      },
      onExportCsv: () => void this.exportCsv(),
      onChoose: (value) => this.showRank(Number(value)),
      onClosed: () => {
        this.listener.dispose();
        clearTimeout(this.timer);
        onClosed();
      },
    });
    this.chart.panel.onDidChangeViewState((e) => {
      if (!e.webviewPanel.visible) this.loaded = false;
    });
    this.listener = entry.changed.event(() => this.schedule());
  }

  private status(): string {
    const e = this.entry;
    const lines = vscode.l10n.t('{0} metric lines', e.store.lineCount);
    if (e.state === 'reading') return vscode.l10n.t('Reading the log of job {0}…', e.jobId);
    if (e.state === 'live') return vscode.l10n.t('Live: job {0} is running · {1}', e.jobId, lines);
    if (e.state === 'ended') return vscode.l10n.t('Job {0} {1} · {2}', e.jobId, e.final ?? '', lines);
    return vscode.l10n.t(
      'Stopped reading the log of job {0}{1} · {2}',
      e.jobId,
      e.reason ? `: ${e.reason}` : '',
      lines,
    );
  }

  private snapshot(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.store = this.entry.store;
    this.sync = new SeriesSync();
    const all = this.store.series();
    this.ranks = ranksOf(all);
    if (!this.ranks.includes(this.rank)) this.rank = 0;
    const series = this.sync.snapshot(ofRank(all, this.rank));
    const waiting = this.entry.state === 'reading' || this.entry.state === 'live';
    void this.chart.post({
      type: 'snapshot',
      title: vscode.l10n.t('Metrics of job {0}', this.label),
      status: this.status(),
      labels: labels(),
      series,
      empty:
        series.length === 0
          ? {
              text: waiting
                ? vscode.l10n.t('No metric lines in the log yet. These styles are understood:')
                : vscode.l10n.t('The log of this job has no metric lines. These styles are understood:'),
              items: formats(),
            }
          : undefined,
      canExport: true,
      choice: this.choice(),
    });
  }

  /** The Rank select, when the log has lines of several ranks (torchrun's `[rank1]:` prefixes). */
  private choice(): ChartChoice | undefined {
    if (this.ranks.length < 2) return undefined;
    return {
      label: vscode.l10n.t('Rank'),
      options: this.ranks.map((r) => ({ value: String(r), label: vscode.l10n.t('Rank {0}', r) })),
      selected: String(this.rank),
    };
  }

  showRank(rank: number): void {
    if (!Number.isInteger(rank) || rank === this.rank) return;
    this.rank = rank;
    if (this.loaded) this.snapshot();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.update(), UPDATE_MS);
  }

  private update(): void {
    this.timer = undefined;
    if (!this.loaded) return;
    const all = this.store?.series() ?? [];
    // a new store, or a new rank in the log (the Rank select changes): everything again
    if (this.store !== this.entry.store || all.length === 0 || ranksOf(all).length !== this.ranks.length) {
      this.snapshot();
      return;
    }
    const changes = this.sync.update(ofRank(all, this.rank));
    void this.chart.post({
      type: 'update',
      append: changes?.append ?? [],
      replace: changes?.replace ?? [],
      status: this.status(),
    });
  }

  private async exportCsv(): Promise<string | undefined> {
    const store = this.entry.store;
    if (store.series().length === 0) {
      void notices.showInformationMessage(
        vscode.l10n.t('Job {0} has no metrics to export yet.', this.entry.jobId),
      );
      return undefined;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `${this.entry.jobId.replace(/[^\w.-]+/g, '_')}-metrics.csv`;
    const target = await this.host.saveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: { [vscode.l10n.t('CSV')]: ['csv'] },
      title: vscode.l10n.t('Export the metrics of job {0}', this.entry.jobId),
    });
    if (!target) return undefined;
    if (target.scheme !== 'file') {
      void notices.showErrorMessage(vscode.l10n.t('Choose a file on this computer.'));
      return undefined;
    }
    try {
      await configWriters().writeFileAtomic(target.fsPath, toCsv(store), { newFileMode: 0o644 });
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Metrics exported to {0}', target.fsPath), 5000);
      return target.fsPath;
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      this.log.warn(`Export of job ${this.entry.jobId}'s metrics failed: ${text}`);
      void notices.showErrorMessage(vscode.l10n.t('Could not export the metrics: {0}', text));
      return undefined;
    }
  }

  /** Export CSV as the page's button does (the tests call it). */
  export(): Promise<string | undefined> {
    return this.exportCsv();
  }

  state(): MetricsPanelState {
    return {
      jobId: this.entry.jobId,
      state: this.entry.state,
      series: this.sync.held(),
      rank: this.rank,
      ranks: this.ranks,
      drawn: this.chart.drawn,
    };
  }
}

export class MetricsPanels implements vscode.Disposable {
  private readonly panels = new Map<string, MetricsPanel>();

  constructor(
    private readonly mediaRoot: vscode.Uri,
    private readonly metrics: JobMetrics,
    private readonly log: Log,
    private readonly host: HostSeams,
  ) {}

  /** Opens (or shows) the job's panel. */
  show(jobId: string, label: string): MetricsPanel {
    const open = this.panels.get(jobId);
    if (open) {
      open.chart.reveal();
      return open;
    }
    const entry = this.metrics.open(jobId);
    const panel = new MetricsPanel(this.mediaRoot, entry, label, this.log, this.host, () => {
      this.panels.delete(jobId);
      this.metrics.close(entry);
    });
    this.panels.set(jobId, panel);
    return panel;
  }

  get(jobId: string): MetricsPanel | undefined {
    return this.panels.get(jobId);
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.chart.close();
  }
}
