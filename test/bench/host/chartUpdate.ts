// The host's side of a chart update, in the extension host: 10 series of 100,000 points each, fed as a
// job log feeds them (MetricStore: bounded series that downsample keeping peaks) in 100 rounds of 1,000
// points per series, and after each round the update the chart page would get (SeriesSync: appends, or
// a series again in full when it was downsampled) serialised as postMessage serialises it (JSON). Reports
// the time of a round (feeding and the update), the largest message, and the points the page holds at the
// end (bounded by the series' cap whatever the job's length). The page's drawing (uPlot) is not in it.
import { performance } from 'node:perf_hooks';
import { SeriesSync } from '../../../src/model/charts/seriesSync';
import { MetricStore } from '../../../src/model/metrics';

const CHART_SERIES = 10;
const CHART_POINTS = 100_000;
const ROUNDS = 100;

export interface ChartUpdateSample {
  series: number;
  points: number;
  /** Per round: adding 1,000 points to each series, computing the update and serialising it. */
  roundMs: number[];
  largestMessageKB: number;
  /** Points per series the page holds at the end. */
  heldPerSeries: number;
}

export function chartUpdateBench(): ChartUpdateSample {
  const store = new MetricStore();
  const sync = new SeriesSync();
  sync.snapshot(store.series());
  const per = CHART_POINTS / ROUNDS;
  const roundMs: number[] = [];
  let largest = 0;
  let step = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++, step++) {
      const metrics = new Map<string, number>();
      for (let s = 0; s < CHART_SERIES; s++) metrics.set(`m${s}`, Math.sin(step / (50 + s)) + s);
      store.add({ x: step, xKey: 'step', metrics }, 0);
    }
    const update = sync.update(store.series());
    const text = JSON.stringify({
      type: 'update',
      append: update?.append ?? [],
      replace: update?.replace ?? [],
    });
    roundMs.push(performance.now() - t0);
    largest = Math.max(largest, text.length);
  }
  const held = sync.held();
  return {
    series: held.length,
    points: CHART_POINTS,
    roundMs,
    largestMessageKB: largest / 1024,
    heldPerSeries: Math.max(...held.map((h) => h.xs.length)),
  };
}
