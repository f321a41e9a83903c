/**
 * The engine's stand-in nvidia-smi (engine/nvidiaSmi.ts; dist/nvidia-smi.js is its bundle) run as a
 * program with a node's environment, its output compared with the real tool's captures
 * (test/fixtures/nvidia-smi/) and read back by the extension's parser (src/model/gpu).
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  aggregate,
  aggregateLabel,
  allIdle,
  nodeGpuState,
  parseList,
  SmiStreamSplitter,
  type StreamEvent,
} from '../../src/model/gpu';
import { APPS_QUERY, GPU_QUERY, fixture, section } from './gpu-fixtures';

// Transpiled beside this test (out/engine/); the bundle runs the same code.
const SMI = path.resolve(__dirname, '../../engine/nvidiaSmi.js');
const EXTRA = ',mig.mode.current,pci.bus_id,driver_version';

describe('GPU telemetry: the engine stand-in nvidia-smi', function () {
  this.timeout(20_000);
  let nodeDir: string;

  beforeEach(() => {
    nodeDir = mkdtempSync(path.join(tmpdir(), 'tp-node-'));
    mkdirSync(path.join(nodeDir, 'gpu', 'procs'), { recursive: true });
  });
  afterEach(() => rmSync(nodeDir, { recursive: true, force: true }));

  /** Run the stand-in like `nvidia-smi <args>` on a node of `type`. */
  const smi = (type: string | undefined, ...args: string[]) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, TP_NODE_DIR: nodeDir };
    if (type) env.TP_INSTANCE_TYPE = type;
    const r = spawnSync(process.execPath, [SMI, ...args], { env, encoding: 'utf8', timeout: 10_000 });
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.status ?? -1 };
  };
  const argsOf = (command: string) => command.replace(/^nvidia-smi /, '').split(' ');
  /** Digits, uuids and bus ids as shapes: what must agree between two nodes of the same model. */
  const shape = (line: string) => line.replace(/GPU-[0-9a-f-]{36}/g, 'UUID').replace(/\d+/g, '#');
  const load = (value: unknown) =>
    writeFileSync(path.join(nodeDir, 'gpu', 'load.json'), JSON.stringify(value));
  const proc = (pid: number, body: unknown) =>
    writeFileSync(path.join(nodeDir, 'gpu', 'procs', `${pid}.json`), JSON.stringify(body));

  it('--query-gpu with csv: the header is identical and each value has the shape and unit of the real one', () => {
    const cases: [string, string][] = [
      ['idle-queries.txt', '--format=csv'],
      ['idle-queries.txt', '--format=csv,noheader'],
      ['idle-queries.txt', '--format=csv,noheader,nounits'],
      ['busy-queries.txt', '--format=csv'],
      ['busy-queries.txt', '--format=csv,noheader,nounits'],
    ];
    for (const [file, format] of cases) {
      const command = `${GPU_QUERY} ${format}`;
      const expected = section(file, command).output.split('\n');
      const got = smi('1xH200', ...argsOf(command));
      assert.equal(got.exitCode, 0);
      const lines = got.stdout.replace(/\n$/, '').split('\n');
      assert.equal(lines.length, expected.length, command);
      if (format === '--format=csv') assert.equal(lines[0], expected[0], 'header');
      assert.deepEqual(lines.map(shape), expected.map(shape), command);
    }
    const extra = `${GPU_QUERY}${EXTRA} --format=csv`;
    const got = smi('1xH200', ...argsOf(extra)).stdout.split('\n');
    const real = section('idle-queries.txt', extra).output.split('\n');
    assert.equal(got[0], real[0]);
    assert.equal(shape(got[1]), shape(real[1]));
  });

  it('--query-compute-apps: the header, no rows when idle, the process row when a job runs', () => {
    const idle = smi('1xH200', ...argsOf(`${APPS_QUERY} --format=csv`));
    assert.equal(idle.stdout, `${section('idle-queries.txt', `${APPS_QUERY} --format=csv`).output}\n`);
    assert.equal(smi('1xH200', ...argsOf(`${APPS_QUERY} --format=csv,noheader,nounits`)).stdout, '');
    proc(process.pid, { name: 'python3', memoryMiB: 20076 });
    for (const format of ['--format=csv', '--format=csv,noheader,nounits']) {
      const got = smi('1xH200', ...argsOf(`${APPS_QUERY} ${format}`))
        .stdout.replace(/\n$/, '')
        .split('\n');
      const real = section('busy-queries.txt', `${APPS_QUERY} ${format}`).output.split('\n');
      assert.deepEqual(got.map(shape), real.map(shape));
      assert.match(got[got.length - 1], new RegExp(`, ${process.pid}, python3, 20076`));
    }
  });

  it('the plain table has the real layout (idle and with a process)', () => {
    const compare = (got: string, real: string) => {
      const g = got.replace(/\n$/, '').split('\n');
      const r = real.replace(/\n$/, '').split('\n');
      assert.deepEqual(
        g.map((l) => l.length),
        r.map((l) => l.length),
        'every line as wide as the real one',
      );
      const mask = (lines: string[]) => lines.slice(1).map((l) => shape(l).replace(/ +/g, ' '));
      assert.deepEqual(mask(g), mask(r));
      assert.match(g[0], /^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} {7}$/);
    };
    compare(smi('1xH200').stdout, fixture('idle-table.txt'));
    proc(process.pid, { name: 'python3', memoryMiB: 20076 });
    compare(smi('1xH200').stdout, fixture('busy-table.txt'));
  });

  it('-L and --version as the real tool prints them; -L lists every GPU of the type', () => {
    const real = section('idle-queries.txt', 'nvidia-smi -L').output;
    assert.equal(shape(smi('1xH200', '-L').stdout.trim()), shape(real));
    const eight = parseList(smi('8xB200', '-L').stdout);
    assert.equal(eight.length, 8);
    assert.ok(eight.every((d) => d.name === 'NVIDIA B200'));
    assert.equal(new Set(eight.map((d) => d.uuid)).size, 8, 'distinct UUIDs');
    assert.equal(
      smi('1xH200', '--version').stdout.trim(),
      section('idle-queries.txt', 'nvidia-smi --version').output,
    );
  });

  it('refuses an unknown field and a non-csv format with the real texts and exit 2', () => {
    const bogus = section('idle-queries.txt', 'nvidia-smi --query-gpu=bogus.field --format=csv');
    const got = smi('1xH200', '--query-gpu=bogus.field', '--format=csv');
    assert.equal(got.stdout, `${bogus.output}\n`);
    assert.equal(got.exitCode, bogus.exit);
    const json = sections('--format=json');
    const gotJson = smi('1xH200', ...argsOf(json.command));
    assert.equal(gotJson.stdout, `${json.output}\n`);
    assert.equal(gotJson.exitCode, 2);
    assert.equal(smi('1xH200', '--no-such-option').exitCode, 2);
  });

  it('the parser reads it: each type its GPUs, idle near 0 %, a job on the node moves the figures', () => {
    const query = argsOf(`${GPU_QUERY} --format=csv,noheader,nounits`);
    const specs: [string, number, string, number][] = [
      ['8xH100', 8, 'NVIDIA H100 80GB HBM3', 81559],
      ['1xH200', 1, 'NVIDIA H200', 143771],
      ['4xB200', 4, 'NVIDIA B200', 183359],
      ['2xL40S', 2, 'NVIDIA L40S', 46068],
      ['1xB300', 1, 'NVIDIA B300 SXM6 AC', 275040],
    ];
    for (const [type, count, name, total] of specs) {
      const state = nodeGpuState(smi(type, ...query), Date.now());
      assert.equal(state.kind, 'ok', type);
      if (state.kind !== 'ok') continue;
      assert.equal(state.sample.gpus.length, count);
      assert.equal(state.sample.skipped, 0);
      assert.ok(state.sample.gpus.every((g) => g.name === name && g.memoryTotalMiB === total));
      assert.ok(allIdle(state.sample.gpus), `${type} idles under 5 %`);
    }
    proc(process.pid, { name: 'train.py' });
    proc(2 ** 22 + 12345, { name: 'gone' }); // no such process: ignored
    const busy = nodeGpuState(
      smi('8xH100', ...query),
      Date.now(),
      smi('8xH100', ...argsOf(`${APPS_QUERY} --format=csv,noheader,nounits`)),
    );
    assert.equal(busy.kind, 'ok');
    if (busy.kind !== 'ok') return;
    const [g0, g1] = busy.sample.gpus;
    assert.ok(g0.utilizationGpu! >= 97 && g0.memoryUsedMiB! > 10_000, 'GPU 0 carries the job');
    assert.ok(g1.utilizationGpu! < 5 && g1.memoryUsedMiB === 0, 'GPU 1 idles');
    assert.deepEqual(
      busy.processes?.map((p) => [p.pid, p.name, p.gpuUuid]),
      [[process.pid, 'train.py', g0.uuid]],
    );
  });

  it('load.json sets the load deterministically; fault modes: driver, N/A', () => {
    const query = argsOf(`${GPU_QUERY} --format=csv,noheader,nounits`);
    load({ utilization: [80, 90, 85, 95, 88, 84, 86, 88], memoryUsedMiB: Array(8).fill(61 * 1024) });
    const state = nodeGpuState(smi('8xH100', ...query), 0);
    assert.equal(
      state.kind === 'ok' && aggregateLabel(aggregate(state.sample.gpus)),
      '8×H100 · 87% · 61/80 GB',
    );

    load({ fault: 'na' });
    const na = nodeGpuState(smi('2xH100', ...query), 0);
    assert.ok(
      na.kind === 'ok' &&
        na.sample.gpus.every((g) => g.utilizationGpu === undefined && g.powerDrawW === undefined),
    );
    assert.match(smi('2xH100', ...query).stdout, /\[N\/A\]/);

    load({ fault: 'driver' });
    const failed = smi('2xH100', ...query);
    assert.equal(failed.exitCode, 9);
    assert.equal(nodeGpuState(failed, 0).kind, 'driver-failure');
    assert.equal(smi('2xH100').exitCode, 9, 'the table too');
  });

  it('a CPU instance has no nvidia-smi (exit 127); an unknown type has no devices', () => {
    const cpu = smi('32xCPU', '-L');
    assert.equal(cpu.exitCode, 127);
    assert.equal(cpu.stdout, '');
    assert.deepEqual(nodeGpuState(cpu, 0), { kind: 'no-gpus', reason: 'not-installed' });
    const none = smi(undefined, '-L');
    assert.equal(none.exitCode, 6);
    assert.deepEqual(nodeGpuState(none, 0), { kind: 'no-gpus', reason: 'no-devices' });
  });

  it('-lms repeats until killed; the splitter cuts its output into samples of all GPUs', async () => {
    const child = spawn(
      process.execPath,
      [SMI, ...argsOf(`${GPU_QUERY} --format=csv,noheader,nounits`), '-lms', '100'],
      {
        env: { PATH: process.env.PATH, TP_NODE_DIR: nodeDir, TP_INSTANCE_TYPE: '2xH100' },
      },
    );
    const splitter = new SmiStreamSplitter({ gpuCount: 2, now: Date.now });
    const events: StreamEvent[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => events.push(...splitter.push(chunk)));
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await new Promise((resolve) => setTimeout(resolve, 900));
    assert.equal(child.exitCode, null, 'still running');
    child.kill('SIGTERM');
    assert.equal(await ended, 'SIGTERM');
    const samples = events.filter((e) => e.kind === 'sample');
    assert.ok(samples.length >= 4, `${samples.length} samples in 0.9 s at 100 ms`);
    assert.ok(
      samples.every((e) => e.kind === 'sample' && e.sample.gpus.length === 2 && e.sample.skipped === 0),
    );
  });

  /** The fixture section for a `--format=json` query. */
  function sections(suffix: string) {
    return section('idle-queries.txt', `${GPU_QUERY} ${suffix}`);
  }
});
