// The host's side of a GPU monitor update, in the extension host, as ./chartUpdate.ts does for the job
// metrics chart: 16 series (4 GPUs × utilisation, memory, power, temperature) already holding 15 minutes of
// samples at the views' 2 s rate (450 points each) in the monitor's own series (src/model/gpu/monitorSeries.ts),
// then UPDATES updates as the monitor makes them on each sample: one point per series (the oldest leaves the
// window), the page's update computed and serialised as postMessage serialises it (JSON). Also the snapshot
// the page gets when it is shown again (every series in full). uPlot's drawing in the page is not in it.
import { performance } from 'node:perf_hooks';
import { MonitorSeries } from '../../../src/model/gpu/monitorSeries';

const GPUS = 4;
const FIGURES = ['util', 'mem', 'power', 'temp'];
const WINDOW_MS = 15 * 60_000;
const INTERVAL_MS = 2000;
const UPDATES = 100;
const SNAPSHOTS = 10;

export interface GpuMonitorUpdateSample {
  series: number;
  pointsPerSeries: number;
  /** Per update: one sample into every series, the update computed and serialised. */
  updateMs: number[];
  largestUpdateKB: number;
  /** Per snapshot: every series in full, serialised. */
  snapshotMs: number[];
  snapshotKB: number;
}

function sample(m: MonitorSeries, time: number, step: number): void {
  for (let g = 0; g < GPUS; g++)
    for (const [f, figure] of FIGURES.entries()) {
      const y = 50 + 40 * Math.sin(step / (20 + g) + f);
      m.add(`node/${g}/${figure}`, () => `node 1 · GPU ${g} · ${figure}`, time, y, false);
    }
}

export function gpuMonitorUpdateBench(): GpuMonitorUpdateSample {
  const m = new MonitorSeries(WINDOW_MS, 'time');
  const start = Date.now() - WINDOW_MS;
  const full = WINDOW_MS / INTERVAL_MS;
  let step = 0;
  for (; step < full; step++) sample(m, start + step * INTERVAL_MS, step);
  let text = JSON.stringify({ type: 'snapshot', series: m.snapshot() });
  const updateMs: number[] = [];
  let largest = 0;
  for (let i = 0; i < UPDATES; i++, step++) {
    const t0 = performance.now();
    sample(m, start + step * INTERVAL_MS, step);
    const { append, replace } = m.update();
    text = JSON.stringify({ type: 'update', append, replace, status: 'No GPU processes' });
    updateMs.push(performance.now() - t0);
    largest = Math.max(largest, text.length);
  }
  const snapshotMs: number[] = [];
  for (let i = 0; i < SNAPSHOTS; i++) {
    const t0 = performance.now();
    text = JSON.stringify({ type: 'snapshot', series: m.snapshot() });
    snapshotMs.push(performance.now() - t0);
  }
  const stats = m.stats();
  return {
    series: stats.length,
    pointsPerSeries: Math.max(...stats.map((s) => s.points)),
    updateMs,
    largestUpdateKB: largest / 1024,
    snapshotMs,
    snapshotKB: text.length / 1024,
  };
}
