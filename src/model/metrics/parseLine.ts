/**
 * parseMetricLine: the numbers a training log line reports, or undefined for every other line. Built for
 * the job-log worker thread (src/api/listenWorker.ts): one line at a time, most of them no metric line,
 * so those cost one pass of precheck.ts (`2026-11-27 10:14:22,123 INFO Starting` is done there).
 *
 * Two readers behind it: the `{...}` object on a line (structured.ts: JSON, Python dict reprs) and the
 * name/value pairs of every other style (pairs.ts: `key=value`, `key: value`, `key value` segments,
 * Keras, tqdm postfixes, Lightning, mmdetection, detectron2, Megatron, fairseq, timm, nanoGPT). Both feed
 * collect.ts, which decides whether the line is a metric line. Names and units: names.ts.
 *
 * A line whose shape the parser read before (the same text around other numbers) is read by that shape
 * (shapeCache.ts): most of a training log is one or two lines printed again and again.
 *
 * A line is read up to MAX_LINE characters (and tokens.ts MAX_TOKENS tokens); of a line with carriage returns (a
 * progress bar redrawn in place) only the last redraw counts. No `vscode` import, no I/O.
 */
import * as C from './collect';
import { readPairs } from './pairs';
import { mayHoldMetrics } from './precheck';
import { forgetShapes, learnShape, matchShape, seenOutline, shapePoint } from './shapeCache';
import { lineRank, stripRank, withRank } from './ranks';
import { readObject } from './structured';
import { forgetTable, readHeader, readRow } from './table';
import type { MetricPoint } from './types';

export const MAX_LINE = 8192;

/** parseMetricLineFully is running: no shape is used or kept. */
let bypass = false;

export function parseMetricLine(line: string): MetricPoint | undefined {
  const s = metricLineText(line);
  const rank = lineRank();
  const row = readRow(s);
  if (row) return withRank(row, rank);
  let point: MetricPoint | undefined;
  const shape = !bypass && s.indexOf('{') < 0 ? matchShape(s) : undefined;
  if (shape) point = shapePoint(shape);
  else point = parseMetricText(s);
  return point && withRank(point, rank);
}

/** What of a line the parser reads: the last redraw of a line with carriage returns, without a torchrun rank
 *  prefix (ranks.ts: its rank is noted, lineRank), at most MAX_LINE characters. */
export function metricLineText(line: string): string {
  let s = line;
  if (s.indexOf('\r') >= 0) {
    const cr = s.lastIndexOf('\r');
    let to = s.length;
    let from = cr;
    while (from >= 0 && from === to - 1) {
      to = from; // a trailing \r: the redraw before it
      from = s.lastIndexOf('\r', to - 1);
    }
    s = s.slice(from + 1, to);
  }
  s = stripRank(s);
  return s.length > MAX_LINE ? s.slice(0, MAX_LINE) : s;
}

/** The parser on a line's text (metricLineText) that no kept shape fits; keeps the shape it read. */
export function parseMetricText(s: string): MetricPoint | undefined {
  const brace = s.indexOf('{');
  if (brace >= 0) {
    C.reset();
    if (readObject(s, brace)) {
      const prefix = s.slice(0, brace); // `Epoch 3: {'loss': 0.3}`: the x before the object
      if (mayHoldMetrics(prefix)) readPairs(prefix);
      return C.finish();
    }
  }
  // A line with no metric may be a table's header (table.ts), kept for the rows after it (and no shape kept).
  if (!mayHoldMetrics(s)) {
    readHeader(s);
    return undefined;
  }
  C.reset();
  const count = readPairs(s);
  const point = C.finish();
  if (!point && readHeader(s)) return undefined;
  if (brace < 0 && !bypass && seenOutline(s)) learnShape(s, point, point && C.pointTokens(), count);
  return point;
}

/** The parser alone, no shape kept or used (tests compare the two). */
export function parseMetricLineFully(line: string): MetricPoint | undefined {
  bypass = true;
  try {
    return parseMetricLine(line);
  } finally {
    bypass = false;
  }
}

/** Forget what the reader kept from earlier lines (its shapes, a table's header): the next line starts a new
 *  log. */
export function resetMetricReader(): void {
  forgetShapes();
  forgetTable();
}
