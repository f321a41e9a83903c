// GPU telemetry in the bench (called by ./index.ts), on a real 8xH100 node of the engine (its sshd, its
// stand-in nvidia-smi) created with the user's key, reached with the argv the extension builds for it:
//   - a sample over the open session against a fresh ssh, interleaved, PAIRS of each. The open session is a
//     GpuSampler made as the extension makes it (gpuSetup.ts makeGpuSampler: spawnSsh, the streaming
//     loopCommand, SmiLoopReader); a sample's time runs from its block's begin marker arriving (the node's
//     loop starting a sample) to the parsed state. The fresh one is `ssh … '<the same block, once>'`: spawn,
//     exit, the same parse. Same node, same remote work, same reader: the difference is the ssh process and
//     its handshake. After each fresh run the next block of the session that began after it is taken, so the
//     two never overlap. Injection `gpu-fresh-session` (../inject.ts): the "shared" side opens a new session
//     per sample (unwatch, watch, first sample), timed from the watch.
//   - the extension host's CPU (process.cpuUsage(), every thread of the host) over WINDOW_MS with the cluster
//     expanded in the visible Clusters view (the extension's own view watch, 2 s), against the same window
//     with it collapsed, ROUNDS of each, interleaved; the session's handshake is outside the windows.
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import type { Cluster } from '../../../src/model/cluster';
import { loopCommand, SmiLoopReader } from '../../../src/model/gpu/smiLoop';
import { GpuSampler, type NodeTarget } from '../../../src/vscode/gpu/gpuSampler';
import { spawnSsh } from '../../../src/vscode/gpu/onUse/nodeTargets';
import type { ClusterNode } from '../../../src/vscode/clusters/clustersTree';
import { realCluster, removeCluster } from '../../integration/realCluster';
import { sleep, until } from '../../shared/wait';

const GPUS = 8;
const PAIRS = 7;
/** The session's loop interval while pairs are taken: short, so a pair waits little for the next block. */
const PAIR_INTERVAL_MS = 1000;
const ROUNDS = 1;
const WINDOW_MS = 4000;
const MARK = '@@tp-gpu-begin';

export interface GpuTelemetrySample {
  gpus: number;
  /** From the block's begin marker (or, injected, the watch) to the parsed state. */
  sharedMs: number[];
  /** From spawning ssh to its exit and the parse. */
  freshMs: number[];
  /** ssh sessions the shared side started for its PAIRS samples (after the first, warm-up, one). */
  sharedConnections: number;
  cpu: { windowMs: number; idleMs: number[]; watchedMs: number[]; samples: number[] };
  /** The whole step, cluster creation included (the bench's time budget). */
  elapsedMs: number;
}

const home = () => process.env.HOME ?? '/tmp';

function goodState(text: string): boolean {
  const states = new SmiLoopReader(Date.now).push(text);
  const s = states[states.length - 1];
  return s?.kind === 'ok' && s.sample.gpus.length === GPUS;
}

/** `ssh node '<one block>'`: spawn → exit → parse, in ms. */
function fresh(target: NodeTarget): Promise<number> {
  const t0 = performance.now();
  const child = spawnSsh([...target.argv, loopCommand(0, true)], home());
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && goodState(out)) resolve(performance.now() - t0);
      else reject(new Error(`a fresh ssh nvidia-smi exited ${code}: ${err.slice(-300)}${out.slice(-300)}`));
    });
  });
}

