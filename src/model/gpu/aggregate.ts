/**
 * A node's GPUs at a glance: `8×H100 · 87% · 61/80 GB`, the "all idle" rule and staleness.
 *
 * The figures (chosen here, and what the node row means everywhere):
 *  - utilisation is the mean of the GPUs' `utilization.gpu` that were reported (a MIG-enabled GPU
 *    reports none); no GPU reported one: unknown, shown as `–`;
 *  - memory is per GPU: the mean used memory over the mean total, so `61/80 GB` reads like one card;
 *  - "GB" is GiB (1024 MiB): nvidia-smi counts MiB, and an "80GB" H100 reports 81559 MiB = 79.6 GiB,
 *    which rounds to the 80 people know. Totals are whole numbers; used memory has one decimal below
 *    10 GB (so 0.4 GB of a loaded model does not read as 0) and is whole above.
 * Pure: no I/O, no vscode.
 */
import * as l10n from '@vscode/l10n';
import type { GpuReading, GpuSample } from './smiValues';

export interface NodeAggregate {
  readonly count: number;
  /** Short model name (`H100`) when every GPU is the same model, else undefined. */
  readonly model: string | undefined;
  readonly meanUtilization: number | undefined;
  readonly meanMemoryUsedMiB: number | undefined;
  readonly meanMemoryTotalMiB: number | undefined;
}

const FAMILY_WORDS = new Set(['geforce', 'tesla', 'quadro']);
const TWO_WORD_SERIES = new Set(['rtx', 'gtx', 'titan']);

/** `NVIDIA H100 80GB HBM3` → `H100`, `NVIDIA H200` → `H200`, `NVIDIA A100-SXM4-40GB` → `A100`,
 *  `NVIDIA B300 SXM6 AC` → `B300`, `NVIDIA GeForce RTX 4090` → `RTX 4090`, `Tesla T4` → `T4`. */
export function shortModelName(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w.toLowerCase() !== 'nvidia' && !FAMILY_WORDS.has(w.toLowerCase()));
  if (words.length === 0) return undefined;
  if (TWO_WORD_SERIES.has(words[0].toLowerCase()) && words[1]) return `${words[0]} ${words[1]}`;
  return words[0].split('-')[0] || undefined;
}

function mean(values: (number | undefined)[]): number | undefined {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : undefined;
}

export function aggregate(gpus: readonly GpuReading[]): NodeAggregate {
  const models = new Set(gpus.map((g) => shortModelName(g.name)));
  const model = models.size === 1 ? [...models][0] : undefined;
  return {
    count: gpus.length,
    model,
    meanUtilization: mean(gpus.map((g) => g.utilizationGpu)),
    meanMemoryUsedMiB: mean(gpus.map((g) => g.memoryUsedMiB)),
    meanMemoryTotalMiB: mean(gpus.map((g) => g.memoryTotalMiB)),
  };
}

/** MiB as the GB (GiB) figure of the node row: one decimal below 10, whole above. */
function gbUsed(mib: number): string {
  const gb = mib / 1024;
  return gb < 10 ? String(Math.round(gb * 10) / 10) : String(Math.round(gb));
}

function gbTotal(mib: number): string {
  return String(Math.round(mib / 1024));
}

function percent(value: number | undefined): string {
  return value === undefined ? '–' : `${Math.round(value)}%`;
}

/** `8×H100` (`8 GPUs` when the models differ): what the node has, without its changing figures. */
export function aggregateWhat(a: NodeAggregate): string {
  return a.model ? `${a.count}×${a.model}` : l10n.t('{0} GPUs', a.count);
}

/** `8×H100 · 87% · 61/80 GB` (`8 GPUs` when the models differ; parts left out when unknown). */
export function aggregateLabel(a: NodeAggregate): string {
  const parts = [aggregateWhat(a), percent(a.meanUtilization)];
  if (a.meanMemoryUsedMiB !== undefined && a.meanMemoryTotalMiB !== undefined)
    parts.push(l10n.t('{0}/{1} GB', gbUsed(a.meanMemoryUsedMiB), gbTotal(a.meanMemoryTotalMiB)));
  return parts.join(' · ');
}

/** Default "idle" threshold (percent utilisation), the idle guard's setting default. */
const DEFAULT_IDLE_THRESHOLD = 5;

/** Every GPU reported a utilisation and all are below `threshold`. A GPU whose utilisation is unknown
 *  (MIG, `[N/A]`) makes the node not idle: the guard never acts on what it cannot see. No GPUs: false. */
export function allIdle(gpus: readonly GpuReading[], threshold = DEFAULT_IDLE_THRESHOLD): boolean {
  return gpus.length > 0 && gpus.every((g) => g.utilizationGpu !== undefined && g.utilizationGpu < threshold);
}

/** How many sampling intervals may pass without a sample before the node counts as stale. */
const STALE_INTERVALS = 3;

export interface Freshness {
  readonly stale: boolean;
  /** When the sample shown was taken (kept when stale, so the UI can say "as of …"). */
  readonly sampleTime: number;
  readonly ageMs: number;
}

/** A sample older than `intervals` × the sampling interval is stale; it keeps its time. */
export function freshness(
  sample: Pick<GpuSample, 'time'>,
  now: number,
  intervalMs: number,
  intervals = STALE_INTERVALS,
): Freshness {
  const ageMs = Math.max(0, now - sample.time);
  return { stale: ageMs > intervals * intervalMs, sampleTime: sample.time, ageMs };
}
