/**
 * torchrun's per-rank line prefixes (`[rank3]:`, `[default3]:` with `--tee`/`--log-dir`): the reader takes the
 * prefix off before it reads the line (parseLine.ts metricLineText) and notes the rank; a metric from a rank other
 * than 0 is kept under `rankN/<name>`, so each rank has its own series and the charts can show rank 0's alone
 * (the x key stays as it is: every rank counts the same steps). No `vscode` import.
 */
import type { MetricPoint } from './types';

let rank = 0;

/** The rank of the line metricLineText last read (0 when it had no prefix). */
export function lineRank(): number {
  return rank;
}

/** `s` without its rank prefixes (at most two: `[default0]:[rank0]:`), noting the rank. */
export function stripRank(s: string): string {
  rank = 0;
  let from = 0;
  for (let n = 0; n < 2 && s.charCodeAt(from) === 91; n++) {
    const word = s.startsWith('rank', from + 1) ? 4 : s.startsWith('default', from + 1) ? 7 : -1;
    if (word < 0) break;
    let i = from + 1 + word;
    let r = 0;
    const digits = i;
    for (let c = s.charCodeAt(i); c >= 48 && c <= 57 && i - digits < 6; c = s.charCodeAt(++i))
      r = r * 10 + c - 48;
    if (i === digits || s.charCodeAt(i) !== 93 || s.charCodeAt(i + 1) !== 58) break;
    rank = r;
    from = i + 2;
    if (s.charCodeAt(from) === 32) from++;
  }
  return from === 0 ? s : s.slice(from);
}

/** A metric's name as kept for a line of `r`: rank 0's (and a line without a rank) as it is. */
export function rankName(name: string, r: number): string {
  return r > 0 ? `rank${r}/${name}` : name;
}

/** `point` with its metrics named for rank `r`. */
export function withRank(point: MetricPoint, r: number): MetricPoint {
  if (r === 0) return point;
  const metrics = new Map<string, number>();
  for (const [name, value] of point.metrics) metrics.set(rankName(name, r), value);
  return { ...point, metrics };
}

/** The rank a kept name belongs to (0 for a name without a `rankN/` prefix). */
export function nameRank(name: string): number {
  if (!name.startsWith('rank')) return 0;
  const slash = name.indexOf('/');
  if (slash < 5 || slash > 10) return 0;
  let r = 0;
  for (let i = 4; i < slash; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
    r = r * 10 + c - 48;
  }
  return r;
}

/** The ranks the series' names belong to, in order (rank 0 first, also when it has none yet). */
export function ranksOf(series: readonly { readonly name: string }[]): number[] {
  const seen = new Set<number>([0]);
  for (const s of series) seen.add(nameRank(s.name));
  return [...seen].sort((a, b) => a - b);
}

/** The series of one rank (rank 0: those of lines without a rank prefix too). */
export function ofRank<T extends { readonly name: string }>(series: readonly T[], rank: number): T[] {
  return series.filter((s) => nameRank(s.name) === rank);
}
