// The local engine's command line (dist/engine.js, made by `npm run build`): the ready line, the
// development token, answers over HTTP, a clean exit on SIGTERM, and exit code 2 for bad arguments.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { waitFor } from '../shared/wait';

// Test code reads arbitrary JSON answers; `any` keeps the assertions readable.
type Json = Record<string, any>;

describe('local engine', function () {
  this.timeout(20_000);

  describe('CLI (dist/engine.js)', () => {
    const main = path.resolve(__dirname, '../../../dist/engine.js');

    it('prints the ready line and the token, answers, and exits cleanly on SIGTERM', async function () {
      assert.ok(existsSync(main), `${main} is missing: run npm run build first (npm test does)`);
      const child = spawn(process.execPath, [main, '--port', '0', '--seed', 'demo', '--pending-ms', '10'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        await waitFor(
          'ready line',
          async () => out,
          (o) => /Development token/.test(o),
          10_000,
        );
        const m = /^TensorPool local engine listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
        assert.ok(m, out);
        assert.equal(out.match(/listening on/g)!.length, 1, 'exactly one ready line');
        assert.match(out, /tp_local_dev_token/);
        const res = await fetch(`${m[1]}/cluster/list`, {
          headers: { authorization: 'Bearer tp_local_dev_token' },
        });
        assert.equal(res.status, 200);
        assert.equal((((await res.json()) as Json).clusters as Json[]).length, 4);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 0);
    });

    it('rejects bad arguments with exit code 2', async function () {
      assert.ok(existsSync(main), `${main} is missing: run npm run build first (npm test does)`);
      const child = spawn(process.execPath, [main, '--seed', 'lots'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      assert.equal(code, 2);
      assert.match(err, /--seed/);
    });
  });
});
