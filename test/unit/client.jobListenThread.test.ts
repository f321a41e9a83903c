/**
 * Reading a job's log in a worker thread (src/api/listenThread.ts + listenWorker.ts, the worker as
 * transpiled into out/src/api/): the same contract as reading it here. Every line in order then the
 * final status, a dropped stream followed again without repeats, a refusal's reason, an abort that ends
 * it, and a missing worker script that falls back to reading on this thread.
 */
import * as assert from 'node:assert/strict';
import type { ListenMessage } from '../../src/api/jobSocket';
import { listenJobInThread, LISTEN_WORKER_FILE } from '../../src/api/listenThread';
import { Transport } from '../../src/api/http';
import { FAST_JOBS, submitted, useJobEngine } from '../fixtures/jobs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

describe('API client: a job log read in a worker thread (local engine)', function () {
  // The worker runs 10 nice steps below this thread by design, so a machine busy with other work (CI installs
  // run beside the unit tests) starves it for a while: mocha's 2 s would fail a correct reading.
  this.timeout(15_000);
  const t = useJobEngine('tp-job-thread-');
  const logLines = (ms: ListenMessage[]) => ms.filter((m) => m.status === undefined);
  const transport = () =>
    new Transport({
      baseUrl: t.engine.url,
      getToken: () => t.engine.token,
      userAgent: 'tensorpool-vscode/test',
    });

  it('the worker script is built beside the module that starts it', () => {
    assert.ok(existsSync(LISTEN_WORKER_FILE), LISTEN_WORKER_FILE);
  });

  it('a burst of 20,000 lines arrives whole and in order, then the final status', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 0, lines: 10_000 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const got: ListenMessage[] = [];
    const outcome = await t.client.jobs.follow(id, { worker: true, onMessage: (m) => got.push(m) });
    assert.equal(outcome.kind, 'success');
    const lines = logLines(got);
    assert.equal(lines.length, 2 * 10_001);
    const numbers = lines
      .map((m) => /python train.py: line (\d+) of/.exec(m.message ?? '')?.[1])
      .filter(Boolean)
      .map(Number);
    assert.equal(numbers.length, 10_000);
    assert.ok(
      numbers.every((n, i) => n === i + 1),
      'consecutive',
    );
    assert.equal(got.at(-1)?.status, 'success');
    const listens = (await t.engine.log()).filter(
      (e) => e.ws === 'upgrade' && e.path === `/job/listen/${id}`,
    );
    assert.equal(listens.length, 1);
  });

  it('on Linux the worker thread runs 10 nice steps below this thread, which keeps its priority', async function () {
    if (process.platform !== 'linux') this.skip();
    const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    /** The nice value of each thread of this process; a thread that ends between the listing and its read
     *  (a worker of the previous test, say) is left out. */
    const threads = () =>
      readdirSync('/proc/self/task').flatMap((tid) => {
        try {
          return [niceOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'))];
        } catch {
          return [];
        }
      });
    const own = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
    const lowered = Math.min(19, own + 10);
    const count = (nices: number[]) => nices.filter((n) => n === lowered).length;
    // The previous test's worker may still be ending.
    for (let i = 0; i < 50 && count(threads()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    const before = count(threads());
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 20 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    let seen: number[] = [];
    const outcome = await t.client.jobs.follow(id, {
      worker: true,
      onMessage: () => {
        if (seen.length === 0) seen = threads();
      },
    });
    assert.equal(outcome.kind, 'success');
    assert.ok(
      count(seen) > before,
      `thread nice values while reading: ${seen.join(',')} (before: ${before} lowered)`,
    );
    assert.equal(niceOf(readFileSync('/proc/thread-self/stat', 'utf8')), own, 'this thread keeps its own');
  });

  it('a dropped stream is followed again from the worker, each line once', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 20 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await t.engine.fault({ method: 'WS', path: `/job/listen/${id}`, action: 'terminate', afterMessages: 3 });
    const got: ListenMessage[] = [];
    const reconnects: number[] = [];
    const outcome = await t.client.jobs.follow(id, {
      worker: true,
      onMessage: (m) => got.push(m),
      onReconnect: (n) => reconnects.push(n),
      baseDelayMs: 5,
    });
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(reconnects, [1]);
    const texts = logLines(got).map((m) => m.message);
    assert.equal(texts.length, 2 * (FAST_JOBS.lines + 1));
    assert.equal(new Set(texts).size, texts.length, 'no line twice');
  });

  it('with onLines, runs of lines come as one string each: every line once and in order, the status as a message', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 0, lines: 5_000 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const texts: string[] = [];
    const runs: number[] = [];
    const got: ListenMessage[] = [];
    const outcome = await t.client.jobs.follow(id, {
      worker: true,
      onMessage: (m) => got.push(m),
      onLines: (lines, count) => {
        const split = lines.split('\n');
        assert.equal(split.length, count, 'count is the number of lines');
        texts.push(...split);
        runs.push(count);
      },
    });
    assert.equal(outcome.kind, 'success');
    assert.equal(texts.length, 2 * 5_001);
    assert.ok(runs.length < texts.length / 10, `${runs.length} runs for ${texts.length} lines`);
    const numbers = texts.map((l) => /python train.py: line (\d+) of/.exec(l)?.[1]).filter(Boolean);
    assert.deepEqual(
      numbers.map(Number),
      Array.from({ length: 5_000 }, (_, i) => i + 1),
    );
    assert.deepEqual(
      got.map((m) => m.status),
      ['success'],
      'only the status came as a message',
    );
  });

  it('with onLines, a dropped stream is followed again without repeating a line of the replay', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 20 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await t.engine.fault({ method: 'WS', path: `/job/listen/${id}`, action: 'terminate', afterMessages: 3 });
    const texts: string[] = [];
    const reconnects: number[] = [];
    const outcome = await t.client.jobs.follow(id, {
      worker: true,
      onMessage: (m) => {
        if (m.status === undefined) texts.push(m.message ?? '');
      },
      onLines: (lines) => texts.push(...lines.split('\n')),
      onReconnect: (n) => reconnects.push(n),
      baseDelayMs: 5,
    });
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(reconnects, [1]);
    assert.equal(texts.length, 2 * (FAST_JOBS.lines + 1));
    assert.equal(new Set(texts).size, texts.length, 'no line twice');
    assert.match(texts.at(-1) ?? '', /python train.py: line 3 of 3/);
  });

  it('an unknown job is refused with the reason, from the worker too', async () => {
    const outcome = await t.client.jobs.follow('job_nope', {
      worker: true,
      onMessage: () => undefined,
      baseDelayMs: 5,
    });
    assert.equal(outcome.kind, 'refused');
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /job_nope.*not found/);
  });

  it('an abort closes the connection and ends the reading as cancelled', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 50, lines: 1000 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const ac = new AbortController();
    const got: ListenMessage[] = [];
    const outcome = await listenJobInThread(transport(), id, {
      signal: ac.signal,
      onMessage: (m) => {
        got.push(m);
        if (got.length === 3) ac.abort();
      },
    });
    assert.equal(outcome.kind, 'cancelled');
    assert.ok(got.length >= 3 && got.length < 100, `${got.length} messages`);
  });

  it('without its worker script the log is read on this thread instead', async () => {
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const got: ListenMessage[] = [];
    const outcome = await listenJobInThread(
      transport(),
      id,
      { onMessage: (m) => got.push(m) },
      {},
      '/nonexistent/listenWorker.js',
    );
    assert.equal(outcome.kind, 'success');
    assert.equal(logLines(got).length, 2 * (FAST_JOBS.lines + 1));
  });
});
