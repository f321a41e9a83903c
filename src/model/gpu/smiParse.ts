/**
 * Reading what `nvidia-smi` printed on a node into a node state: GPU rows, compute processes, the
 * `-L` list (with MIG devices), and the ways a node can have no usable GPU telemetry:
 *  - no nvidia-smi at all (a CPU instance): the shell's "command not found" and exit status 127, or
 *    NVIDIA's own "No devices were found": the node has no GPUs, which is not an error;
 *  - the driver failure ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
 *    driver. ..."): shown as the node's state, as the tool worded it;
 *  - anything else the tool refused (non-zero exit and no rows): an error with its first line.
 * Garbage lines among the rows are skipped and counted. Pure: no I/O, no vscode.
 */
import {
  APP_QUERY_FIELDS,
  GPU_QUERY_FIELDS,
  readNumber,
  readText,
  splitCsv,
  type GpuProcess,
  type GpuReading,
  type GpuSample,
} from './smiValues';

export type NodeGpuState =
  | { readonly kind: 'ok'; readonly sample: GpuSample; readonly processes?: readonly GpuProcess[] }
  /** A node without NVIDIA GPUs: no nvidia-smi (`not-installed`) or no device found (`no-devices`). */
  | { readonly kind: 'no-gpus'; readonly reason: 'not-installed' | 'no-devices' }
  /** The tool runs but cannot reach the driver; `message` is the tool's text (one line). */
  | { readonly kind: 'driver-failure'; readonly message: string }
  /** Any other refusal or unreadable output; `message` is its first meaningful line (bounded). */
  | { readonly kind: 'error'; readonly message: string; readonly exitCode?: number };

/** What a command printed and how it ended (`exitCode` undefined when unknown, e.g. a stream). */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr?: string;
  readonly exitCode?: number;
}

const DRIVER_FAILURE = /NVIDIA-SMI has failed because it couldn'?t communicate with the NVIDIA driver/i;
const NO_DEVICES = /^No devices were found/im;
// bash: "bash: nvidia-smi: command not found" / "bash: line 1: nvidia-smi: command not found";
// dash: "sh: 1: nvidia-smi: not found"; zsh: "zsh: command not found: nvidia-smi".
const NOT_FOUND = /nvidia-smi: (command )?not found|command not found: nvidia-smi|nvidia-smi: No such file/i;
const MAX_MESSAGE = 300;

/** Whether a line is the driver failure text (a stream can carry it between samples). */
export function isDriverFailure(line: string): boolean {
  return DRIVER_FAILURE.test(line);
}

/** The driver failure text as one line: the tool's own sentences, whitespace collapsed. */
function failureText(text: string): string {
  const start = text.search(DRIVER_FAILURE);
  return text
    .slice(start)
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_MESSAGE);
}

/** One `--query-gpu` row in the order of `fields`; undefined for a line that is not one. */
export function parseGpuLine(
  line: string,
  fields: readonly string[] = GPU_QUERY_FIELDS,
): GpuReading | undefined {
  const cells = splitCsv(line);
  if (cells.length !== fields.length) return undefined;
  const at = (f: string): string | undefined => {
    const i = fields.indexOf(f);
    return i < 0 ? undefined : cells[i];
  };
  const indexText = at('index');
  if (indexText === undefined || !/^\d+$/.test(indexText)) return undefined;
  const uuid = readText(at('uuid'));
  // A row whose uuid is there but not a GPU's (`GPU-…`) is not a GPU row (a header, a stray line).
  if (uuid !== undefined && !/^(GPU|MIG)-/i.test(uuid)) return undefined;
  const percent = (f: string) => {
    const n = readNumber(at(f));
    return n !== undefined && n >= 0 && n <= 100 ? n : undefined;
  };
  const nonNegative = (f: string) => {
    const n = readNumber(at(f));
    return n !== undefined && n >= 0 ? n : undefined;
  };
  return {
    index: Number(indexText),
    uuid,
    name: readText(at('name')),
    utilizationGpu: percent('utilization.gpu'),
    utilizationMemory: percent('utilization.memory'),
    memoryUsedMiB: nonNegative('memory.used'),
    memoryTotalMiB: nonNegative('memory.total'),
    temperatureC: readNumber(at('temperature.gpu')),
    powerDrawW: nonNegative('power.draw'),
    powerLimitW: nonNegative('power.limit'),
  };
}

