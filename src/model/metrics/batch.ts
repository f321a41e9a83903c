/**
 * Metric batches: what the job-log reader (its worker thread, src/api/listenWorker.ts) sends beside the
 * log lines. One record per metric line, with the index of the message it came from on its connection
 * (1-based, counted as src/api/jobFollow.ts counts: one per message, one per line of a run), so a follower
 * that skips the lines a reconnect replays skips their records too.
 *
 * A batch travels column by column (MetricColumns): numbers in typed arrays, which move to the extension
 * host's thread without a copy (columnsTransfer), and the names once per batch. So the host receives a
 * handful of objects per batch rather than an object and two arrays per metric line, and adds the values
 * to a store without building a Map per line (addColumns).
 *
 * MetricBatcher parses messages as they arrive and holds the records until taken; `full` says when
 * MAX_BATCH_RECORDS wait (the reader sends the batch then, so no batch grows without bound). No `vscode`
 * import.
 */
import { metricLineText, parseMetricText } from './parseLine';
import { lineRank, rankName, withRank } from './ranks';
import { matchShape, shapeNumbers, type Shape } from './shapeCache';
import { readRow } from './table';
import type { MetricPoint } from './types';
import type { MetricSeries } from './series';
import type { MetricStore } from './store';

/**
 * Record r: message `lines[r]` of the connection, read at `times[r]` (ms since 1970: the x of a line
 * without its own), its own x `xs[r]` (NaN: none) under the name `names[xKeys[r]]` (-1: none); its metrics
 * are m from `ends[r - 1]` (0 for the first) to `ends[r]`: `names[nameIds[m]]` = `values[m]`.
 */
export interface MetricColumns {
  readonly count: number;
  readonly lines: Float64Array;
  readonly times: Float64Array;
  readonly xs: Float64Array;
  readonly xKeys: Int32Array;
  readonly ends: Int32Array;
  readonly nameIds: Int32Array;
  readonly values: Float64Array;
  readonly names: readonly string[];
}

/** One record as an object (for tests and logs; the stream itself keeps columns). */
export interface MetricRecord {
  readonly line: number;
  readonly time: number;
  readonly x?: number;
  readonly xKey?: string;
  readonly names: readonly string[];
  readonly values: readonly number[];
}

/** As many records as a reader's batch holds messages (listenWorker.ts BATCH_SIZE), so metric lines do not make
 *  the batches smaller, and the host's turns more frequent, than without extraction (a message of several
 *  lines can still fill it first). */
export const MAX_BATCH_RECORDS = 2000;

export class MetricBatcher {
  private lines: number[] = [];
  private times: number[] = [];
  private xs: number[] = [];
  private xKeys: number[] = [];
  private ends: number[] = [];
  private nameIds: number[] = [];
  private values: number[] = [];
  private names = new Map<string, number>();

  /** Parses one message's text (lines split at \n) as message `line` of its connection; a metric line's
   *  time is now. */
  add(line: number, text: string): void {
    if (text.indexOf('\n') < 0) {
      this.one(line, text);
      return;
    }
    for (const part of text.split('\n')) this.one(line, part);
  }

  private nameId(name: string): number {
    let id = this.names.get(name);
    if (id === undefined) {
      id = this.names.size;
      this.names.set(name, id);
    }
    return id;
  }

  private one(line: number, text: string): void {
    const s = metricLineText(text);
    const rank = lineRank();
    const row = readRow(s); // a row of a table whose header came before (table.ts)
    if (row) return this.fromPoint(line, withRank(row, rank));
    // A line of a shape read before (most of a training log): its numbers, nothing allocated per line.
    const shape = s.indexOf('{') < 0 ? matchShape(s) : undefined;
    if (shape) {
      if (!shape.none) this.fromShape(line, shape, rank);
      return;
    }
    const point = parseMetricText(s);
    if (point) this.fromPoint(line, withRank(point, rank));
  }

  private fromPoint(line: number, point: MetricPoint): void {
    this.lines.push(line);
    this.times.push(Date.now());
    this.xs.push(point.x ?? NaN);
    this.xKeys.push(point.xKey === undefined ? -1 : this.nameId(point.xKey));
    for (const [name, value] of point.metrics) {
      this.nameIds.push(this.nameId(name));
      this.values.push(value);
    }
    this.ends.push(this.values.length);
  }

