// The metric-extraction row that can resolve the 10%, in a fresh Node process (the runner starts it once
// per Node runtime, like ./node.ts):
//
//   node out/test/bench/followLog.js <dist/api.js> <dist/engine.js> <pairs>
//
// It starts the local engine as a process of its own (dist/engine.js, simulated jobs, 10 nice steps below this
// one, as the extension-host bench runs it), then follows `pairs` pairs of jobs that each print 100,000 lines at
// once (four in five `step=… loss=… lr=… acc=…`, engine/metricLines.ts) through the production API layer:
// client.jobs.follow with the log read in its worker thread (dist/listenWorker.js beside dist/api.js), one job
// with metric extraction on and one with it off, which of them first alternating. With extraction on, the
// worker parses every line and this thread adds each batch's records to the job's MetricStore (addColumns, what
// the extension host's JobMetrics does); with it off, neither. Both hand the line runs to the same small
// handler. What differs between the two is extraction and nothing else: no terminal, no browser, no editor
// sharing the cores, so one job's event-loop p99 varies by a few percent here rather than by several times in
// the extension host, and 10% is within what the row can resolve.
//
// Per job: this thread's event-loop delay (monitorEventLoopDelay at 1 ms resolution) from the follow's start to
// its end, the lines and metric records that arrived, the stream's time. Prints one JSON line on stdout.
// env TENSORPOOL_BENCH_INJECT containing `extraction-cost` (./inject.ts): 8 ms of busy work on this thread with
// each batch of records, the cost the row must show.
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DEFAULT_TOKEN } from '../../engine/state';
import { addColumns } from '../../src/model/metrics/batch';
import { MetricStore } from '../../src/model/metrics/store';
import { EngineControl } from '../shared/engineControl';
import { sleep } from '../shared/wait';
import { injections } from './inject';

type ApiModule = typeof import('../../src/api'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a type of a require()d bundle

export const FOLLOW_LINES = 100_000;
const ENGINE_NICE = 10;
/** Between jobs: the previous job's worker ends and its garbage is collected before the next is measured. */
const SETTLE_MS = 100;

export interface FollowedJob {
  extraction: boolean;
  outcome: string;
  /** The event-loop delay p99 / p50 / max (ms, the 1 ms resolution included) and its sample count. */
  p99: number;
  p50: number;
  max: number;
  samples: number;
  streamMs: number;
  /** Log lines that arrived (the job's own lines and the `$ command` line). */
  lines: number;
  /** Metric records that reached this thread (extraction on). */
  records: number;
  /** Points the job's loss series held at its end (extraction on; bounded by the series' capacity). */
  lossPoints: number;
}

export interface FollowLogSample {
  jobs: FollowedJob[];
  engineNice: number;
}

function startEngine(node: string, file: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(node, [file, '--port', '0', '--real-nodes', 'off', '--simulated-jobs'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) setPriority(child.pid, ENGINE_NICE);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the engine did not start: ${out}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`the engine exited ${code}: ${out}`)));
  });
}

function busyWait(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

async function main(apiFile: string, engineFile: string, pairs: number): Promise<FollowLogSample> {
  const injected = injections().has('extraction-cost');
  const api = require(apiFile) as ApiModule;
  const { url, child } = await startEngine(process.execPath, engineFile);
  try {
    const control = new EngineControl(url);
    const client = new api.TensorPoolClient({
      baseUrl: url,
      getToken: () => DEFAULT_TOKEN,
      userAgent: 'tensorpool-vscode/bench',
    });
    await control.config({
      jobs: { pendingMs: 10, lineMs: 0, cancelMs: 60, lines: FOLLOW_LINES, outputBytes: 1000, metrics: 'kv' },
    });
    await control.seed({ clusters: 1, prefix: 'bench' });
    const clusterId = (await client.listClusters()).clusters![0].id;
    const jobs: FollowedJob[] = [];
    for (let i = 0; i < pairs; i++)
      for (const extraction of i % 2 === 0 ? [true, false] : [false, true])
        jobs.push(await followOne(client, clusterId, extraction, injected));
    return { jobs, engineNice: ENGINE_NICE };
  } finally {
    child.kill();
  }
}

async function followOne(
  client: InstanceType<ApiModule['TensorPoolClient']>,
  clusterId: string,
  extraction: boolean,
  injected: boolean,
): Promise<FollowedJob> {
  const pushed = await client.jobs.push(
    { tpConfig: 'commands = ["python train.py"]\n', system: 'Linux', clusterId, teardown: false },
    { onMessage: () => undefined, runCommand: async () => ({ exitCode: 0, stdout: '', stderr: '' }) },
  );
  if (pushed.kind !== 'submitted' || !pushed.jobId)
    throw new Error(`the push was not submitted: ${JSON.stringify(pushed)}`);
  await sleep(SETTLE_MS);
  const store = new MetricStore();
  let lines = 0;
  let records = 0;
  // The runs are held a moment, as a terminal's buffer holds what it has not written yet.
  let held: string[] = [];
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const outcome = await client.jobs.follow(pushed.jobId, {
    worker: true,
    onMessage: (m) => {
      if (m.status === undefined) lines++;
    },
    onLines: (text, count) => {
      lines += count;
      held.push(text);
      if (held.length > 20) held = [];
    },
    onMetrics: extraction
      ? (r) => {
          addColumns(store, r);
          records += r.count;
          if (injected) busyWait(8);
        }
      : undefined,
  });
  const streamMs = performance.now() - started;
  delay.disable();
  return {
    extraction,
    outcome: outcome.kind,
    p99: delay.percentile(99) / 1e6,
    p50: delay.percentile(50) / 1e6,
    max: delay.max / 1e6,
    samples: delay.count,
    streamMs,
    lines,
    records,
    lossPoints: store.get('loss', 'step')?.size ?? 0,
  };
}

if (require.main === module) {
  const [apiFile, engineFile, pairs] = process.argv.slice(2);
  main(apiFile, engineFile, Number(pairs ?? 10)).then(
    (sample) => process.stdout.write(`${JSON.stringify(sample)}\n`),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
