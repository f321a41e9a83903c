/**
 * All of a job's metric series, fed with parsed lines (parseLine.ts). A point's x is the line's own x
 * (MetricPoint.x, under its key) when it has one, otherwise the time the line arrived (key `time`). A
 * series is one metric against one x key: `loss` per step and `loss` per epoch (a per-epoch summary line)
 * are two series, so an epoch's 3 never lands among steps in the thousands. Each series keeps at most
 * `cap` points (series.ts); at most `maxSeries` series (the names of a log are data: a runaway one
 * cannot grow memory without bound), the first ones kept. No `vscode` import.
 */
import { DEFAULT_CAP, MetricSeries } from './series';
import type { MetricPoint } from './types';

export const TIME_KEY = 'time';
const DEFAULT_MAX_SERIES = 256;

export interface MetricStoreOptions {
  /** Points kept per series (DEFAULT_CAP). */
  readonly cap?: number;
  /** Series kept (DEFAULT_MAX_SERIES); the metrics of later new names are dropped and counted. */
  readonly maxSeries?: number;
}

export class MetricStore {
  private readonly byKey = new Map<string, MetricSeries>();
  private readonly ordered: MetricSeries[] = [];
  private readonly cap: number;
  private readonly maxSeries: number;
  private refused = 0;
  private lines = 0;

  constructor(options: MetricStoreOptions = {}) {
    this.cap = options.cap ?? DEFAULT_CAP;
    this.maxSeries = options.maxSeries ?? DEFAULT_MAX_SERIES;
  }

  /** Adds a parsed line's metrics; `timeMs`: when it arrived (the x of a line without one). */
  add(point: MetricPoint, timeMs: number): void {
    const x = point.x ?? timeMs;
    this.countLine();
    for (const [name, value] of point.metrics) this.seriesFor(name, point.xKey)?.add(x, value);
  }

  /**
   * The series of `name` against `xKey` (time when undefined), made when new; undefined when the store
   * already has maxSeries series (the value is then counted as refused).
   */
  seriesFor(name: string, xKey: string | undefined): MetricSeries | undefined {
    const key = `${xKey ?? TIME_KEY}\u0000${name}`;
    let series = this.byKey.get(key);
    if (!series) {
      if (this.ordered.length >= this.maxSeries) {
        this.refused++;
        return undefined;
      }
      series = new MetricSeries(name, xKey ?? TIME_KEY, this.cap);
      this.byKey.set(key, series);
      this.ordered.push(series);
    }
    return series;
  }

  /** One more metric line added (addColumns adds its values to the series itself). */
  countLine(): void {
    this.lines++;
  }

  /** One more value refused (a series the store could not make). */
  countRefused(): void {
    this.refused++;
  }

  /** The series in the order their metrics first appeared. */
  series(): readonly MetricSeries[] {
    return this.ordered;
  }

  /** The series of `name` against `xKey` (any x key when not given: the first such series). */
  get(name: string, xKey?: string): MetricSeries | undefined {
    if (xKey !== undefined) return this.byKey.get(`${xKey}\u0000${name}`);
    return this.ordered.find((s) => s.name === name);
  }

  /** Metric lines added. */
  get lineCount(): number {
    return this.lines;
  }

  /** Values dropped because the store already had maxSeries series. */
  get refusedValues(): number {
    return this.refused;
  }
}