  private fromShape(line: number, shape: Shape, rank: number): void {
    this.lines.push(line);
    this.times.push(Date.now());
    this.xs.push(shape.x < 0 ? NaN : shapeNumbers[shape.x]);
    this.xKeys.push(shape.xKey === undefined ? -1 : this.nameId(shape.xKey));
    for (let m = 0; m < shape.names.length; m++) {
      this.nameIds.push(this.nameId(rank === 0 ? shape.names[m] : rankName(shape.names[m], rank)));
      this.values.push(shapeNumbers[shape.of[m]]);
    }
    this.ends.push(this.values.length);
  }

  get size(): number {
    return this.lines.length;
  }

  get full(): boolean {
    return this.lines.length >= MAX_BATCH_RECORDS;
  }

  /** The records parsed since the last take (undefined when none). */
  take(): MetricColumns | undefined {
    if (this.lines.length === 0) return undefined;
    const out: MetricColumns = {
      count: this.lines.length,
      lines: Float64Array.from(this.lines),
      times: Float64Array.from(this.times),
      xs: Float64Array.from(this.xs),
      xKeys: Int32Array.from(this.xKeys),
      ends: Int32Array.from(this.ends),
      nameIds: Int32Array.from(this.nameIds),
      values: Float64Array.from(this.values),
      names: [...this.names.keys()],
    };
    this.lines = [];
    this.times = [];
    this.xs = [];
    this.xKeys = [];
    this.ends = [];
    this.nameIds = [];
    this.values = [];
    this.names = new Map();
    return out;
  }
}

/** The buffers of a batch, for postMessage's transfer list (moved to the receiving thread, not copied). */
export function columnsTransfer(c: MetricColumns): ArrayBuffer[] {
  return [c.lines, c.times, c.xs, c.xKeys, c.ends, c.nameIds, c.values].map((a) => a.buffer as ArrayBuffer);
}

/** The records of `c` from messages after `line` (those a reconnect replays are at or before it). */
export function columnsAfter(c: MetricColumns, line: number): MetricColumns {
  let r = 0;
  while (r < c.count && c.lines[r] <= line) r++;
  if (r === 0) return c;
  const from = c.ends[r - 1];
  return {
    count: c.count - r,
    lines: c.lines.subarray(r),
    times: c.times.subarray(r),
    xs: c.xs.subarray(r),
    xKeys: c.xKeys.subarray(r),
    ends: c.ends.subarray(r).map((e) => e - from),
    nameIds: c.nameIds.subarray(from),
    values: c.values.subarray(from),
    names: c.names,
  };
}

/** The records of a batch as objects. */
export function columnRecords(c: MetricColumns): MetricRecord[] {
  const out: MetricRecord[] = [];
  for (let r = 0, m = 0; r < c.count; r++) {
    const names: string[] = [];
    const values: number[] = [];
    for (; m < c.ends[r]; m++) {
      names.push(c.names[c.nameIds[m]]);
      values.push(c.values[m]);
    }
    const x = Number.isNaN(c.xs[r]) ? undefined : c.xs[r];
    const xKey = c.xKeys[r] < 0 ? undefined : c.names[c.xKeys[r]];
    out.push({ line: c.lines[r], time: c.times[r], x, xKey, names, values });
  }
  return out;
}

/** Adds a batch's values to a store, as store.add would add its records one by one. */
export function addColumns(store: MetricStore, c: MetricColumns): void {
  // the series of (x key, name) met in this batch, by xKeys[r] + 1 (0: time) and name id
  const seen = new Map<number, MetricSeries | undefined>();
  const width = c.names.length;
  for (let r = 0, m = 0; r < c.count; r++) {
    const k = c.xKeys[r];
    const own = !Number.isNaN(c.xs[r]);
    const x = own ? c.xs[r] : c.times[r];
    store.countLine();
    for (; m < c.ends[r]; m++) {
      const id = (k + 1) * width + c.nameIds[m];
      let series = seen.get(id);
      if (series === undefined) {
        // refused before in this batch: counted here; the first time, seriesFor counted it
        if (seen.has(id)) store.countRefused();
        else seen.set(id, (series = store.seriesFor(c.names[c.nameIds[m]], k < 0 ? undefined : c.names[k])));
      }
      series?.add(x, c.values[m]);
    }
  }
}