/** `--query-gpu` output (csv, with or without header and units) into one sample; garbage skipped. */
export function parseGpuCsv(
  text: string,
  time: number,
  fields: readonly string[] = GPU_QUERY_FIELDS,
): GpuSample {
  const gpus: GpuReading[] = [];
  let skipped = 0;
  for (const line of lines(text)) {
    if (isHeader(line, fields)) continue;
    const gpu = parseGpuLine(line, fields);
    if (gpu) gpus.push(gpu);
    else skipped++;
  }
  return { time, gpus, skipped };
}

/** One `--query-compute-apps` row (gpu_uuid, pid, process_name, used_memory); a process name with
 *  commas in it is put back together. */
function parseAppLine(line: string): GpuProcess | undefined {
  const cells = splitCsv(line);
  if (cells.length < APP_QUERY_FIELDS.length) return undefined;
  const [gpuUuid, pidText] = cells;
  const memory = cells[cells.length - 1];
  const name = cells.slice(2, -1).join(', ');
  if (!/^(GPU|MIG)-/i.test(gpuUuid) || !/^\d+$/.test(pidText)) return undefined;
  return {
    gpuUuid,
    pid: Number(pidText),
    name: readText(name) ?? '',
    usedMemoryMiB: readNumber(memory),
  };
}

export function parseAppsCsv(text: string): { processes: GpuProcess[]; skipped: number } {
  const processes: GpuProcess[] = [];
  let skipped = 0;
  for (const line of lines(text)) {
    if (/^gpu_uuid\s*,/i.test(line)) continue;
    const p = parseAppLine(line);
    if (p) processes.push(p);
    else skipped++;
  }
  return { processes, skipped };
}

/** One device of `nvidia-smi -L`: a GPU, or a MIG device (`parent` = its GPU's index). */
export interface ListedDevice {
  readonly kind: 'gpu' | 'mig';
  readonly index: number;
  readonly name: string;
  readonly uuid: string;
  readonly parent?: number;
}

const GPU_LINE = /^GPU (\d+): (.+?) \(UUID: (GPU-[0-9a-f-]+)\)\s*$/i;
const MIG_LINE = /^\s+MIG (\S+)\s+Device\s+(\d+): \(UUID: (MIG-[0-9a-zA-Z/-]+)\)\s*$/;

/** `nvidia-smi -L`: GPUs and, indented under them, their MIG devices. Other lines are skipped. */
export function parseList(text: string): ListedDevice[] {
  const out: ListedDevice[] = [];
  let parent: number | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const gpu = GPU_LINE.exec(raw);
    if (gpu) {
      parent = Number(gpu[1]);
      out.push({ kind: 'gpu', index: parent, name: gpu[2], uuid: gpu[3] });
      continue;
    }
    const mig = MIG_LINE.exec(raw);
    if (mig && parent !== undefined)
      out.push({ kind: 'mig', index: Number(mig[2]), name: mig[1], uuid: mig[3], parent });
  }
  return out;
}

/**
 * The node's state from one `--query-gpu` command (and optionally its `--query-compute-apps`
 * companion). Rows win: a command that printed GPU rows is `ok` whatever else it printed.
 */
export function nodeGpuState(gpu: CommandOutput, time: number, apps?: CommandOutput): NodeGpuState {
  const all = `${gpu.stdout}\n${gpu.stderr ?? ''}`;
  if (DRIVER_FAILURE.test(all)) return { kind: 'driver-failure', message: failureText(all) };
  const sample = parseGpuCsv(gpu.stdout, time);
  if (sample.gpus.length) {
    const processes = apps && (apps.exitCode ?? 0) === 0 ? parseAppsCsv(apps.stdout).processes : undefined;
    return processes ? { kind: 'ok', sample, processes } : { kind: 'ok', sample };
  }
  if (gpu.exitCode === 127 || NOT_FOUND.test(gpu.stderr ?? ''))
    return { kind: 'no-gpus', reason: 'not-installed' };
  if (NO_DEVICES.test(all)) return { kind: 'no-gpus', reason: 'no-devices' };
  const first = lines(all)[0] ?? '';
  return { kind: 'error', message: first.slice(0, MAX_MESSAGE), exitCode: gpu.exitCode };
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** A CSV header line (`index, uuid, name, utilization.gpu [%], ...`). */
function isHeader(line: string, fields: readonly string[]): boolean {
  const first = splitCsv(line)[0]?.replace(/\s*\[.*\]$/, '');
  return first === fields[0];
}
