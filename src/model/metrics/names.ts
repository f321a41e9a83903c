/**
 * Metric names and units, as the metric-line parser (parseLine.ts) sees them. No `vscode` import, no I/O.
 *
 * A name is normalised once: lower case, runs of white space and parentheses become one `_`
 * ("elapsed time per iteration (ms)" -> `elapsed_time_per_iteration_ms`, "Lm Loss" -> `lm_loss`), quotes
 * and a trailing `.`/`-` go. A name that then does not start with a letter or `_` is no name (so nothing a
 * spreadsheet would take for a formula, `=...`, `+...`, `-...`, `@...`, ever becomes a metric).
 *
 * A unit written on a value joins the name, so values in different units never share a series:
 * `time 12.34ms` -> `time_ms`, `mfu 35.2%` -> `mfu_pct`, `max_mem: 3000M` -> `max_mem_mb`, and a rate
 * `36.2it/s` -> `it_per_s` (a name already ending in its unit keeps it once: `time_ms: 5ms` -> `time_ms`).
 */

/** The x keys, best first: a line with several uses the finest (a global step over an epoch). */
const X_RANK = new Map<string, number>([
  ['global_step', 0],
  ['num_updates', 0],
  ['total_steps', 0],
  ['step', 1],
  ['iteration', 2],
  ['iter', 2],
  ['iters', 2],
  ['it', 2],
  ['batch', 3],
  ['epoch', 4],
]);

/** The x keys that also count as the last part of a longer name (`train/global_step`, `train/epoch`);
 *  not `batch` or `step` there, which are units in `ms/batch` or `s/step`. */
const X_SUFFIX = new Set(['global_step', 'num_updates', 'epoch', 'iteration']);

/** The rank of an x key (0 best), or -1 when `name` is no x key. */
export function xRank(name: string): number {
  const r = X_RANK.get(name);
  if (r !== undefined) return r;
  const slash = name.lastIndexOf('/');
  if (slash < 0) return -1;
  const last = name.slice(slash + 1);
  return X_SUFFIX.has(last) ? (X_RANK.get(last) ?? -1) : -1;
}

export const EPOCH_RANK = 4;

/** Names that carry numbers but are no metric (an ETA, a logger's version, ranks, ports, versions). */
const IGNORED = new Set([
  'eta',
  'v_num',
  'progress',
  'pid',
  'port',
  'rank',
  'local_rank',
  'node_rank',
  'global_rank',
  'world_size',
  'seed',
  'gpu',
  'gpus',
  'device',
  'id',
  'get',
  'hit',
  'ign',
  'fetched',
  'date',
  'year',
  'day',
  'hour',
  'minute',
  // a device or a library's version (`cuda:0`, `cudnn 90100`), never a metric
  'cuda',
  'cudnn',
  'cpu',
  'xla',
  'npu',
  'mps',
  'nccl',
  'torch',
  'python',
]);

/** What a name is: an x key (its rank), ignored, or a metric (-1); cached like `seen`. */
const kinds = new Map<string, number>();
export const IGNORED_KIND = -2;

/** -1: a metric; -2: an ignored name; 0 and up: an x key's rank. */
export function nameKind(name: string): number {
  let k = kinds.get(name);
  if (k === undefined) {
    k = xRank(name);
    if (k < 0 && isIgnoredName(name)) k = IGNORED_KIND;
    if (kinds.size >= SEEN_MAX) kinds.clear();
    kinds.set(name, k);
  }
  return k;
}

function isIgnoredName(name: string): boolean {
  if (IGNORED.has(name)) return true;
  const at = name.lastIndexOf('/');
  const last = at < 0 ? name : name.slice(at + 1);
  return (
    IGNORED.has(last) ||
    last.includes('version') ||
    last.endsWith('_port') ||
    last.endsWith('_id') ||
    last.endsWith('.py') // a source location, `train.py:123`
  );
}

const PLAIN_NAME = /^[a-z_][a-z0-9_./@-]*$/;

/** Names seen, raw -> normalised (null: no name): a log prints the same few names on every line. */
const seen = new Map<string, string | null>();
const SEEN_MAX = 1024;

/** Normalised name (see the file comment), or undefined when `raw` makes no name. */
export function normaliseName(raw: string): string | undefined {
  if (PLAIN_NAME.test(raw) && !raw.endsWith('.') && !raw.endsWith('-'))
    return raw.length <= 120 ? raw : undefined;
  const known = seen.get(raw);
  if (known !== undefined) return known ?? undefined;
  const name = normalise(raw);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(raw, name ?? null);
  return name;
}

