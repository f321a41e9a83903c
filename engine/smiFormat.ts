// The stand-in nvidia-smi's CSV and list output, byte for byte in the real tool's format
// (test/fixtures/nvidia-smi/: `index, uuid, ...` headers with ` [%]`, ` [MiB]`, ` [W]`; values `0 %`,
// `20085 MiB`, `691.99 W`; `nounits` drops the units; a missing value is `[N/A]` either way).

import { CUDA_VERSION, DRIVER_VERSION } from './gpuSpecs';
import type { GpuNow, ProcNow } from './smiLoad';

type Unit = '%' | 'MiB' | 'W' | null;

interface Field<T> {
  unit: Unit;
  /** The header when it is not the field's own name (compute apps: used_memory → used_gpu_memory). */
  header?: string;
  value: (x: T) => string | number | undefined;
  /** Two decimals (watts). */
  decimals?: boolean;
}

export const GPU_FIELDS: Record<string, Field<GpuNow>> = {
  index: { unit: null, value: (g) => g.index },
  uuid: { unit: null, value: (g) => g.uuid },
  name: { unit: null, value: (g) => g.name },
  'pci.bus_id': { unit: null, value: (g) => g.busId },
  driver_version: { unit: null, value: () => DRIVER_VERSION },
  'mig.mode.current': { unit: null, value: () => 'Disabled' },
  'utilization.gpu': { unit: '%', value: (g) => g.utilGpu },
  'utilization.memory': { unit: '%', value: (g) => g.utilMemory },
  'memory.used': { unit: 'MiB', value: (g) => g.memoryUsedMiB },
  'memory.total': { unit: 'MiB', value: (g) => g.memoryTotalMiB },
  'memory.free': { unit: 'MiB', value: (g) => g.memoryTotalMiB - g.memoryUsedMiB },
  'temperature.gpu': { unit: null, value: (g) => g.temperatureC },
  'power.draw': { unit: 'W', value: (g) => g.powerDrawW, decimals: true },
  'power.limit': { unit: 'W', value: (g) => g.powerLimitW, decimals: true },
};

export const APP_FIELDS: Record<string, Field<ProcNow & { gpuName: string; gpuBusId: string }>> = {
  gpu_uuid: { unit: null, value: (p) => p.gpuUuid },
  gpu_name: { unit: null, value: (p) => p.gpuName },
  gpu_bus_id: { unit: null, value: (p) => p.gpuBusId },
  pid: { unit: null, value: (p) => p.pid },
  process_name: { unit: null, value: (p) => p.name },
  used_memory: { unit: 'MiB', header: 'used_gpu_memory', value: (p) => p.usedMemoryMiB },
  used_gpu_memory: { unit: 'MiB', value: (p) => p.usedMemoryMiB },
};

export interface CsvFormat {
  header: boolean;
  units: boolean;
}

/** `--format=csv[,noheader][,nounits]`; null when a modifier is not one of those. */
export function parseFormat(text: string): CsvFormat | null {
  const parts = text.split(',').map((p) => p.trim());
  if (parts[0] !== 'csv') return null;
  const format = { header: true, units: true };
  for (const p of parts.slice(1)) {
    if (p === 'noheader') format.header = false;
    else if (p === 'nounits') format.units = false;
    else return null;
  }
  return format;
}

/** The first field that is not in `known`, or undefined when all are. */
export function unknownField(fields: string[], known: Record<string, unknown>): string | undefined {
  return fields.find((f) => !Object.hasOwn(known, f));
}

export function fieldError(field: string): string {
  return `Field "${field}" is not a valid field to query.\n\n`;
}

export function headerLine<T>(
  fields: string[],
  catalogue: Record<string, Field<T>>,
  format: CsvFormat,
): string {
  return fields
    .map((f) => {
      const def = catalogue[f];
      const name = def.header ?? f;
      return format.units && def.unit ? `${name} [${def.unit}]` : name;
    })
    .join(', ');
}

export function csvLine<T>(
  x: T,
  fields: string[],
  catalogue: Record<string, Field<T>>,
  format: CsvFormat,
): string {
  return fields
    .map((f) => {
      const def = catalogue[f];
      const v = def.value(x);
      if (v === undefined) return '[N/A]';
      const text = typeof v === 'number' && def.decimals ? v.toFixed(2) : String(v);
      return format.units && def.unit ? `${text} ${def.unit}` : text;
    })
    .join(', ');
}

/** `nvidia-smi -L`. */
export function listLines(gpus: GpuNow[]): string {
  return gpus.map((g) => `GPU ${g.index}: ${g.name} (UUID: ${g.uuid})\n`).join('');
}

/** `nvidia-smi --version` (the fixture's text). */
export function versionText(): string {
  return (
    `NVIDIA-SMI version  : ${DRIVER_VERSION}\n` +
    `NVML version        : ${DRIVER_VERSION.split('.').slice(0, 2).join('.')}\n` +
    `DRIVER version      : ${DRIVER_VERSION}\n` +
    `CUDA Version        : ${CUDA_VERSION}\n`
  );
}

/** The real tool's text when it cannot reach the driver (exit status 9). */
export const DRIVER_FAILURE_TEXT =
  "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. " +
  'Make sure that the latest NVIDIA driver is installed and running.\n\n';
