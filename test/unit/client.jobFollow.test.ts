/**
 * Following and managing jobs against the local engine: /job/listen streams every log line then a final
 * status; a dropped stream is followed again (a listen, never a push) without repeating lines; cancel is
 * asynchronous (canceling, then canceled); delete only for an ended job; a text-only list still names
 * the jobs; the job states model.
 */
import * as assert from 'node:assert/strict';
import type { TensorPoolError } from '../../src/api';
import { pushSystem, type ListenMessage } from '../../src/api/jobSocket';
import { isTerminalJobState, jobStateKind } from '../../src/model/job';
import { FAST_JOBS, runIn, submitted, useJobEngine } from '../fixtures/jobs';
import { waitFor } from '../shared/wait';

describe('API client: following and managing jobs (local engine)', function () {
  const t = useJobEngine('tp-job-follow-');

  /** Two commands, FAST_JOBS.lines output lines each, plus the `$ command` lines. */
  const LINES = 2 * (FAST_JOBS.lines + 1);
  const logLines = (ms: ListenMessage[]) => ms.filter((m) => m.status === undefined);

  it('listen streams every log line in order, then the final status', async () => {
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const got: ListenMessage[] = [];
    // Pings every 5 ms on the way (the official client's keep-alive, much faster). The dead-peer limit stays
    // generous: a busy 2-core machine can hold the event loop for more than two such intervals, and giving
    // up on a quiet peer is client.jobPush.test.ts's subject, not this one's.
    const outcome = await t.client.jobs.listen(
      id,
      { onMessage: (m) => got.push(m) },
      { pingMs: 5, deadAfterMs: 10_000 },
    );
    assert.equal(outcome.kind, 'success');
    const lines = logLines(got);
    assert.equal(lines.length, LINES);
    assert.match(lines[0].message ?? '', /\$ pip install -r requirements.txt/);
    assert.match(lines[LINES - 1].message ?? '', /python train.py: line 3 of 3/);
    assert.equal(got.at(-1)?.status, 'success');
    const info = await t.client.jobs.info(id);
    assert.equal(info.job?.status, 'completed');
    assert.equal(info.job?.exitCode, 0);
  });

  it('a job whose command is `exit 1` ends failed, and listen ends with an error', async () => {
    const id = await submitted(
      t.client,
      t.clusterId,
      t.folder.path,
      'commands = ["echo start", "exit 1", "echo never"]',
    );
    const got: ListenMessage[] = [];
    const outcome = await t.client.jobs.listen(id, { onMessage: (m) => got.push(m) });
    assert.equal(outcome.kind, 'error');
    assert.ok(!got.some((m) => m.message?.includes('echo never')));
    assert.equal((await t.client.jobs.info(id)).job?.status, 'failed');
  });

  it('a dropped stream is followed again from where it was, each line once, without a second push', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 20 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await t.engine.fault({ method: 'WS', path: `/job/listen/${id}`, action: 'terminate', afterMessages: 3 });
    await t.engine.clearLog();
    const got: ListenMessage[] = [];
    const reconnects: number[] = [];
    const outcome = await t.client.jobs.follow(id, {
      onMessage: (m) => got.push(m),
      onReconnect: (n) => reconnects.push(n),
      baseDelayMs: 5,
    });
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(reconnects, [1]);
    const texts = logLines(got).map((m) => m.message);
    assert.equal(texts.length, LINES);
    assert.equal(new Set(texts).size, LINES, 'no line twice');
    const upgrades = (await t.engine.log()).filter((e) => e.ws === 'upgrade');
    assert.deepEqual(
      upgrades.map((e) => e.path),
      [`/job/listen/${id}`, `/job/listen/${id}`],
    );
  });

  it('a stream that drops after the job ended is read once more, so no line is lost', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 0 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await waitFor(
      'completed',
      async () => (await t.client.jobs.info(id)).job?.status,
      (s) => s === 'completed',
    );
    await t.engine.fault({ method: 'WS', path: `/job/listen/${id}`, action: 'terminate', afterMessages: 3 });
    const got: ListenMessage[] = [];
    const reconnects: Array<[number, number]> = [];
    const outcome = await t.client.jobs.follow(id, {
      onMessage: (m) => got.push(m),
      onReconnect: (n, ms) => reconnects.push([n, ms]),
      baseDelayMs: 5,
    });
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(reconnects, [[1, 0]], 'at once, no backoff');
    const texts = logLines(got).map((m) => m.message);
    assert.equal(texts.length, LINES);
    assert.equal(new Set(texts).size, LINES, 'no line twice');
  });

  it('listening to an unknown job is refused with the reason', async () => {
    const outcome = await t.client.jobs.follow('job_nope', { onMessage: () => undefined, baseDelayMs: 5 });
    assert.equal(outcome.kind, 'refused');
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /job_nope.*not found/);
  });

  it('cancel is asynchronous: canceling, then canceled; a second cancel after the end is a conflict', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 200, cancelMs: 100 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    const res = await t.client.jobs.cancel(id);
    assert.match(res.message ?? '', /Canceling/);
    assert.equal((await t.client.jobs.info(id)).job?.status, 'canceling');
    await waitFor(
      'canceled',
      async () => (await t.client.jobs.info(id)).job?.status,
      (s) => s === 'canceled',
      5000,
      20,
    );
    await assert.rejects(t.client.jobs.cancel(id), (e: TensorPoolError) => e.kind === 'conflict');
    assert.equal((await t.engine.calls('POST', `/job/cancel/${id}`)).length, 2, 'never retried');
  });

  it('delete is refused (409) while the job runs and works once it ended', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 500 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await assert.rejects(t.client.jobs.delete(id), (e: TensorPoolError) => {
      assert.equal(e.kind, 'conflict');
      assert.match(e.message, /only an ended job can be deleted/);
      return true;
    });
    await t.client.jobs.cancel(id);
    await waitFor(
      'canceled',
      async () => (await t.client.jobs.info(id)).job?.status,
      (s) => s === 'canceled',
      5000,
      20,
    );
    assert.match((await t.client.jobs.delete(id)).message ?? '', /deleted/);
    assert.deepEqual((await t.client.jobs.list()).jobs, []);
  });

  it('a text-only list still names each job with its status and cluster', async () => {
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    await t.engine.config({ answers: { jobList: { mode: 'text' } } });
    const listing = await t.client.jobs.list();
    assert.equal(listing.jobs, undefined);
    assert.match(listing.message ?? '', /JOB ID/);
    assert.equal(listing.textJobs?.length, 1);
    assert.equal(listing.textJobs?.[0].id, id);
    assert.equal(listing.textJobs?.[0].clusterId, t.clusterId);
    assert.equal(listing.textJobs?.[0].source, 'text');
    assert.ok(listing.textJobs?.[0].status, 'a status was read');
  });

  it('init answers the job file template', async () => {
    const { template } = await t.client.jobs.init();
    assert.match(template, /^commands = \[/m);
    assert.match(template, /^outputs = \[/m);
  });

  it('a job submitted with teardown says so and destroys its cluster once it ended', async () => {
    const messages: string[] = [];
    const outcome = await t.client.jobs.push(
      {
        tpConfig: 'commands = ["echo hi"]',
        system: pushSystem('linux'),
        clusterId: t.clusterId,
        teardown: true,
      },
      { onMessage: (m) => messages.push(m.message ?? ''), runCommand: runIn(t.folder.path) },
    );
    assert.equal(outcome.kind, 'submitted');
    assert.ok(messages.some((m) => /cluster will be destroyed/.test(m)));
    const id = outcome.kind === 'submitted' ? outcome.jobId! : '';
    assert.equal((await t.client.jobs.listen(id, { onMessage: () => undefined })).kind, 'success');
    await t.client.jobs.list();
    const cluster = (await t.client.listClusters()).clusters?.find((c) => c.id === t.clusterId);
    assert.ok(cluster === undefined || /destroy/i.test(cluster.status ?? ''), `cluster: ${cluster?.status}`);
  });

  it('job states: terminal ones are known, any case; an unknown state is still going', () => {
    for (const s of ['completed', 'ERROR', 'Failed', 'canceled', 'cancelled'])
      assert.equal(isTerminalJobState(s), true, s);
    for (const s of ['pending', 'RUNNING', 'canceling', 'queued', '', undefined])
      assert.equal(isTerminalJobState(s), false, String(s));
    assert.equal(jobStateKind('Queued'), 'unknown');
  });
});
