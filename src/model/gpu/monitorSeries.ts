/**
 * The GPU monitor's series (vscode/gpu/gpuMonitor.ts): per series the points of the last `windowMs`, and
 * what the chart page has not got yet, so an update carries only new points (appends) and a series the
 * page does not have goes in full (a replacement). Pure, so the bench times the host's side of an update
 * on the same code (test/bench/host/gpuMonitorUpdate.ts).
 */
import type { ChartAppend, ChartSeriesData } from '../charts/protocol';

interface Series {
  title: string;
  xs: number[];
  ys: number[];
  pending: { xs: number[]; ys: number[] };
}

export class MonitorSeries {
  private readonly series = new Map<string, Series>();
  /** Series the page has (from the last snapshot or a replacement). */
  private onPage = new Set<string>();

  constructor(
    private readonly windowMs: number,
    /** What x is, in the page's words. */
    private readonly xLabel: string,
  ) {}

  /** A point at time `x`; `gap` puts a break (NaN) just before it. `title` names a series seen first. */
  add(id: string, title: () => string, x: number, y: number, gap: boolean): void {
    let s = this.series.get(id);
    if (!s) {
      s = { title: title(), xs: [], ys: [], pending: { xs: [], ys: [] } };
      this.series.set(id, s);
    }
    if (gap) this.push(s, x - 1, NaN);
    this.push(s, x, y);
  }

  private push(s: Series, x: number, y: number): void {
    s.xs.push(x);
    s.ys.push(y);
    s.pending.xs.push(x);
    s.pending.ys.push(y);
    // Points are in time order: only the oldest can have left the window.
    if (s.xs[0] < x - this.windowMs) {
      const cut = s.xs.findIndex((v) => v >= x - this.windowMs);
      s.xs.splice(0, cut);
      s.ys.splice(0, cut);
    }
  }

  /** Every series in full (the page loaded): the page has them all from now on. */
  snapshot(): ChartSeriesData[] {
    for (const s of this.series.values()) s.pending = { xs: [], ys: [] };
    this.onPage = new Set(this.series.keys());
    return this.data();
  }

  /** What the page lacks since the last snapshot or update. */
  update(): { append: ChartAppend[]; replace: ChartSeriesData[] } {
    const append: ChartAppend[] = [];
    const fresh = new Set<string>();
    for (const [id, s] of this.series.entries()) {
      if (!this.onPage.has(id)) fresh.add(id);
      else if (s.pending.xs.length) append.push({ id, xs: s.pending.xs, ys: s.pending.ys });
      s.pending = { xs: [], ys: [] };
    }
    const replace = this.data().filter((d) => fresh.has(d.id));
    for (const id of fresh) this.onPage.add(id);
    return { append, replace };
  }

  /** Points and breaks per series. */
  stats(): { id: string; points: number; gaps: number }[] {
    return [...this.series.entries()].map(([id, s]) => ({
      id,
      points: s.xs.length,
      gaps: s.ys.filter((y) => Number.isNaN(y)).length,
    }));
  }

  private data(): ChartSeriesData[] {
    return [...this.series.entries()].map(([id, s]) => ({
      id,
      title: s.title,
      xLabel: this.xLabel,
      time: true,
      xs: s.xs,
      ys: s.ys,
    }));
  }
}
