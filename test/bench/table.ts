// The bench table: one row per figure, with how it gates the run.
//
// What gates (the run fails when a gating row is broken), by kind:
//   count  a number of things that does not depend on the machine's load (requests, lines, files, timers,
//          sockets, warnings, errors); compared with its limit as measured.
//   size   bytes or megabytes (bundles, the VSIX, heap growth after a forced GC); compared with its limit.
//   ratio  two things measured in the same run, interleaved, on the same machine (the extension against a
//          baseline that carries the same noise); compared with its limit.
//   time   an absolute time. A shared 2-core machine's load moves these by several times, so a time is
//          information against its aim, and fails the run only past a catastrophic bound (CATASTROPHIC times
//          the aim), which a real regression still crosses.
// A row without a limit is information. A gating row that fails is measured once more (Table.measure) before
// the run fails; the row then says it needed a second measurement and what the first one read.
import type { RowTable } from './rowTable';
import { summarize } from './stats';

export type Verdict = 'met' | 'BROKEN' | 'info';
export type GateKind = 'count' | 'size' | 'ratio' | 'time' | 'info';

/** An absolute time fails the run only past this many times its aim. */
const CATASTROPHIC = 3;

export interface Row {
  budget: string;
  where: string;
  unit: string;
  median: number | undefined;
  min: number | undefined;
  max: number | undefined;
  n: number;
  limit: string;
  verdict: Verdict;
  kind: GateKind;
  /** The row failed its first measurement and was measured again: what the first one read. */
  firstMeasurement?: string;
  note?: string;
}

const COUNT_UNITS = new Set([
  'requests',
  'lines',
  'files',
  'timers',
  'sockets',
  'warnings',
  'errors',
  'launches',
  'connections',
  'processes',
]);
const SIZE_UNITS = new Set(['KB', 'MB', 'bytes']);

function kindOf(unit: string): GateKind {
  if (unit === 'x') return 'ratio';
  // CPU per second of the extension's own code while nothing happens: ≈ 0 whatever the load, as counted.
  if (unit === 'ms/s') return 'count';
  if (unit === 'ms' || unit === 's') return 'time';
  if (COUNT_UNITS.has(unit)) return 'count';
  if (SIZE_UNITS.has(unit)) return 'size';
  return 'info';
}

const withUnit = (v: number, unit: string) => `${v}${unit === 'x' ? 'x' : ` ${unit}`}`;

export class Table implements RowTable {
  readonly rows: Row[] = [];

  /** @param measureTwice false: a broken row is not measured again (a run with injected costs). */
  constructor(private readonly measureTwice = true) {}

  /**
   * A measured figure (the median of `values`) against `<= limit`, gating as its kind says (see the top of
   * this file), or an explicit pass/fail (`ok`). `limitText` replaces the limit column's text.
   */
  add(
    budget: string,
    where: string,
    unit: string,
    values: readonly number[],
    limit: number | undefined,
    opts: { ok?: boolean; limitText?: string; note?: string } = {},
  ): void {
    const s = summarize(values);
    const measured = values.length > 0 && values.every((v) => Number.isFinite(v));
    const kind: GateKind = limit === undefined && opts.ok === undefined ? 'info' : kindOf(unit);
    let verdict: Verdict = 'info';
    let limitText = opts.limitText ?? (limit === undefined ? '-' : `<= ${withUnit(limit, unit)}`);
    if (limit !== undefined || opts.ok !== undefined) {
      const bound = limit === undefined ? undefined : kind === 'time' ? CATASTROPHIC * limit : limit;
      const within = bound === undefined || (measured && s.median <= bound);
      verdict = measured && within && opts.ok !== false ? 'met' : 'BROKEN';
      if (kind === 'time' && limit !== undefined && opts.limitText === undefined)
        limitText = `aim <= ${withUnit(limit, unit)} (${measured && s.median <= limit ? 'met' : 'missed'}); fails > ${withUnit(CATASTROPHIC * limit, unit)}`;
    }
    this.rows.push({
      budget,
      where,
      unit,
      median: measured ? s.median : undefined,
      min: measured ? s.min : undefined,
      max: measured ? s.max : undefined,
      n: s.n,
      limit: limitText,
      verdict,
      kind,
      note: measured ? opts.note : `not measured${opts.note ? `: ${opts.note}` : ''}`,
    });
  }