async function pairs(
  target: NodeTarget,
  injected: boolean,
): Promise<{ sharedMs: number[]; freshMs: number[]; connections: number }> {
  let began: number | undefined;
  const blocks: { began: number; parsed: number }[] = [];
  const sampler = new GpuSampler({
    spawn: (argv) => {
      const child = spawnSsh(argv, home());
      child.stdout!.on('data', (d: Buffer | string) => {
        if (String(d).includes(MARK)) began = performance.now();
      });
      return child;
    },
    command: (ms) => loopCommand(ms / 1000),
    reader: (now) => new SmiLoopReader(now),
  });
  const id = target.instanceId;
  const sub = sampler.onDidChange(() => {
    const s = sampler.get(id)?.state;
    if (began === undefined || s?.kind !== 'ok' || s.sample.gpus.length !== GPUS) return;
    blocks.push({ began, parsed: performance.now() });
    began = undefined;
  });
  const blockAfter = async (t: number) => {
    await until('a sample over the session', () => blocks.some((b) => b.began >= t), 20_000, 10);
    const b = blocks.find((x) => x.began >= t)!;
    return b;
  };
  try {
    sampler.watch('bench', [target], PAIR_INTERVAL_MS);
    await blockAfter(0); // the handshake and the first sample: not timed
    const connections = sampler.counts.connections;
    const sharedMs: number[] = [];
    const freshMs: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const after = performance.now();
      if (injected) {
        // The injected cost: a new session (ssh connection) for this sample.
        sampler.unwatch('bench');
        sampler.watch('bench', [target], PAIR_INTERVAL_MS);
        await until('a sample over a new session', () => blocks.some((b) => b.parsed > after), 20_000, 10);
        sharedMs.push(blocks.find((b) => b.parsed > after)!.parsed - after);
      } else {
        const b = await blockAfter(after);
        sharedMs.push(b.parsed - b.began);
      }
      freshMs.push(await fresh(target));
    }
    return { sharedMs, freshMs, connections: sampler.counts.connections - connections + 1 };
  } finally {
    sub.dispose();
    sampler.dispose();
  }
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

async function cpuWindow(): Promise<number> {
  const before = process.cpuUsage();
  await sleep(WINDOW_MS);
  return cpuMs(process.cpuUsage(before));
}

async function cpu(api: TensorPoolExtensionApi, clusterId: string): Promise<GpuTelemetrySample['cpu']> {
  const sampler = api.testing.gpu.sampler;
  const view = api.testing.gpu.clustersView;
  const row = async () => {
    const rows = (await api.views.clusters.getChildren(undefined)) as ClusterNode[];
    const r = rows.find((x) => x.kind === 'cluster' && x.cluster.id === clusterId);
    if (!r) throw new Error(`the cluster ${clusterId} has no row`);
    return r;
  };
  await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
  await vscode.commands.executeCommand('tensorpool.clusters.focus');
  await until('the Clusters view to show', () => view.visible, 5000, 20);
  await sleep(1000); // the refresh the view starts when shown
  const idleMs: number[] = [];
  const watchedMs: number[] = [];
  const samples: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      if (sampler.running !== 0) throw new Error('a GPU session runs while the cluster is collapsed');
      idleMs.push(await cpuWindow());
      const first = sampler.counts.samples;
      await view.reveal(await row(), { expand: true, focus: false, select: false });
      await until('the first sample of the expanded cluster', () => sampler.counts.samples > first, 20_000);
      const n = sampler.counts.samples;
      watchedMs.push(await cpuWindow());
      samples.push(sampler.counts.samples - n);
      await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
      await until('the session to end when collapsed', () => sampler.running === 0, 10_000);
    }
  } finally {
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await vscode.commands.executeCommand('workbench.view.explorer');
  }
  return { windowMs: WINDOW_MS, idleMs, watchedMs, samples };
}

export async function gpuTelemetryBench(
  api: TensorPoolExtensionApi,
  injected: boolean,
): Promise<GpuTelemetrySample> {
  const started = performance.now();
  const c = await realCluster(`bench-gpu-${Date.now()}`, undefined, `${GPUS}xH100`);
  await api.refresh();
  const cluster = api.testing.clusters.data?.clusters?.find((x: Cluster) => x.id === c.id);
  if (!cluster) throw new Error(`the cluster ${c.id} is not in the extension's list`);
  try {
    const [target] = api.testing.gpu.targets(cluster);
    if (!target) throw new Error(`the cluster ${c.id} has no telemetry target`);
    const p = await pairs(target, injected);
    return {
      gpus: GPUS,
      sharedMs: p.sharedMs,
      freshMs: p.freshMs,
      sharedConnections: p.connections,
      cpu: await cpu(api, c.id),
      elapsedMs: performance.now() - started,
    };
  } finally {
    // Gone before the later steps: a running cluster keeps the idle guard's timer and its sampling, which the
    // idle and soak steps would count (a timer present at the soak's start and gone by its end hid the
    // injected leak).
    await removeCluster(c);
    await api.refresh();
  }
}
