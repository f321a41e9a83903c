/**
 * Files a pull writes: a corpus of hostile output paths (climbing out with `..`, absolute POSIX and
 * Windows paths, backslashes, a NUL, very long names and paths, a link inside the folder that leads out
 * of it, a sibling folder sharing the folder's name as a prefix) offered by the engine in a real job's
 * download_map, pulled with the client into a folder inside a sandbox: nothing may appear anywhere in
 * the sandbox outside the folder, and each path is either refused or written inside the folder. Then
 * downloads interrupted mid-body (the user cancels; the service stops sending): never a file under
 * its final name, no temp file left, an existing file kept intact.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve, sep } from 'node:path';
import { downloadOutputs, safeOutputPath, type DownloadResult } from '../../../src/api';
import { startTestEngine, type EngineHandle } from '../../fixtures/engine';
import { FAST_JOBS, runIn, tempFolder } from '../../fixtures/jobs';
import { ledger } from '../ledger';
import { until } from '../../shared/wait';
import { apiClient } from '../../shared/apiClient';

/** Hostile paths and what must become of them: refused, or written at this path inside the folder. */
const HOSTILE: Array<{ path: string; inside?: string }> = [
  { path: '../escape-1.txt' },
  { path: '../../escape-2.txt' },
  { path: 'checkpoints/../../escape-3.txt' },
  { path: 'a/b/../../../escape-4.txt' },
  { path: '..' },
  { path: '.' },
  { path: './' },
  { path: '/tmp/tp-reliability-absolute.txt' },
  { path: '/etc/tp-reliability.txt' },
  { path: 'C:\\Windows\\escape-5.txt' },
  { path: 'C:escape-6.txt' },
  { path: 'c:/escape-7.txt' },
  { path: '\\\\server\\share\\escape-8.txt' },
  { path: '..\\escape-9.txt' },
  { path: 'sub\\..\\..\\escape-10.txt' },
  { path: 'nul\u0000byte.txt' },
  { path: `${'n'.repeat(300)}.txt` },
  { path: `${'deep/'.repeat(900)}escape-11.txt` },
  { path: 'link/escape-12.txt' },
  { path: 'link/../escape-13.txt' },
  { path: '../out-sibling/escape-14.txt' },
  { path: '   ' },
  { path: ' ../still-inside.txt', inside: ' ../still-inside.txt' },
  { path: '%2e%2e/still-inside.txt', inside: '%2e%2e/still-inside.txt' },
  { path: '~/still-inside.txt', inside: '~/still-inside.txt' },
  { path: 'ok/./fine.txt', inside: 'ok/fine.txt' },
  { path: '...', inside: '...' },
  { path: '..data/config.json', inside: '..data/config.json' },
];

/** Every file (and link) under `dir`, relative to it. */
function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => !d.isDirectory())
    .map((d) => relative(dir, join(d.parentPath, d.name)));
}

