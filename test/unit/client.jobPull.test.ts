/**
 * Pulling a job's outputs from the local engine: the plan (download_map with sizes, or a command for a
 * running job), then downloadOutputs writing byte-identical files, refusing paths that leave the folder,
 * retrying a cut-off download and never leaving a partial file under its final name.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeOutputPath } from '../../src/api/downloads';
import type { PullPlan } from '../../src/model/job';
import { FAST_JOBS, runIn, submitted, tempFolder, useJobEngine } from '../fixtures/jobs';

describe('API client: pulling job outputs (local engine)', function () {
  const t = useJobEngine('tp-job-src-');
  let out: ReturnType<typeof tempFolder>;
  beforeEach(() => (out = tempFolder('tp-job-out-')));
  afterEach(() => out.remove());

  /** A completed job's pull plan. */
  const finished = async (): Promise<{ id: string; plan: PullPlan & { kind: 'download' } }> => {
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    assert.equal((await t.client.jobs.listen(id, { onMessage: () => undefined })).kind, 'success');
    const plan = await t.client.jobs.pull(id, { system: 'linux' });
    if (plan.kind !== 'download') assert.fail(`expected files to download, got ${plan.kind}`);
    return { id, plan };
  };
  const served = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
  const filesIn = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

  it('downloads every file byte-identical to what the engine serves, with sizes known up front', async () => {
    const { plan } = await finished();
    assert.deepEqual([...plan.files.keys()].sort(), ['checkpoints/result.bin', 'results.json']);
    assert.equal(plan.sizes.get('results.json'), FAST_JOBS.outputBytes);
    const progress: number[] = [];
    const res = await t.client.jobs.download(plan.files, out.path, {
      onProgress: (p) => progress.push(p.done),
    });
    assert.deepEqual(res.written.sort(), ['checkpoints/result.bin', 'results.json']);
    assert.deepEqual(progress, [1, 2]);
    for (const [path, url] of plan.files) {
      assert.ok(readFileSync(join(out.path, path)).equals(await served(url)), `${path} is byte-identical`);
    }
    assert.deepEqual(filesIn(out.path), ['checkpoints', 'checkpoints/result.bin', 'results.json']);
  });

  it('refuses `../` and absolute paths in the map and writes nothing outside the folder', async () => {
    await t.engine.config({
      jobs: { ...FAST_JOBS, extraOutputs: { '../escape.txt': 'x', '/tmp/abs.txt': 'y' } },
    });
    const { plan } = await finished();
    const inner = join(out.path, 'inner');
    const res = await t.client.jobs.download(plan.files, inner);
    assert.deepEqual(res.refused.map((r) => r.path).sort(), ['../escape.txt', '/tmp/abs.txt']);
    assert.equal(res.written.length, 2);
    assert.ok(!existsSync(join(out.path, 'escape.txt')));
    assert.equal('reason' in safeOutputPath(inner, 'a/../../b'), true);
    assert.equal('reason' in safeOutputPath(inner, 'C:\\Windows\\x'), true);
    assert.equal('path' in safeOutputPath(inner, 'ok/file.txt'), true);
  });

  it('keeps names that merely start with two dots (`...`, `..data/`) inside the folder instead of refusing them', () => {
    const inner = join(out.path, 'inner');
    assert.deepEqual(safeOutputPath(inner, '..data/config.json'), {
      path: join(inner, '..data', 'config.json'),
    });
    assert.deepEqual(safeOutputPath(inner, '...'), { path: join(inner, '...') });
    assert.equal('reason' in safeOutputPath(inner, '..'), true);
    assert.equal('reason' in safeOutputPath(inner, 'x/../../y'), true);
  });

  it('refuses a path that would leave the folder through a symbolic link inside it', async () => {
    const { plan } = await finished();
    const outside = tempFolder('tp-job-outside-');
    try {
      symlinkSync(outside.path, join(out.path, 'checkpoints'));
      const res = await t.client.jobs.download(plan.files, out.path);
      assert.deepEqual(
        res.refused.map((r) => r.path),
        ['checkpoints/result.bin'],
      );
      assert.deepEqual(readdirSync(outside.path), []);
    } finally {
      outside.remove();
    }
  });

  it('an interrupted download is retried and ends complete', async () => {
    const { plan } = await finished();
    await t.engine.fault({ method: 'GET', path: '/job/output/*', action: 'truncate', times: 1 });
    const res = await t.client.jobs.download(plan.files, out.path, { retryBaseMs: 5 });
    assert.equal(res.written.length, 2);
    assert.deepEqual(res.failed, []);
    for (const [path, url] of plan.files)
      assert.ok(readFileSync(join(out.path, path)).equals(await served(url)));
  });

  it('a download that keeps being cut off fails and leaves no file under its final name, nor a temp file', async () => {
    const { plan } = await finished();
    await t.engine.fault({ method: 'GET', path: '/job/output/*', action: 'truncate', times: -1 });
    const res = await t.client.jobs.download(plan.files, out.path, { retryBaseMs: 2, retries: 2 });
    assert.deepEqual(res.failed.map((f) => f.path).sort(), ['checkpoints/result.bin', 'results.json']);
    assert.match(res.failed[0].error, /cut off/);
    assert.deepEqual(filesIn(out.path), ['checkpoints']);
    const gets = (await t.engine.log()).filter((e) => e.path.startsWith('/job/output/'));
    assert.equal(gets.length, 6, 'three tries per file');
  });

  it('keeps an existing file unless overwriting is allowed for it', async () => {
    const { plan } = await finished();
    mkdirSync(join(out.path, 'checkpoints'));
    writeFileSync(join(out.path, 'results.json'), 'mine');
    const asked: string[] = [];
    const res = await t.client.jobs.download(plan.files, out.path, {
      overwrite: (p) => {
        asked.push(p);
        return Promise.resolve(false);
      },
    });
    assert.deepEqual(asked, ['results.json']);
    assert.deepEqual(res.skipped, ['results.json']);
    assert.equal(readFileSync(join(out.path, 'results.json'), 'utf8'), 'mine');
  });

  it('a running job answers a command to run locally (no files), and a dry run lists without a command', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 1000 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await new Promise((r) => setTimeout(r, 40));
    const plan = await t.client.jobs.pull(id, { system: 'linux' });
    assert.equal(plan.kind, 'command');
    const command = plan.kind === 'command' ? plan.command : '';
    await runIn(out.path)(command);
    assert.equal(readFileSync(join(out.path, '.tp-pull-marker'), 'utf8').trim(), `pulled ${id}`);
    const dry = await t.client.jobs.pull(id, { system: 'linux', dryRun: true });
    assert.equal(dry.kind, 'nothing');
    const [call] = await t.engine.calls('GET', `/job/pull/${id}`);
    assert.deepEqual(call.query, { system: 'linux', dry_run: 'false' });
  });
});
