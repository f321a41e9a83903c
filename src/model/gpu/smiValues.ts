/**
 * The GPU telemetry records as the extension understands them, and the reading of one nvidia-smi CSV
 * value. Pure: no I/O, no vscode. The format is the one NVIDIA's tool prints (see
 * test/fixtures/nvidia-smi/, captured from a real H200): fields separated by ", ", numbers with or
 * without their unit (`81.12 W` / `81.12`), and bracketed words where a value is missing
 * (`[N/A]`, `[Not Supported]`, `[Unknown Error]`, `[Insufficient Permissions]`, ...).
 */

/** The `--query-gpu=` fields the extension asks for, in this order. */
export const GPU_QUERY_FIELDS = [
  'index',
  'uuid',
  'name',
  'utilization.gpu',
  'utilization.memory',
  'memory.used',
  'memory.total',
  'temperature.gpu',
  'power.draw',
  'power.limit',
] as const;

/** The `--query-compute-apps=` fields the extension asks for, in this order. */
export const APP_QUERY_FIELDS = ['gpu_uuid', 'pid', 'process_name', 'used_memory'] as const;

/** The command lines (arguments after `nvidia-smi`) whose output the parsers read. */
export const GPU_QUERY_ARGS = [
  `--query-gpu=${GPU_QUERY_FIELDS.join(',')}`,
  '--format=csv,noheader,nounits',
] as const;
export const APP_QUERY_ARGS = [
  `--query-compute-apps=${APP_QUERY_FIELDS.join(',')}`,
  '--format=csv,noheader,nounits',
] as const;

/** One GPU at one moment. A figure the tool could not give (`[N/A]`, `[Not Supported]`, MIG mode) is
 *  undefined, never 0: "unknown" and "idle" must not look alike. */
export interface GpuReading {
  readonly index: number;
  readonly uuid?: string;
  /** As nvidia-smi prints it: `NVIDIA H100 80GB HBM3`. */
  readonly name?: string;
  /** Percent, 0..100. */
  readonly utilizationGpu?: number;
  readonly utilizationMemory?: number;
  readonly memoryUsedMiB?: number;
  readonly memoryTotalMiB?: number;
  /** Degrees Celsius. */
  readonly temperatureC?: number;
  /** Watts. */
  readonly powerDrawW?: number;
  readonly powerLimitW?: number;
}

/** One process using a GPU (`--query-compute-apps`). */
export interface GpuProcess {
  readonly gpuUuid: string;
  readonly pid: number;
  readonly name: string;
  readonly usedMemoryMiB?: number;
}

/** All GPUs of one node at one moment; `time` is when the sample was taken or received (ms). */
export interface GpuSample {
  readonly time: number;
  readonly gpus: readonly GpuReading[];
  /** Lines that were not a GPU row (garbage, a warning) and were left out. */
  readonly skipped: number;
}

/** What a bracketed value said, when a caller wants to show why a figure is missing. */
export type MissingReason = 'n/a' | 'not-supported' | 'other';

const BRACKETED = /^\[(.*)\]$/;
// A number with an optional unit as nvidia-smi prints them (`0 %`, `20085 MiB`, `691.99 W`, `55 C`).
const NUMBER = /^([-+]?\d+(?:\.\d+)?)\s*(%|MiB|GiB|KiB|W|C|MHz)?$/;

/** The bracketed reason of a missing value, or undefined when the text is not one. */
function missingReason(text: string): MissingReason | undefined {
  const m = BRACKETED.exec(text.trim());
  if (!m) return text.trim() === 'N/A' ? 'n/a' : undefined;
  const word = m[1].trim().toLowerCase();
  if (word === 'n/a') return 'n/a';
  if (word === 'not supported') return 'not-supported';
  return 'other';
}

/** A number from one CSV cell (with or without its unit); undefined for `[N/A]` and anything else. */
export function readNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = NUMBER.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : undefined;
}

/** A text cell; undefined when empty or a bracketed "missing" word. */
export function readText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const t = text.trim();
  return t === '' || missingReason(t) ? undefined : t;
}

/** Split one CSV line as nvidia-smi writes it (", " between fields, no quoting). */
export function splitCsv(line: string): string[] {
  return line.split(',').map((c) => c.trim());
}
