/**
 * The chart webview's messages (media/charts/charts.js draws them with uPlot): the host sends a snapshot
 * (every series in full, the page's words, a status line, or why there is nothing to draw), then appends
 * (new points at the end of series) and replacements (a series whose kept points changed otherwise: it
 * was downsampled or restarted, or it is new). Data travels only in these messages, never in the page's
 * HTML. Shared by the job metrics panel and the GPU monitor. No `vscode` import.
 */

export interface ChartSeriesData {
  /** Stable within a panel: appends and replacements name it. */
  readonly id: string;
  readonly title: string;
  /** What x is (`step`, `epoch`, `time`...). */
  readonly xLabel: string;
  /** x is a time in ms since 1970 (the chart shows clock times). */
  readonly time: boolean;
  readonly xs: readonly number[];
  readonly ys: readonly number[];
}

export interface ChartAppend {
  readonly id: string;
  readonly xs: readonly number[];
  readonly ys: readonly number[];
}

/** The page's words, translated by the host (the webview has no l10n of its own). */
export interface ChartLabels {
  readonly smoothing: string;
  readonly logScale: string;
  readonly showTable: string;
  readonly exportCsv: string;
  readonly metric: string;
  readonly latestX: string;
  readonly latest: string;
  readonly min: string;
  readonly max: string;
  readonly points: string;
  readonly raw: string;
  readonly smoothed: string;
  readonly logUnavailable: string;
}

export type ChartHostMessage =
  | {
      readonly type: 'snapshot';
      readonly title: string;
      readonly status: string;
      readonly labels: ChartLabels;
      readonly series: readonly ChartSeriesData[];
      /** Shown instead of charts while there are no series: a sentence and a list (e.g. formats). */
      readonly empty?: { readonly text: string; readonly items: readonly string[] };
      /** Offer Export CSV. */
      readonly canExport: boolean;
      /** A choice offered beside the charts (the metrics panel: whose series, rank 0's or another rank's); the
       *  page says `choose` with the value picked. */
      readonly choice?: ChartChoice;
    }
  | {
      readonly type: 'update';
      readonly append: readonly ChartAppend[];
      readonly replace: readonly ChartSeriesData[];
      readonly status?: string;
    };

export interface ChartChoice {
  readonly label: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly selected: string;
}

/** What the page drew: per chart its points and canvas size (the tests read it). */
export interface ChartDrawn {
  readonly id: string;
  readonly points: number;
  readonly width: number;
  readonly height: number;
}

export type ChartViewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'exportCsv' }
  | { readonly type: 'choose'; readonly value: string }
  | { readonly type: 'drawn'; readonly charts: readonly ChartDrawn[] };
