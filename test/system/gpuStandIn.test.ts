// What the build made for GPU telemetry and prices: dist/nvidia-smi.js (the engine nodes' stand-in,
// bundled on its own, so it must run without out/ or node_modules) and the engine CLI's --prices.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../shared/wait';

const dist = path.resolve(__dirname, '../../../dist');

describe('GPU stand-in and prices (built)', function () {
  this.timeout(20_000);
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'tp-gpu-system-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('dist/nvidia-smi.js runs from a folder of its own with the node environment', () => {
    const bundle = path.join(dist, 'nvidia-smi.js');
    assert.ok(existsSync(bundle), `${bundle} is missing: run npm run build first (npm test does)`);
    // A copy alone in a folder: the bundle needs nothing beside it.
    const alone = path.join(dir, 'nvidia-smi.js');
    copyFileSync(bundle, alone);
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [alone, ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH, TP_INSTANCE_TYPE: '4xB200', TP_NODE_DIR: dir },
        encoding: 'utf8',
      });
    const list = run('-L');
    assert.equal(list.status, 0, list.stderr);
    assert.equal(list.stdout.split('\n').filter((l) => l.startsWith('GPU ')).length, 4);
    const query = run('--query-gpu=index,name,memory.total,power.limit', '--format=csv');
    assert.equal(query.stdout.split('\n')[0], 'index, name, memory.total [MiB], power.limit [W]');
    assert.match(query.stdout.split('\n')[1], /^0, NVIDIA B200, 183359 MiB, 1000\.00 W$/);
  });

  it('the engine CLI takes --prices and refuses a bad file with exit 2', async () => {
    const main = path.join(dist, 'engine.js');
    const prices = path.join(dir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ unitHour: { H100: 1.5 } }));
    const child = spawn(process.execPath, [main, '--port', '0', '--prices', prices], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(
        'ready line',
        async () => out,
        (o) => /Development token/.test(o),
        10_000,
      );
      const url = /listening on (http:\/\/\S+)/.exec(out)![1];
      const res = await fetch(`${url}/cluster/quote?instance_type=8xH100&num_nodes=1`, {
        headers: { authorization: 'Bearer tp_local_dev_token' },
      });
      assert.deepEqual(await res.json(), { hourly_rate: 12, instance_type: '8xH100', num_nodes: 1 });
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);

    writeFileSync(prices, '{"unitHour": {"H100": "free"}}');
    const bad = spawnSync(process.execPath, [main, '--port', '0', '--prices', prices], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unitHour\.H100 must be a number/);
  });
});