function normalise(raw: string): string | undefined {
  let out = raw;
  if (!PLAIN_NAME.test(out)) {
    out = out
      .toLowerCase()
      .replace(/['"`]/g, '')
      .replace(/[\s()]+/g, ' ')
      .trim()
      .replace(/ /g, '_')
      .replace(/[.:-]+$/, '');
  } else if (out.endsWith('.') || out.endsWith('-')) out = out.replace(/[.-]+$/, '');
  if (out.length === 0 || out.length > 120) return undefined;
  const first = out.charCodeAt(0);
  return (first >= 97 && first <= 122) || first === 95 || first > 127 ? out : undefined;
}

export type UnitKind = 'time' | 'size' | 'pct' | 'rate' | 'sizeRate' | 'bareRate';

export interface Unit {
  /** What joins the name: `ms`, `pct`, `it_per_s`. */
  readonly suffix: string;
  readonly kind: UnitKind;
}

const SIMPLE: ReadonlyMap<string, Unit> = new Map<string, Unit>(
  (
    [
      ['ns', 'ns', 'time'],
      ['us', 'us', 'time'],
      ['µs', 'us', 'time'],
      ['μs', 'us', 'time'],
      ['ms', 'ms', 'time'],
      ['s', 's', 'time'],
      ['sec', 's', 'time'],
      ['secs', 's', 'time'],
      ['min', 'min', 'time'],
      ['mins', 'min', 'time'],
      ['h', 'h', 'time'],
      ['hr', 'h', 'time'],
      ['hrs', 'h', 'time'],
      ['%', 'pct', 'pct'],
      ['B', 'b', 'size'],
      ['K', 'kb', 'size'],
      ['k', 'kb', 'size'],
      ['KB', 'kb', 'size'],
      ['kB', 'kb', 'size'],
      ['M', 'mb', 'size'],
      ['MB', 'mb', 'size'],
      ['G', 'gb', 'size'],
      ['GB', 'gb', 'size'],
      ['T', 'tb', 'size'],
      ['TB', 'tb', 'size'],
      ['KiB', 'kib', 'size'],
      ['MiB', 'mib', 'size'],
      ['GiB', 'gib', 'size'],
      ['TiB', 'tib', 'size'],
    ] as const
  ).map(([text, suffix, kind]) => [text, { suffix, kind }]),
);

const RATE_PART = /^[A-Za-zµμ]{1,12}$/;
/* eslint-disable tensorpool/l10n -- units the parser matches, never shown */
/** What a rate may be per, besides a time. */
const PER = new Set(
  'step steps it iter iters batch batches epoch epochs gpu device sample samples token tokens tok img image ex'.split(
    ' ',
  ),
);
/* eslint-enable tensorpool/l10n */

/** The unit written right after a number (`ms`, `%`, `it/s`, `MB/s`, `/s`), or undefined if it is none
 *  we know: then the number is no value (`34C`, `60W`, `3rd`, `0x1f` are not metrics). */
export function parseUnit(text: string): Unit | undefined {
  const known = SIMPLE.get(text) ?? rates.get(text);
  if (known) return known;
  const unit = parseRate(text);
  if (unit && rates.size < 256) rates.set(text, unit);
  return unit;
}

/** Rates seen (a log writes the same few again and again). */
const rates = new Map<string, Unit>();

function parseRate(text: string): Unit | undefined {
  const slash = text.indexOf('/');
  if (slash < 0 || slash !== text.lastIndexOf('/')) return undefined;
  const a = text.slice(0, slash);
  const b = text.slice(slash + 1);
  if (!RATE_PART.test(b) || (a !== '' && !RATE_PART.test(a))) return undefined;
  const ua = SIMPLE.get(a);
  const ub = SIMPLE.get(b);
  // per a time or per a unit of work (`it/s`, `ms/step`, `tok/s`, `s/it`), not `1/IB` (an NCCL device list)
  if (ub?.kind !== 'time' && !PER.has(b.toLowerCase())) return undefined;
  const sa = ua ? ua.suffix : a.toLowerCase();
  const sb = ub ? ub.suffix : b.toLowerCase();
  if (a === '') return { suffix: `per_${sb}`, kind: 'bareRate' };
  return { suffix: `${sa}_per_${sb}`, kind: ua?.kind === 'size' ? 'sizeRate' : 'rate' };
}

/** `name` with the unit's suffix, unless it already ends with it. */
export function withUnit(name: string, unit: Unit | undefined): string {
  if (!unit) return name;
  return name === unit.suffix || name.endsWith(`_${unit.suffix}`) ? name : `${name}_${unit.suffix}`;
}
