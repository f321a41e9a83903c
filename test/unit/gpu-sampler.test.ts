/**
 * The telemetry loop and its sampler (src/model/gpu/smiLoop.ts, src/vscode/gpu/gpuSampler.ts): blocks
 * read from chunks cut anywhere, the node states of each fault, and one real process per watched node
 * (a local `sh` running the same loop against a scripted nvidia-smi, standing in for ssh's remote
 * shell) started by the first watcher, kept across watchers and ended by the last.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loopCommand, SmiLoopReader } from '../../src/model/gpu';
import { GpuSampler, retryDelay } from '../../src/vscode/gpu/gpuSampler';

const ROW = (i: number, util: string) =>
  `${i}, GPU-0000000${i}-aaaa-bbbb-cccc-dddddddddddd, NVIDIA H100 80GB HBM3, ${util}, 0, 1024, 81559, 40, 90.5, 700.00`;

function block(gpu: string[], rc: number, apps: string[] = [], appsRc = 0): string {
  return ['@@tp-gpu-begin', ...gpu, `@@tp-gpu-rc ${rc}`, ...apps, `@@tp-gpu-apps ${appsRc}`, ''].join('\n');
}

const loop = {
  command: (ms: number) => loopCommand(ms / 1000),
  reader: (now: () => number) => new SmiLoopReader(now),
};

const until = async (check: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('GPU telemetry: the sampling loop', () => {
  it('reads blocks from chunks cut anywhere, with the processes of each GPU', () => {
    const r = new SmiLoopReader(() => 7);
    const text =
      block([ROW(0, '97'), 'garbage line', ROW(1, '[N/A]')], 0, [
        'GPU-00000000-aaaa-bbbb-cccc-dddddddddddd, 4242, python3, 20000',
      ]) + block([ROW(0, '3')], 0);
    const states = [...text].flatMap((c) => r.push(c));
    assert.equal(states.length, 2);
    const [first, second] = states;
    assert.equal(first.kind, 'ok');
    if (first.kind !== 'ok' || second.kind !== 'ok') return;
    assert.deepEqual(
      first.sample.gpus.map((g) => g.utilizationGpu),
      [97, undefined],
    );
    assert.equal(first.sample.skipped, 1);
    assert.equal(first.sample.time, 7);
    assert.deepEqual(
      first.processes?.map((p) => [p.pid, p.name]),
      [[4242, 'python3']],
    );
    assert.deepEqual(
      second.sample.gpus.map((g) => g.utilizationGpu),
      [3],
    );
  });

  it('a node without nvidia-smi has no GPUs; the driver failure is its state; other refusals are errors', () => {
    const r = new SmiLoopReader(() => 1);
    const [none, driver, other] = r.push(
      block(['bash: nvidia-smi: command not found'], 127) +
        block(
          [
            "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
          ],
          9,
        ) +
        block(['Segmentation fault'], 139),
    );
    assert.deepEqual(none, { kind: 'no-gpus', reason: 'not-installed' });
    assert.equal(driver.kind, 'driver-failure');
    assert.match((driver as { message: string }).message, /^NVIDIA-SMI has failed because/);
    assert.deepEqual(other, { kind: 'error', message: 'Segmentation fault', exitCode: 139 });
  });

  it('the loop command asks both queries in one session and sleeps between blocks', () => {
    const c = loopCommand(2);
    assert.match(c, /^while :; do .*--query-gpu=index,uuid,name,utilization\.gpu/);
    assert.match(c, /--query-compute-apps=gpu_uuid,pid,process_name,used_memory/);
    assert.match(c, /sleep 2 \|\| exit; done$/);
    assert.doesNotMatch(loopCommand(1, true), /while/);
  });
});

describe('GPU telemetry: the sampler', function () {
  this.timeout(20_000);
  let dir: string;
  let spawned: number;
  let sampler: GpuSampler;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-sampler-'));
    fs.writeFileSync(
      path.join(dir, 'nvidia-smi'),
      `#!/bin/sh\ncase "$1" in --query-gpu*) cat "${dir}/rows" ;; esac\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(dir, 'rows'), `${ROW(0, '55')}\n${ROW(1, '45')}\n`);
    spawned = 0;
    // The argv ends with the loop command; `sh -c` runs it here as the node's login shell would.
    sampler = new GpuSampler({
      spawn: (argv) => {
        spawned++;
        return spawn('sh', ['-c', argv[argv.length - 1]], {
          env: { PATH: `${dir}:${process.env.PATH}` },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      },
      retryMs: 200,
      ...loop,
    });
  });
  afterEach(() => {
    sampler.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const target = { clusterId: 'c-1', instanceId: 'i-1', argv: ['ssh', 'node'] };

  it('one process per node for every watcher; samples flow; the last watcher to leave ends it', async () => {
    const changes: string[] = [];
    sampler.onDidChange((ids) => changes.push(...ids));
    sampler.watch('view', [target], 200);
    sampler.watch('guard', [target], 1000);
    await until(() => sampler.counts.samples >= 2, 'two samples');
    assert.equal(spawned, 1, 'one connection for both watchers, never one per sample');
    assert.equal(sampler.running, 1);
    const t = sampler.get('i-1');
    assert.equal(t?.state?.kind, 'ok');
    assert.ok(changes.includes('i-1'));
    fs.writeFileSync(path.join(dir, 'rows'), `${ROW(0, '1')}\n${ROW(1, '2')}\n`);
    await until(() => {
      const s = sampler.get('i-1')?.state;
      return s?.kind === 'ok' && s.sample.gpus[0].utilizationGpu === 1;
    }, 'the new figures');
    assert.equal(spawned, 1);

    sampler.unwatch('view'); // the guard's slower rate: the session restarts at its interval
    assert.equal(sampler.running, 1);
    sampler.unwatch('guard');
    assert.equal(sampler.running, 0);
    assert.equal(sampler.get('i-1'), undefined, 'no figures kept for a node nobody watches');
    const samples = sampler.counts.samples;
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(sampler.counts.samples, samples, 'no sample while nobody watches');
  });

  it('a session that ends is marked unreachable (the last figures stale) and tried again while watched', async () => {
    sampler = new GpuSampler({
      spawn: (argv) => {
        spawned++;
        const script = `${argv[argv.length - 1].replace(/^while :; do (.*); sleep .*$/, '$1')}; echo 'Connection closed by 127.0.0.1 port 22' >&2; exit 255`;
        return spawn('sh', ['-c', script], { env: { PATH: `${dir}:${process.env.PATH}` } });
      },
      retryMs: 100,
      ...loop,
    });
    sampler.watch('view', [target], 200);
    await until(() => sampler.get('i-1')?.unreachable !== undefined, 'unreachable');
    const t = sampler.get('i-1')!;
    assert.equal(t.unreachable, 'Connection closed by 127.0.0.1 port 22');
    assert.equal(t.stale, true);
    assert.equal(t.state?.kind, 'ok', 'the last figures are kept');
    await until(() => spawned >= 2, 'tried again');
  });

  /** A sampler whose every session fails at once with `stderr` (ssh's exit 255), counting spawns. */
  const failing = (stderr: string, retryMs: number) =>
    new GpuSampler({
      spawn: () => {
        spawned++;
        return spawn('sh', ['-c', `echo '${stderr}' >&2; exit 255`], { stdio: ['ignore', 'pipe', 'pipe'] });
      },
      retryMs,
      ...loop,
    });

  it('failures in a row back off, doubling up to the sampling interval', async () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 40].map((n) => retryDelay(n, 300_000, 10_000)),
      [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000],
      'the idle guard (5 min): 10 s, 20 s, … up to its interval',
    );
    assert.deepEqual(
      [1, 2, 5].map((n) => retryDelay(n, 2000, 10_000)),
      [10_000, 10_000, 10_000],
      'a view at 2 s: never under 10 s',
    );
    sampler.dispose();
    sampler = failing('ssh: connect to host 127.0.0.1 port 22: Connection refused', 50);
    sampler.watch('guard', [target], 400);
    await new Promise((r) => setTimeout(r, 1600));
    // 50, 100, 200, 400, 400… ms: about 6 tries in 1.6 s (a fixed 50 ms would have made about 25).
    assert.ok(spawned >= 3 && spawned <= 7, `${spawned} tries`);
    assert.equal(sampler.get('i-1')?.refused, undefined, 'refused is not what a connection refused means');
  });

  it('a refused login is shown as such and not tried again, even across an unwatch, until keys change', async () => {
    sampler.dispose();
    sampler = failing('root@127.0.0.1: Permission denied (publickey).', 20);
    sampler.watch('view', [target], 200);
    await until(() => sampler.get('i-1')?.refused === true, 'refused');
    assert.equal(sampler.get('i-1')?.unreachable, 'root@127.0.0.1: Permission denied (publickey).');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(spawned, 1, 'no retry of a refused login');
    sampler.unwatch('view');
    sampler.watch('guard', [target], 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(spawned, 1, 'watched again with the same keys: still not tried');
    assert.equal(sampler.get('i-1')?.refused, true, 'and still shown as refused');
    sampler.keysChanged();
    await until(() => spawned === 2, 'tried once more after the keys changed');
    await until(() => sampler.get('i-1')?.refused === true, 'refused again');
    sampler.watch('guard', [{ ...target, argv: ['ssh', '-i', 'other-key', 'node'] }], 60_000);
    await until(() => spawned === 3, 'another key for the cluster: tried');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(spawned, 3);
  });
});
