/**
 * The fault kinds of the operations that came after the cluster ones (catalogue OPERATION_FAULT_KINDS)
 * at the API client, against the in-process engine over real sockets: the job WebSockets (push: never
 * resent, the outcome said truthfully; listen: reconnects with backoff, each line once, never a push),
 * job REST calls and downloads, storage volumes and the POST /health version check. For each: the
 * outcome or error kind, how many times the engine saw the call (only idempotent ones repeated), and no
 * token in any message or log line. (The same kinds run around the real extension in
 * host/operationFaults.test.ts.)
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { trackRequest, type ClientOptions, type TensorPoolError } from '../../../src/api';
import type { ListenMessage } from '../../../src/api/jobSocket';
import { useTestEngine } from '../../fixtures/clientEngine';
import type { EngineHandle } from '../../fixtures/engine';
import { FAST_JOBS, JOB_FILE, runIn, tempFolder } from '../../fixtures/jobs';
import {
  OPERATION_FAULT_KINDS,
  failedVolumeRequest,
  faultSubject,
  findSecrets,
  type OperationFaultKind,
} from '../catalogue';
import { ledger } from '../ledger';
import { freePort as closedPort } from '../../shared/net';
import { sleep as realSleep, until } from '../../shared/wait';
import { apiClient } from '../../shared/apiClient';

type Err = TensorPoolError & Record<string, unknown>;

describe('reliability: operation faults at the API client (jobs, volumes, health)', function () {
  this.timeout(30_000);
  let engine: EngineHandle;
  let logLines: string[];
  let clusterId: string;
  let folder: { path: string; remove(): void };

  const make = (over: Partial<ClientOptions> = {}) =>
    apiClient(engine, {
      userAgent: 'tensorpool-vscode/reliability',
      retryBaseMs: 1,
      maxRetries: 3,
      timeoutMs: 2000,
      log: (_level, message) => {
        logLines.push(message);
      },
      ...over,
    });

  /** Nothing the client said (errors, outcomes, log lines) holds the token. */
  function noToken(...texts: unknown[]): void {
    const text = [...texts.map((t) => (typeof t === 'string' ? t : JSON.stringify(t))), ...logLines].join(
      '\n',
    );
    assert.deepEqual(findSecrets(text, [{ name: 'the token', value: engine.token }]), []);
  }

  async function fails(p: Promise<unknown>, kind: string): Promise<Err> {
    let caught: Err | undefined;
    await assert.rejects(p, (e: Err) => {
      caught = e;
      return true;
    });
    assert.equal(caught!.kind, kind, caught!.message);
    noToken(caught!.message, String(caught!.stack));
    return caught!;
  }

  const upgrades = async (path: string) =>
    (await engine.log()).filter((e) => e.method === 'WS' && e.path === path && e.ws === 'upgrade');
  const pushes = async () => (await upgrades('/job/push')).length;
  const count = async (method: string, path: string) => (await engine.calls(method, path)).length;
  const jobsOnServer = async () => (await make().jobs.list({ includeOrg: true })).jobs ?? [];

  function push(over: Partial<ClientOptions> = {}, pingMs = 60) {
    const ran: string[] = [];
    const out = make(over).jobs.push(
      { tpConfig: JOB_FILE, system: 'Linux', clusterId, teardown: false },
      { runCommand: runIn(folder.path, ran) },
      // Given up on after 300 ms of silence: quick enough for the silent-peer cases, with room for a busy
      // 2-core machine to stall the event loop past one ping interval.
      { pingMs, deadAfterMs: 5 * pingMs },
    );
    return { out, ran };
  }

  async function submitted(): Promise<string> {
    const o = await push().out;
    assert.equal(o.kind, 'submitted', JSON.stringify(o));
    return (o as { jobId: string }).jobId;
  }

  /** Follow `id` to its end: the lines seen (each must appear once), reconnects, the outcome. */
  async function follow(id: string, opts: { maxAttempts?: number } = {}) {
    const lines: ListenMessage[] = [];
    const reconnects: number[] = [];
    const out = await make().jobs.follow(id, {
      onMessage: (m) => lines.push(m),
      onReconnect: (_a, ms) => reconnects.push(ms),
      baseDelayMs: 5,
      pingMs: 60,
      deadAfterMs: 300,
      ...opts,
    });
    noToken(out, lines);
    return { out, lines, reconnects };
  }

  function eachLineOnce(lines: ListenMessage[]): void {
    const texts = lines.map((l) => l.message ?? '').filter((t) => t.includes(': line '));
    assert.equal(texts.length, 2 * FAST_JOBS.lines, JSON.stringify(texts));
    assert.equal(new Set(texts).size, texts.length, 'no line twice');
  }

  async function volumeRequest(): Promise<{ storageId: string; requestId: string }> {
    await engine.clearLog();
    const made = await make().volumes.createVolume({ size: 5, deletion_protection: false });
    assert.equal(await count('POST', '/storage/create'), 1);
    return { storageId: made.storage_id!, requestId: made.request_id! };
  }

  const kinds: Record<OperationFaultKind, () => Promise<void>> = {
    'push-refused': async () => {
      await engine.fault({ method: 'WS', path: '/job/push', status: 503, body: { detail: 'maintenance' } });
      const { out, ran } = push();
      const o = await out;
      assert.equal(o.kind, 'not-sent', JSON.stringify(o));
      assert.deepEqual(ran, []);
      assert.equal((await upgrades('/job/push'))[0].status, 503);
      assert.deepEqual(await jobsOnServer(), [], 'nothing was created');
    },
    'push-unreachable': async () => {
      const { out, ran } = push({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
      const o = await out;
      assert.equal(o.kind, 'not-sent');
      assert.match((o as { reason: string }).reason, /Could not connect/);
      assert.deepEqual(ran, []);
      assert.equal(await pushes(), 0);
    },
    'push-1006-early': async () => {
      await engine.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 0 });
      const o = await push().out;
      assert.equal(o.kind, 'unknown');
      assert.match((o as { reason: string }).reason, /may or may not exist.*Check the job list/);
      await realSleep(300);
      ledger.mutationsFor('push job', 1, await pushes());
      assert.equal(await pushes(), 1, 'never resubmitted');
      assert.ok((await jobsOnServer()).length <= 1);
    },
    'push-1006-mid': async () => {
      await engine.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 1 });
      const { out, ran } = push();
      const o = await out;
      assert.equal(o.kind, 'unknown');
      assert.match(
        (o as { jobId?: string }).jobId ?? '',
        /^job_/,
        'the job id heard before the loss is kept',
      );
      assert.deepEqual(ran, [], 'the upload command was never asked for');
      await realSleep(300);
      ledger.mutationsFor('push job', 1, await pushes());
      assert.equal(await pushes(), 1, 'never resubmitted');
      assert.equal((await jobsOnServer()).length, 1, 'one job on the server, not two');
    },
    'push-reason': async () => {
      await engine.fault({
        method: 'WS',
        path: '/job/push',
        action: 'close',
        closeCode: 4503,
        reason: 'Cluster is busy: try again later',
      });
      const o = await push().out;
      assert.deepEqual(o, {
        kind: 'refused',
        code: 4503,
        reason: 'Cluster is busy: try again later',
        jobId: undefined,
      });
      assert.equal(await pushes(), 1);
    },
    'push-silent': async () => {
      await engine.fault({ method: 'WS', path: '/job/push', action: 'silent' });
      const started = Date.now();
      const o = await push().out;
      assert.equal(o.kind, 'unknown', 'the job file was sent: its fate is unknown, and said so');
      assert.ok(Date.now() - started < 3000, `gave up after ${Date.now() - started} ms`);
      assert.ok(
        logLines.some((l) => /No answer from TensorPool for \d+ s/.test(l)),
        'the log says why',
      );
      await realSleep(300);
      ledger.mutationsFor('push job', 1, await pushes());
      assert.equal(await pushes(), 1);
    },
    'push-slow': async () => {
      await engine.fault({ method: 'WS', path: '/job/push', action: 'slow', delayMs: 400 });
      const o = await push().out;
      assert.equal(o.kind, 'submitted', 'pongs kept a slow but living service from being given up on');
      assert.equal(await pushes(), 1);
    },
    'listen-1006': async () => {
      const id = await submitted();
      await engine.fault({
        method: 'WS',
        path: '/job/listen/*',
        action: 'terminate',
        afterMessages: 2,
      });
      const { out, lines, reconnects } = await follow(id);
      assert.equal(out.kind, 'success', JSON.stringify(out));
      eachLineOnce(lines);
      assert.equal(reconnects.length, 1);
      assert.equal((await upgrades(`/job/listen/${id}`)).length, 2);
      assert.equal(await pushes(), 1, 'a reconnect is never a push');
    },
    'listen-reason': async () => {
      const id = await submitted();
      await engine.fault({
        method: 'WS',
        path: '/job/listen/*',
        action: 'close',
        closeCode: 4404,
        reason: `Job ${id} was deleted`,
      });
      const { out, reconnects } = await follow(id);
      assert.deepEqual(out, { kind: 'refused', code: 4404, reason: `Job ${id} was deleted` });
      assert.deepEqual(reconnects, [], 'a refusal is not retried');
      assert.equal((await upgrades(`/job/listen/${id}`)).length, 1);
    },
    'listen-silent': async () => {
      // Slower lines: the job (about 900 ms) must still be running when the silence is noticed (about 300 ms).
      await engine.config({ jobs: { ...FAST_JOBS, lineMs: 150 } });
      const id = await submitted();
      await engine.fault({ method: 'WS', path: '/job/listen/*', action: 'silent' });
      const { out, lines, reconnects } = await follow(id);
      assert.equal(out.kind, 'success');
      eachLineOnce(lines);
      assert.equal(reconnects.length, 1, 'the silent stream was given up on and followed again');
      assert.equal(await pushes(), 1);
    },
    'listen-refused': async () => {
      const id = await submitted();
      await engine.fault({ method: 'WS', path: '/job/listen/*', status: 503, body: { detail: 'busy' } });
      const { out, lines, reconnects } = await follow(id);
      assert.equal(out.kind, 'success');
      eachLineOnce(lines);
      assert.equal(reconnects.length, 1);
      assert.equal(await pushes(), 1);
    },
    'listen-always-drops': async () => {
      await engine.config({ jobs: { ...FAST_JOBS, lineMs: 5000 } });
      const id = await submitted();
      await engine.fault({
        method: 'WS',
        path: '/job/listen/*',
        action: 'terminate',
        afterMessages: 0,
        times: -1,
      });
      const { out, reconnects } = await follow(id, { maxAttempts: 3 });
      assert.equal(out.kind, 'gave-up', JSON.stringify(out));
      assert.equal((out as { attempts: number }).attempts, 3);
      assert.deepEqual(reconnects, [10, 20], 'backoff doubles');
      assert.equal((await upgrades(`/job/listen/${id}`)).length, 3);
      assert.equal(await pushes(), 1);
    },
    'listen-drop-at-end': async () => {
      const id = await submitted();
      await until('completed', async () => (await make().jobs.info(id)).job?.status === 'completed');
      await engine.fault({ method: 'WS', path: '/job/listen/*', action: 'terminate', afterMessages: 2 });
      const { out, lines } = await follow(id);
      assert.equal(out.kind, 'success', 'the rest of the log and the final status, not just "ended"');
      eachLineOnce(lines);
      assert.equal(await pushes(), 1);
    },
    'job-cancel-drop-after': async () => {
      await engine.config({ jobs: { ...FAST_JOBS, lineMs: 5000 } });
      const id = await submitted();
      await engine.fault({ method: 'POST', path: `/job/cancel/${id}`, action: 'drop-after' });
      const e = await fails(make().jobs.cancel(id), 'network');
      assert.equal(e.mayHaveReachedServer, true);
      assert.equal(await count('POST', `/job/cancel/${id}`), 1, 'a cancel is never resent');
      const info = await make().jobs.info(id);
      assert.match(info.job?.status ?? '', /^cancel/, 'the server did act on it');
    },
    'job-info-500': async () => {
      const id = await submitted();
      await engine.fault({ method: 'GET', path: `/job/info/${id}`, status: 500, times: -1 });
      await fails(make().jobs.info(id), 'server');
      assert.equal(await count('GET', `/job/info/${id}`), 4, 'a GET is retried');
      await engine.clearLog();
      await engine.fault({ method: 'WS', path: '/job/listen/*', action: 'terminate', afterMessages: 1 });
      const { out, lines } = await follow(id);
      assert.equal(out.kind, 'success', 'following went on while info failed');
      eachLineOnce(lines);
    },
    'job-output-cut': async () => {
      const id = await submitted();
      await until('completed', async () => (await make().jobs.info(id)).job?.status === 'completed');
      const plan = await make().jobs.pull(id, { system: 'linux' });
      assert.equal(plan.kind, 'download');
      if (plan.kind !== 'download') return;
      await engine.clearLog();
      await engine.fault({ method: 'GET', path: `/job/output/${id}/*`, action: 'truncate', times: -1 });
      const out = tempFolder('tp-rel-cut-');
      try {
        const r = await make().jobs.download(plan.files, out.path, { retryBaseMs: 1 });
        assert.deepEqual(r.written, []);
        assert.equal(r.failed.length, plan.files.size);
        assert.match(r.failed[0].error, /cut off/);
        const left = readdirSync(out.path, { recursive: true }).map(String);
        assert.deepEqual(
          left.filter((f) => !existsSync(join(out.path, f)) || !/^checkpoints$/.test(f)),
          [],
          'no final-named file, no .part file',
        );
        const gets = (await engine.log()).filter((e) => e.path.startsWith(`/job/output/${id}/`));
        assert.equal(gets.length, 4 * plan.files.size, 'each GET tried 4 times');
      } finally {
        out.remove();
      }
    },
    'volume-stuck': async () => {
      await engine.config({ stuck: true });
      const { requestId } = await volumeRequest();
      const out = await trackRequest(make(), requestId, {
        maxTotalMs: 300,
        minDelayMs: 1,
        defaultDelayMs: 30,
        sleep: realSleep,
      });
      assert.equal(out.kind, 'gave-up');
      assert.equal(out.info?.status, 'PROCESSING');
      const writes = (await engine.log()).filter((e) => e.method !== 'GET');
      assert.equal(writes.length, 1, 'one create; the rest are polls');
    },
    'volume-failed': async () => {
      const { requestId } = await volumeRequest();
      await engine.fault(failedVolumeRequest(requestId, 'no capacity in this region'));
      const out = await trackRequest(make(), requestId, {
        minDelayMs: 1,
        defaultDelayMs: 10,
        sleep: realSleep,
      });
      assert.equal(out.kind, 'failed');
      assert.equal(out.info?.external_message, 'no capacity in this region');
      assert.equal(await count('POST', '/storage/create'), 1);
    },
    'volume-list-500': async () => {
      await engine.fault({
        method: 'GET',
        path: '/storage/list',
        status: 500,
        body: { message: 'volume service down' },
        times: -1,
      });
      const e = await fails(make().volumes.listVolumes(), 'server');
      assert.match(e.message, /volume service down/);
      assert.equal(await count('GET', '/storage/list'), 4);
      await engine.fault({ method: 'POST', path: '/storage/create', status: 500 });
      const c = await fails(make().volumes.createVolume({ size: 5, deletion_protection: false }), 'server');
      assert.equal(c.mayHaveReachedServer, true);
      ledger.mutationsFor('create volume', 1, await count('POST', '/storage/create'));
      assert.equal(await count('POST', '/storage/create'), 1, 'a create is never resent');
    },
    'health-outdated': async () => {
      await engine.config({ minClientVersion: '99.0.0' });
      const v = await make().health({ package_version: '1.0.0', uname: 'Linux' });
      assert.equal(v.ok, false);
      assert.equal((v as { status: number }).status, 426);
      assert.match((v as { message: string }).message, /99\.0\.0/);
      assert.equal(await count('POST', '/health'), 1);
    },
    'health-500': async () => {
      await engine.fault({ method: 'POST', path: '/health', status: 500, times: -1 });
      await fails(make().health({ package_version: '1.0.0', uname: 'Linux' }), 'server');
      assert.ok((await count('POST', '/health')) >= 1);
    },
  };

  useTestEngine((e) => (engine = e));
  beforeEach(async () => {
    logLines = [];
    // Lines every 40 ms: a job is still running while a dropped log stream is noticed and followed again.
    await engine.config({ pendingMs: 20, processingMs: 40, jobs: { ...FAST_JOBS, lineMs: 40 } });
    await engine.seed({ clusters: 1, prefix: 'gpu' });
    clusterId = (await make().listClusters()).clusters![0].id;
    folder = tempFolder('tp-rel-jobs-');
    await engine.clearLog();
  });
  afterEach(() => folder.remove());

  for (const [kind, run] of Object.entries(kinds) as Array<[OperationFaultKind, () => Promise<void>]>) {
    ledger.cover(it(`${kind}: ${OPERATION_FAULT_KINDS[kind]}`, run), faultSubject(kind));
  }
});
