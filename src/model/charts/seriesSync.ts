/**
 * What a chart webview holds, kept in step with bounded series (src/model/metrics/series.ts) with as
 * little sent as possible: after a snapshot, each update sends a series' new points only when its kept
 * points are exactly the ones sent plus those new ones at the end (so the page appends them); otherwise
 * (it was downsampled, restarted, or it is new) the series is sent again in full. The page then holds
 * exactly the series' kept points, so it stays bounded like them. `held` is that copy (the tests read it).
 * No `vscode` import.
 */
import type { ChartAppend, ChartSeriesData } from './protocol';

/** A series as the sync reads it: MetricSeries fits. */
export interface SyncSeries {
  readonly name: string;
  readonly xKey: string;
  /** Points added so far, kept or not. */
  readonly total: number;
  /** Points kept. */
  readonly size: number;
  points(): { readonly xs: ArrayLike<number>; readonly ys: ArrayLike<number> };
}

interface Held {
  total: number;
  xs: number[];
  ys: number[];
}

export class SeriesSync {
  private readonly sent = new Map<SyncSeries, Held>();
  private readonly ids = new Map<SyncSeries, string>();

  constructor(
    /** x keys that are times (ms since 1970). */
    private readonly timeKey = 'time',
  ) {}

  private id(s: SyncSeries): string {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s, (id = String(this.ids.size)));
    return id;
  }

  private full(s: SyncSeries): ChartSeriesData {
    const { xs, ys } = s.points();
    const held: Held = { total: s.total, xs: Array.from(xs), ys: Array.from(ys) };
    this.sent.set(s, held);
    return {
      id: this.id(s),
      title: s.name,
      xLabel: s.xKey,
      time: s.xKey === this.timeKey,
      xs: held.xs.slice(),
      ys: held.ys.slice(),
    };
  }

  /** Every series in full (the page starts again from these). */
  snapshot(series: readonly SyncSeries[]): ChartSeriesData[] {
    this.sent.clear();
    return series.map((s) => this.full(s));
  }

  /** What changed since the last snapshot or update; undefined when nothing did. */
  update(series: readonly SyncSeries[]): { append: ChartAppend[]; replace: ChartSeriesData[] } | undefined {
    const append: ChartAppend[] = [];
    const replace: ChartSeriesData[] = [];
    for (const s of series) {
      const held = this.sent.get(s);
      if (!held) {
        replace.push(this.full(s));
        continue;
      }
      const added = s.total - held.total;
      if (added === 0) continue;
      if (added > 0 && s.size === held.xs.length + added) {
        const { xs, ys } = s.points();
        const newXs = Array.from(xs).slice(held.xs.length);
        const newYs = Array.from(ys).slice(held.ys.length);
        if (sameStart(xs, ys, held)) {
          held.xs.push(...newXs);
          held.ys.push(...newYs);
          held.total = s.total;
          append.push({ id: this.id(s), xs: newXs, ys: newYs });
          continue;
        }
      }
      replace.push(this.full(s));
    }
    return append.length || replace.length ? { append, replace } : undefined;
  }

  /** What the page holds now, by series. */
  held(): { name: string; xKey: string; xs: readonly number[]; ys: readonly number[] }[] {
    return [...this.sent].map(([s, h]) => ({ name: s.name, xKey: s.xKey, xs: h.xs, ys: h.ys }));
  }
}

/** The kept points start with the ones the page holds (the last of them, and the first, checked). */
function sameStart(xs: ArrayLike<number>, ys: ArrayLike<number>, held: Held): boolean {
  const n = held.xs.length;
  if (n === 0) return true;
  return (
    xs[0] === held.xs[0] &&
    ys[0] === held.ys[0] &&
    xs[n - 1] === held.xs[n - 1] &&
    ys[n - 1] === held.ys[n - 1]
  );
}
