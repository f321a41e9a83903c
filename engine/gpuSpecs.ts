// The GPUs of an instance type, as the engine's stand-in nvidia-smi reports them (engine/nvidiaSmi.ts).
//
// Names and memory totals are what the real nvidia-smi prints for each model (memory.total is a little
// under the marketing size: the driver reserves some); power limits are NVIDIA's published maximum
// board power / TDP. Sources:
//   H100: NVIDIA H100 Tensor Core GPU datasheet (SXM5: 80 GB HBM3, up to 700 W); name and 81559 MiB as
//         nvidia-smi prints them on H100 SXM5 nodes (widely published outputs).
//   H200: test/fixtures/nvidia-smi/ (a real H200 captured for this project: `NVIDIA H200`, 143771 MiB,
//         700.00 W power.limit); datasheet: 141 GB HBM3e, up to 700 W.
//   B200: NVIDIA DGX B200 / HGX B200 specifications (180 GB HBM3e per GPU, 1000 W per GPU); name and
//         183359 MiB as nvidia-smi prints them on B200 nodes (published nvidia-smi tables).
//   B300: NVIDIA HGX B300 specifications (288 GB HBM3e; 1100 W per GPU); name `NVIDIA B300 SXM6 AC`
//         and 275040 MiB as published nvidia-smi outputs show. Assumption: a driver may print another
//         suffix for other board variants.
//   L40S: NVIDIA L40S datasheet (48 GB GDDR6 with ECC, 350 W maximum power); 46068 MiB as nvidia-smi
//         prints it with ECC on (published outputs).
// Idle power and temperatures are assumptions in the range real idle nodes show (the H200 fixture:
// 81 W, 36 C idle; 692 W, 55 C busy).

export interface GpuSpec {
  /** As nvidia-smi prints `name`. */
  name: string;
  memoryTotalMiB: number;
  powerLimitW: number;
  idlePowerW: number;
}

const GPU_SPECS: Readonly<Record<string, GpuSpec>> = {
  H100: { name: 'NVIDIA H100 80GB HBM3', memoryTotalMiB: 81559, powerLimitW: 700, idlePowerW: 72 },
  H200: { name: 'NVIDIA H200', memoryTotalMiB: 143771, powerLimitW: 700, idlePowerW: 81 },
  B200: { name: 'NVIDIA B200', memoryTotalMiB: 183359, powerLimitW: 1000, idlePowerW: 140 },
  B300: { name: 'NVIDIA B300 SXM6 AC', memoryTotalMiB: 275040, powerLimitW: 1100, idlePowerW: 160 },
  L40S: { name: 'NVIDIA L40S', memoryTotalMiB: 46068, powerLimitW: 350, idlePowerW: 34 },
};

/** The driver the stand-in claims to be (the fixture's). */
export const DRIVER_VERSION = '580.159.04';
export const CUDA_VERSION = '13.0';

export type NodeGpus = { kind: 'gpu'; count: number; spec: GpuSpec } | { kind: 'cpu' } | { kind: 'unknown' };

/** `8xH100` → 8 × H100; `32xCPU` → a CPU instance; anything else (unset, unknown model) → unknown. */
export function gpusOf(instanceType: string | undefined): NodeGpus {
  const m = /^([1-9][0-9]*)x([A-Za-z0-9]+)$/.exec(instanceType?.trim() ?? '');
  if (!m) return { kind: 'unknown' };
  if (m[2].toUpperCase() === 'CPU') return { kind: 'cpu' };
  const spec = GPU_SPECS[m[2].toUpperCase()];
  const count = Number(m[1]);
  return spec && count <= 16 ? { kind: 'gpu', count, spec } : { kind: 'unknown' };
}

/** PCI bus ids of an 8-GPU HGX board (the order real H100 nodes list them); more GPUs continue. */
const BUSES = ['18', '2A', '3A', '5D', '9A', 'AB', 'BA', 'DB'];
export function busId(index: number): string {
  const bus = BUSES[index] ?? (0xe0 + index).toString(16).toUpperCase();
  return `00000000:${bus}:00.0`;
}
