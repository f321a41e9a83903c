/**
 * Metric records: what the job-log reader (its worker thread, src/api/listenWorker.ts) sends beside the
 * log lines. One record per metric line, with the index of the message it came from on its connection
 * (1-based, counted as src/api/jobFollow.ts counts: one per message, one per line of a run), so a follower
 * that skips the lines a reconnect replays skips their records too. Names and values travel as two flat
 * arrays (cheaper to copy between threads than a Map or an object per metric).
 *
 * MetricBatcher parses messages as they arrive and holds the records until taken; `full` says when
 * MAX_BATCH_RECORDS wait (the reader sends the batch then, so no batch grows without bound). No `vscode`
 * import.
 */
import { parseMetricLine } from './parseLine';
import type { MetricStore } from './store';

export interface MetricRecord {
  /** The message's index on its connection (1-based). */
  readonly line: number;
  /** When the line was read (ms since 1970): the x of a line without its own. */
  readonly time: number;
  readonly x?: number;
  readonly xKey?: string;
  readonly names: readonly string[];
  readonly values: readonly number[];
}

export const MAX_BATCH_RECORDS = 500;

export class MetricBatcher {
  private records: MetricRecord[] = [];

  /** Parses one message's text (lines split at \n) as message `line` of its connection; a metric line's
   *  time is now. */
  add(line: number, text: string): void {
    if (text.indexOf('\n') < 0) {
      this.one(line, text);
      return;
    }
    for (const part of text.split('\n')) this.one(line, part);
  }

  private one(line: number, text: string): void {
    const point = parseMetricLine(text);
    if (!point) return;
    const names: string[] = [];
    const values: number[] = [];
    for (const [name, value] of point.metrics) {
      names.push(name);
      values.push(value);
    }
    this.records.push({ line, time: Date.now(), x: point.x, xKey: point.xKey, names, values });
  }

  get size(): number {
    return this.records.length;
  }

  get full(): boolean {
    return this.records.length >= MAX_BATCH_RECORDS;
  }

  /** The records parsed since the last take (undefined when none). */
  take(): MetricRecord[] | undefined {
    if (this.records.length === 0) return undefined;
    const out = this.records;
    this.records = [];
    return out;
  }
}

/** Adds records to a store (each a MetricPoint again). */
export function addRecords(store: MetricStore, records: readonly MetricRecord[]): void {
  for (const r of records) {
    const metrics = new Map<string, number>();
    for (let i = 0; i < r.names.length; i++) metrics.set(r.names[i], r.values[i]);
    store.add({ x: r.x, xKey: r.xKey, metrics }, r.time);
  }
}
