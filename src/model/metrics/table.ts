/**
 * Column tables whose header line comes once and whose rows come later, often as a progress bar's text
 * (Ultralytics YOLO: `Epoch GPU_mem box_loss cls_loss ...` then `1/100 2.61G 1.234 ...: 100%|███| 8/8 [...]`,
 * and its validation table `Class Images Instances Box(P R mAP50 mAP50-95)` then `all 128 929 0.668 ...`).
 *
 * A header is a line of three or more names (each starting with a letter) set apart by two or more spaces, with
 * no `=`, `:`, `|` or `,` among them (text before a progress bar's `: NN%|` counts, the bar does not), or a
 * Markdown table's `| AP | AP50 | AP75 |` (detectron2's evaluation results) of one word a column. Columns in a
 * group (`Box(P R mAP50 mAP50-95)  Mask(P R ...)`) are named under it: `box/p`, `mask/p`. It is kept until
 * the next header. A row is a later line with as many cells, all numbers (a unit allowed: `2.61G`)
 * or counters (`1/100`), except that the first may be a label: the overall row (`all`, `total`, `mean`) is read,
 * a row per class is not (a series per class would crowd out the rest). A value takes its column's name (and
 * its unit: `gpu_mem_gb`); a column named as an x (Epoch, Step, Iter) gives the row's x. One header kept, so
 * memory stays bounded; a line is checked as a row only while a header is kept, and counted cell by cell before
 * anything is allocated. No `vscode` import.
 */
import { normaliseName, parseUnit, withUnit, xRank } from './names';
import type { MetricPoint } from './types';

let header: readonly string[] | undefined;
/** The kept header's table has `|` between its cells (a Markdown table: tabulate's "pipe" format). */
let piped = false;

/** Forget the header (a new log). */
export function forgetTable(): void {
  header = undefined;
}

/** Where the `max` blank-separated cells of a row at the start of `s` end (before a progress bar's `: NN%|`),
 *  or -1 when `s` is no such row: another number of cells, or a `=`, `,`, `|` or `:` among them. Stops at the
 *  first of those, so a line that is no row costs a few characters. */
function rowEnd(s: string, max: number): number {
  let cells = 0;
  let inCell = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9) {
      inCell = false;
      continue;
    }
    if (c === 58) return barAt(s, i) && cells === max ? i : -1;
    if (c === 61 || c === 44 || c === 124) return -1;
    if (!inCell) {
      inCell = true;
      if (++cells > max) return -1;
    }
  }
  return cells === max ? s.length : -1;
}

/** Whether `s` is a `| a | b |` row: a `|` first and last (blanks aside). */
function isPiped(s: string): boolean {
  let i = 0;
  while (s.charCodeAt(i) === 32) i++;
  let j = s.length - 1;
  while (j > i && s.charCodeAt(j) === 32) j--;
  return j > i && s.charCodeAt(i) === 124 && s.charCodeAt(j) === 124;
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

/** The number of cells of a `| a | b |` row. */
function countPiped(s: string): number {
  let n = -1;
  for (let i = s.indexOf('|'); i >= 0; i = s.indexOf('|', i + 1)) n++;
  return n;
}

const pipedCells = (s: string) =>
  s
    .trim()
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
const blankCells = (s: string, to: number) => s.slice(0, to).trim().split(/\s+/);

const NUMBER = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-z%/]*)$/;
const COUNTER = /^(\d+)\/(\d+)$/;
const GROUP = /^([A-Za-z][\w-]*)\(([^()]+)$/;
const OVERALL = new Set(['all', 'total', 'mean', 'avg', 'average', 'overall']);

/** A header's names: each cell's; cells in a group (`Box(P R mAP50 mAP50-95)`) under it (`box/p`, `box/r`). */
function headerNames(cells: readonly string[]): string[] | undefined {
  const names: string[] = [];
  let group: string | undefined;
  for (let cell of cells) {
    const c = cell.charCodeAt(0) | 32;
    if (c < 97 || c > 122) return undefined;
    let prefix = group;
    const open = GROUP.exec(cell);
    if (open && group === undefined) {
      prefix = group = normaliseName(open[1]);
      cell = open[2];
    }
    if (group !== undefined && cell.endsWith(')') && !cell.includes('(')) {
      cell = cell.slice(0, -1);
      group = undefined;
    }
    const name = normaliseName(cell);
    if (name === undefined) return undefined;
    names.push(prefix === undefined ? name : `${prefix}/${name}`);
  }
  return new Set(names).size === names.length ? names : undefined;
}

/** Whether a progress bar (`: 45%|`, blanks allowed) starts at the `:` at s[i]. */
function barAt(s: string, i: number): boolean {
  let j = i + 1;
  while (s.charCodeAt(j) === 32) j++;
  const digits = j;
  while (s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
  return j > digits && s.charCodeAt(j) === 37 && s.charCodeAt(j + 1) === 124;
}

/** Notes `s` as a table header when it is one (see the file comment); returns whether it was. */
export function readHeader(s: string): boolean {
  if (s.indexOf('  ') < 0) return false; // columns are set apart by two or more blanks
  let to = s.length;
  let pipe = -1; // whether `s` is a `| a | b |` row: known at its first `|`
  for (let i = 0; i < to; i++) {
    // most lines are no header at their first `=`, `:`, `,`, number or `|` (unless a Markdown row's): stop there;
    // a `:` that starts a progress bar ends the header's cells
    const c = s.charCodeAt(i);
    if (c === 124) {
      if (pipe < 0) pipe = isPiped(s) ? 1 : 0;
      if (pipe === 0) return false;
    } else if (c === 58 && pipe !== 1 && barAt(s, i)) to = i;
    else if (c === 61 || c === 58 || c === 44) return false;
    else if (c >= 48 && c <= 57 && (i === 0 || s.charCodeAt(i - 1) === 32)) return false;
  }
  let cells: string[];
  if (pipe === 1) {
    cells = pipedCells(s);
    if (cells.some((c) => c === '' || /\s/.test(c))) return false; // one word a column
  } else {
    const { cells: n, wide } = countCells(s, to);
    if (n < 3 || !wide) return false;
    cells = blankCells(s, to);
  }
  if (cells.length < 3 || cells.length > 32) return false;
  const names = headerNames(cells);
  if (!names) return false;
  header = names;
  piped = pipe === 1;
  return true;
}

/** The point of `s` as a row of the kept header, or undefined when it is none. */
export function readRow(s: string): MetricPoint | undefined {
  if (!header) return undefined;
  let cells: string[];
  if (piped) {
    if (!isPiped(s) || countPiped(s) !== header.length) return undefined;
    cells = pipedCells(s);
  } else {
    const to = rowEnd(s, header.length);
    if (to < 0) return undefined;
    cells = blankCells(s, to);
  }
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