  /** A budget that could not be measured counts as broken. */
  missing(budget: string, where: string, why: string): void {
    this.rows.push({
      budget,
      where,
      unit: '',
      median: undefined,
      min: undefined,
      max: undefined,
      n: 0,
      limit: '',
      verdict: 'BROKEN',
      kind: 'info',
      note: `not measured: ${why}`,
    });
  }

  /**
   * Runs `step` (which adds rows); when a row it added is broken, measures once more: the second
   * measurement's rows replace the first's, and each row that failed the first time says so. `again`
   * (default: `step`) is the second measurement, given the broken rows; it may be narrower than the whole
   * step and then returns which of the rows it added it measured (the others are dropped).
   */
  async measure(
    step: () => Promise<void>,
    again: (broken: readonly Row[]) => Promise<void | ((row: Row) => boolean)> = step,
  ): Promise<void> {
    const start = this.rows.length;
    await step();
    if (!this.measureTwice) return;
    const first = this.rows.splice(start);
    const failed = first.filter((r) => r.verdict === 'BROKEN');
    if (failed.length === 0) {
      this.rows.push(...first);
      return;
    }
    const measured = await again(failed);
    const second = this.rows.splice(start).filter((r) => !measured || measured(r));
    const key = (r: Row) => `${r.budget}\u0000${r.where}`;
    const secondByKey = new Map(second.map((r) => [key(r), r]));
    // Keep the first measurement's rows in their order, each replaced by its second measurement where there
    // is one; rows only the second measurement has (a narrower step may add none) go after them.
    const merged = first.map((r) => secondByKey.get(key(r)) ?? r);
    const used = new Set(first.map(key));
    merged.push(...second.filter((r) => !used.has(key(r))));
    for (const f of failed) {
      const row = merged.find((r) => key(r) === key(f));
      if (row && row !== f)
        // Its note too (what the soak's timers were, where a sync's time went): a break that does not come
        // again is then still readable.
        row.firstMeasurement = `${f.median === undefined ? 'not measured' : withUnit(Number(f.median.toPrecision(4)), f.unit)} (broken${f.note ? `: ${f.note}` : ''})`;
    }
    this.rows.push(...merged);
  }

  get met(): number {
    return this.rows.filter((r) => r.verdict === 'met').length;
  }
  get broken(): number {
    return this.rows.filter((r) => r.verdict === 'BROKEN').length;
  }

  print(): void {
    const fmt = (v: number | undefined, unit: string) => {
      if (v === undefined) return '-';
      const digits =
        unit === 'x' ? 2 : unit === 'ms' ? (v < 10 ? 2 : 1) : unit === 'KB' ? 1 : Number.isInteger(v) ? 0 : 2;
      return `${v.toFixed(digits)}${unit === 'x' ? 'x' : unit ? ` ${unit}` : ''}`;
    };
    const header = ['Budget', 'Where', 'median', 'min', 'max', 'gate', 'limit', 'verdict'];
    const lines = this.rows.map((r) => [
      r.budget,
      r.where,
      fmt(r.median, r.unit),
      fmt(r.min, r.unit),
      fmt(r.max, r.unit),
      r.kind,
      r.limit,
      r.firstMeasurement ? `${r.verdict} (2nd measurement)` : r.verdict,
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ');
    console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}`);
    for (const l of lines) console.log(line(l));
    const notes = this.rows.filter((r) => r.note || r.firstMeasurement);
    if (notes.length) {
      console.log('\nNotes:');
      for (const r of notes)
        console.log(
          `  ${r.budget} (${r.where}): ${[r.firstMeasurement && `first measurement ${r.firstMeasurement}, measured again`, r.note].filter(Boolean).join('; ')}`,
        );
    }
  }
}