describe('reliability: pulls never write outside their folder, nor a half-written file', function () {
  this.timeout(30_000);
  let engine: EngineHandle;
  let sandbox: { path: string; remove(): void };
  let folder: string;
  let result: DownloadResult;

  before(async () => {
    engine = await startTestEngine();
    await engine.config({
      jobs: { ...FAST_JOBS, extraOutputs: Object.fromEntries(HOSTILE.map((h) => [h.path, 'x'])) },
    });
    await engine.seed({ clusters: 1, prefix: 'gpu' });
    const client = apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
    });
    const clusterId = (await client.listClusters()).clusters![0].id;
    sandbox = tempFolder('tp-rel-files-');
    folder = join(sandbox.path, 'out');
    const outside = join(sandbox.path, 'elsewhere');
    mkdirSync(folder);
    mkdirSync(outside);
    mkdirSync(join(sandbox.path, 'out-sibling'));
    symlinkSync(outside, join(folder, 'link'), 'dir');
    const pushed = await client.jobs.push(
      {
        tpConfig: 'commands = ["python train.py"]\noutputs = ["results.json"]\n',
        system: 'Linux',
        clusterId,
        teardown: false,
      },
      { runCommand: runIn(sandbox.path) },
    );
    assert.equal(pushed.kind, 'submitted');
    const id = (pushed as { jobId: string }).jobId;
    await until('completed', async () => (await client.jobs.info(id)).job?.status === 'completed');
    const plan = await client.jobs.pull(id, { system: 'linux' });
    assert.equal(plan.kind, 'download');
    if (plan.kind !== 'download') return;
    for (const h of HOSTILE) assert.ok(plan.files.has(h.path), `the engine offers ${JSON.stringify(h.path)}`);
    result = await client.jobs.download(plan.files, folder, { retryBaseMs: 1 });
  });
  after(async () => {
    sandbox?.remove();
    await engine?.close();
  });

  it('nothing appeared in the sandbox outside the folder; the job output itself was written', () => {
    const all = listAll(sandbox.path).filter((f) => f !== '.tp-upload-marker');
    const outsideFolder = all.filter((f) => !f.startsWith(`out${sep}`));
    assert.deepEqual(outsideFolder, []);
    assert.deepEqual(listAll(join(sandbox.path, 'elsewhere')), [], 'nothing through the link');
    assert.ok(result.written.includes('results.json'));
    assert.ok(!listAll(folder).some((f) => f.endsWith('.part')), 'no temp file left');
  });

  HOSTILE.forEach((h, i) => {
    ledger.cover(
      it(`${JSON.stringify(h.path.length > 40 ? `${h.path.slice(0, 40)}…` : h.path).replace(/\\u0000/, '\\0')}: ${h.inside ? 'written inside the folder' : 'refused, nothing written'}`, () => {
        const refused = result.refused.find((r) => r.path === h.path);
        const failed = result.failed.find((r) => r.path === h.path);
        const check = safeOutputPath(folder, h.path);
        if (h.inside) {
          assert.ok(result.written.includes(h.path), JSON.stringify({ refused, failed }));
          assert.ok('path' in check && check.path === resolve(folder, h.inside));
          assert.equal(readFileSync(resolve(folder, h.inside), 'utf8'), 'x');
        } else {
          assert.ok(!result.written.includes(h.path), 'not written');
          // Refused with the reason, or (a name the file system cannot hold) failed without a file.
          assert.ok(refused || failed, `neither refused nor failed: ${JSON.stringify(result)}`);
          if (refused) assert.match(refused.reason, /empty|NUL|absolute|\.\.|outside|link/);
        }
      }),
      `file:${i}`,
    );
  });

  describe('a download interrupted mid-body', () => {
    let server: http.Server;
    let base: string;
    const BIG = 4 << 20;

    before(async () => {
      // Sends the headers and the first megabyte of a 4 MB body, then nothing more (until closed).
      server = http.createServer((_req, res) => {
        res.writeHead(200, { 'content-length': String(BIG), 'content-type': 'application/octet-stream' });
        res.write(Buffer.alloc(1 << 20, 1));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    });

    ledger.cover(
      it('cancelled by the user while the body streams: no final-named file, no temp file, the old file intact', async () => {
        const dir = tempFolder('tp-rel-cancel-');
        try {
          writeFileSync(join(dir.path, 'model.bin'), 'the previous run');
          const ac = new AbortController();
          const done = downloadOutputs(
            { 'model.bin': `${base}/a`, 'new/weights.bin': `${base}/b` },
            dir.path,
            { signal: ac.signal, overwrite: true, retries: 0 },
          );
          await until(
            'both downloads under way',
            () => listAll(dir.path).filter((f) => f.endsWith('.part')).length === 2,
          );
          ac.abort();
          const r = await done;
          assert.equal(r.cancelled, true);
          assert.deepEqual(r.written, []);
          assert.equal(readFileSync(join(dir.path, 'model.bin'), 'utf8'), 'the previous run');
          assert.deepEqual(listAll(dir.path), ['model.bin'], 'no weights.bin, no .part file');
        } finally {
          dir.remove();
        }
      }),
      'file:cancelled',
    );

    ledger.cover(
      it('the service stops sending (a stalled body, then the connection closes): failed, nothing under the final name', async () => {
        const dir = tempFolder('tp-rel-stall-');
        try {
          const done = downloadOutputs({ 'stalled.bin': `${base}/c` }, dir.path, { retries: 0 });
          await until('the download is under way', () => listAll(dir.path).some((f) => f.endsWith('.part')));
          server.closeAllConnections();
          const r = await done;
          assert.deepEqual(r.written, []);
          assert.equal(r.failed[0]?.path, 'stalled.bin');
          assert.match(r.failed[0].error, /cut off/);
          assert.deepEqual(listAll(dir.path), [], 'nothing left behind');
        } finally {
          dir.remove();
        }
      }),
      'file:stalled',
    );
  });
});
