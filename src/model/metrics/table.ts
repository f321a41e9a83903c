/**
 * Column tables whose header line comes once and whose rows come later, often as a progress bar's text
 * (Ultralytics YOLO: `Epoch GPU_mem box_loss cls_loss ...` then `1/100 2.61G 1.234 ...: 100%|███| 8/8 [...]`,
 * and its validation table `Class Images Instances Box(P R mAP50 mAP50-95)` then `all 128 929 0.668 ...`).
 *
 * A header is a line of three or more names (each starting with a letter) set apart by two or more spaces, with
 * no `=`, `:`, `|` or `,` among them (text before a progress bar's `: NN%|` counts, the bar does not). It is
 * kept until the next header. A row is a later line with as many cells, all numbers (a unit allowed: `2.61G`)
 * or counters (`1/100`), except that the first may be a label: the overall row (`all`, `total`, `mean`) is read,
 * a row per class is not (a series per class would crowd out the rest). A value takes its column's name (and
 * its unit: `gpu_mem_gb`); a column named as an x (Epoch, Step, Iter) gives the row's x. One header kept, so
 * memory stays bounded; a line is checked as a row only while a header is kept, and counted cell by cell before
 * anything is allocated. No `vscode` import.
 */
import { normaliseName, parseUnit, withUnit, xRank } from './names';
import type { MetricPoint } from './types';

let header: readonly string[] | undefined;

/** Forget the header (a new log). */
export function forgetTable(): void {
  header = undefined;
}

/** Where a line's cells end: before a progress bar's `: NN%|` (or `NN%|`), else the line's end. */
function cellsEnd(s: string): number {
  const bar = s.indexOf('%|');
  if (bar < 0) return s.length;
  const colon = s.lastIndexOf(':', bar);
  if (colon >= 0) return colon;
  let i = bar;
  while (i > 0 && s.charCodeAt(i - 1) !== 32) i--;
  return i;
}

/** The number of blank-separated cells in s[0, to), and whether every gap is two or more blanks. */
function countCells(s: string, to: number): { cells: number; wide: boolean } {
  let cells = 0;
  let wide = true;
  let i = 0;
  while (i < to && s.charCodeAt(i) === 32) i++;
  while (i < to) {
    cells++;
    while (i < to && s.charCodeAt(i) !== 32 && s.charCodeAt(i) !== 9) i++;
    const gap = i;
    while (i < to && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
    if (i < to && i - gap < 2 && s.charCodeAt(gap) !== 9) wide = false;
  }
  return { cells, wide };
}

const NUMBER = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-z%/]*)$/;
const COUNTER = /^(\d+)\/(\d+)$/;
const OVERALL = new Set(['all', 'total', 'mean', 'avg', 'average', 'overall']);

/** Notes `s` as a table header when it is one (see the file comment); returns whether it was. */
export function readHeader(s: string): boolean {
  if (s.indexOf('  ') < 0) return false;
  const to = cellsEnd(s);
  for (let i = 0; i < to; i++) {
    // most lines are no header at their first `=`, `:`, `|`, `,` or number: stop there
    const c = s.charCodeAt(i);
    if (c === 61 || c === 58 || c === 124 || c === 44) return false;
    if (c >= 48 && c <= 57 && (i === 0 || s.charCodeAt(i - 1) === 32)) return false;
  }
  const { cells, wide } = countCells(s, to);
  if (cells < 3 || cells > 32 || !wide) return false;
  const part = s.slice(0, to);
  const names: string[] = [];
  for (const cell of part.trim().split(/\s+/)) {
    const c = cell.charCodeAt(0) | 32;
    const name = c >= 97 && c <= 122 ? normaliseName(cell) : undefined;
    if (name === undefined) return false;
    names.push(name);
  }
  if (new Set(names).size !== names.length) return false;
  header = names;
  return true;
}

/** The point of `s` as a row of the kept header, or undefined when it is none. */
export function readRow(s: string): MetricPoint | undefined {
  if (!header) return undefined;
  const to = cellsEnd(s);
  if (countCells(s, to).cells !== header.length) return undefined;
  const cells = s.slice(0, to).trim().split(/\s+/);
  const metrics = new Map<string, number>();
  let x: number | undefined;
  let xKey: string | undefined;
  for (let k = 0; k < cells.length; k++) {
    const name = header[k];
    const counter = COUNTER.exec(cells[k]);
    if (counter) {
      if (xRank(name) < 0 || xKey !== undefined) return undefined;
      x = Number(counter[1]);
      xKey = name;
      continue;
    }
    const m = NUMBER.exec(cells[k]);
    if (!m) {
      if (k !== 0 || !/^[A-Za-z]/.test(cells[k])) return undefined;
      if (!OVERALL.has(cells[k].toLowerCase())) return undefined; // a row per class
      continue;
    }
    const unit = m[2] === '' ? undefined : parseUnit(m[2]);
    if (m[2] !== '' && !unit) return undefined;
    const v = Number(m[1]);
    if (!unit && xRank(name) >= 0 && xKey === undefined) {
      x = v;
      xKey = name;
    } else metrics.set(withUnit(name, unit), v);
  }
  if (metrics.size === 0) return undefined;
  return xKey === undefined ? { metrics } : { x, xKey, metrics };
}
