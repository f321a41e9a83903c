// What the stand-in nvidia-smi reports at one moment: each GPU's figures and the processes on them.
//
// Inputs (the contract with whoever builds the node's folder; keep it):
//   TP_INSTANCE_TYPE   e.g. 8xH100 (engine/gpuSpecs.ts)
//   TP_NODE_DIR        the node's folder; read at every sample:
//     gpu/load.json        optional deterministic load for tests:
//                          { "utilization"?: number[] (per GPU, %), "memoryUsedMiB"?: number[],
//                            "fault"?: "driver" | "na" }
//                          A GPU missing from an array follows the processes as below.
//     gpu/procs/<pid>.json one file per job process (the job runner writes it): { "name": "python3",
//                          "gpus"?: number[], "memoryMiB"?: number }. Files whose pid is not alive are
//                          ignored. Without "gpus", process k (by pid) sits on GPU k mod count.
// A GPU with a process on it is busy (97-100 %, ~25 % memory utilisation, near its power limit);
// without one it idles near 0 % (0-2 %, below any sensible idle threshold), with small jitter that is
// a deterministic function of the node, the GPU and the time (quarter-second steps).

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { busId, type GpuSpec } from './gpuSpecs';

export interface GpuNow {
  index: number;
  uuid: string;
  name: string;
  busId: string;
  /** undefined = the tool prints [N/A] (fault "na"). */
  utilGpu: number | undefined;
  utilMemory: number | undefined;
  memoryUsedMiB: number;
  memoryTotalMiB: number;
  temperatureC: number;
  powerDrawW: number | undefined;
  powerLimitW: number;
}

export interface ProcNow {
  gpu: number;
  gpuUuid: string;
  pid: number;
  name: string;
  usedMemoryMiB: number;
}

export interface NodeNow {
  fault: 'driver' | 'na' | undefined;
  gpus: GpuNow[];
  procs: ProcNow[];
}

interface LoadFile {
  utilization?: unknown;
  memoryUsedMiB?: unknown;
  fault?: unknown;
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A deterministic number in [0, 1) for a key. */
function noise(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

function gpuUuid(node: string, index: number): string {
  const h = createHash('sha256').update(`${node}#${index}`).digest('hex');
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const numberAt = (list: unknown, i: number): number | undefined => {
  const v = Array.isArray(list) ? (list[i] as unknown) : undefined;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
};

function readProcs(
  nodeDir: string | undefined,
  count: number,
): { pid: number; name: string; gpus: number[]; memoryMiB?: number }[] {
  if (!nodeDir) return [];
  const dir = join(nodeDir, 'gpu', 'procs');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const pids = names
    .map((n) => /^(\d+)\.json$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter((pid) => pid > 0 && alive(pid))
    .sort((a, b) => a - b);
  return pids.map((pid, k) => {
    const f = readJson(join(dir, `${pid}.json`)) ?? {};
    const gpus = Array.isArray(f.gpus)
      ? f.gpus.filter((g): g is number => Number.isInteger(g) && g >= 0 && g < count)
      : [k % count];
    const name = typeof f.name === 'string' && f.name.trim() ? f.name.trim() : 'python3';
    const memoryMiB = typeof f.memoryMiB === 'number' && f.memoryMiB >= 0 ? f.memoryMiB : undefined;
    return { pid, name, gpus, memoryMiB };
  });
}

/** The node's GPUs and processes at `now`. */
export function nodeNow(spec: GpuSpec, count: number, nodeDir: string | undefined, now: number): NodeNow {
  const nodeKey = nodeDir ?? 'node';
  const load: LoadFile = nodeDir ? (readJson(join(nodeDir, 'gpu', 'load.json')) ?? {}) : {};
  const fault = load.fault === 'driver' || load.fault === 'na' ? load.fault : undefined;
  const step = Math.floor(now / 250);
  const found = readProcs(nodeDir, count);
  const procs: ProcNow[] = [];
  const gpus: GpuNow[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = gpuUuid(nodeKey, i);
    const r = (what: string) => noise(`${nodeKey}|${i}|${what}|${step}`);
    const mine = found.filter((p) => p.gpus.includes(i));
    // Process memory: as asked, else about 14 % of the card (the fixture's job: 20076 of 143771 MiB).
    const procMemory = mine.map(
      (p) => p.memoryMiB ?? Math.round(spec.memoryTotalMiB * 0.14 + r(`m${p.pid}`) * 64),
    );
    for (const [k, p] of mine.entries())
      procs.push({ gpu: i, gpuUuid: uuid, pid: p.pid, name: p.name, usedMemoryMiB: procMemory[k] });
    const busyUtil = mine.length ? 97 + Math.floor(r('u') * 4) : Math.floor(r('u') * 3);
    const util = numberAt(load.utilization, i) ?? busyUtil;
    const fromProcs = procMemory.reduce((a, b) => a + b, 0) + (mine.length ? 9 : 0);
    const memoryUsedMiB = Math.min(
      spec.memoryTotalMiB,
      Math.round(numberAt(load.memoryUsedMiB, i) ?? fromProcs),
    );
    const busy = Math.min(100, util) / 100;
    gpus.push({
      index: i,
      uuid,
      name: spec.name,
      busId: busId(i),
      utilGpu: fault === 'na' ? undefined : Math.min(100, Math.round(util)),
      utilMemory: fault === 'na' ? undefined : Math.round(busy * (20 + r('mu') * 6)),
      memoryUsedMiB,
      memoryTotalMiB: spec.memoryTotalMiB,
      temperatureC: Math.round(34 + busy * 21 + r('t') * 2),
      powerDrawW:
        fault === 'na'
          ? undefined
          : Math.round(
              (spec.idlePowerW + busy * (spec.powerLimitW * 0.985 - spec.idlePowerW) + r('p') * 3) * 100,
            ) / 100,
      powerLimitW: spec.powerLimitW,
    });
  }
  return { fault, gpus, procs };
}
