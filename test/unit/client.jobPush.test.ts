/**
 * Submitting a job over the /job/push WebSocket against the local engine: the exact messages in order
 * (read back from the engine's log), the token only in the first message and never in a URL, the
 * service's command run for real in the job file's folder, and every way a submission can end.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testClient } from '../fixtures/clientEngine';
import { JOB_FILE, runIn, submit, useJobEngine } from '../fixtures/jobs';

describe('API client: job submission over WebSocket (local engine)', function () {
  const t = useJobEngine('tp-job-push-');

  const wsLog = async (path = '/job/push') =>
    (await t.engine.log()).filter((e) => e.method === 'WS' && e.path === path);

  it('sends the token first, then the job, runs the upload command in the folder and is submitted', async () => {
    const { outcome, messages, ran } = await submit(t.client, t.clusterId, t.folder.path);
    assert.equal(outcome.kind, 'submitted');
    const jobId = outcome.kind === 'submitted' ? outcome.jobId : undefined;
    assert.match(jobId ?? '', /^job_/);
    // The command the service sent ran in the job file's t.folder, for real.
    assert.deepEqual(ran, [`echo ${jobId} > .tp-upload-marker`]);
    assert.equal(readFileSync(join(t.folder.path, '.tp-upload-marker'), 'utf8').trim(), jobId);
    assert.ok(
      messages.some((m) => m.command === ran[0]),
      'the command was shown to the caller',
    );
    assert.ok(messages.at(-1)?.message?.includes('submitted'));

    const log = await wsLog();
    assert.deepEqual(
      log.map((e) => e.ws),
      ['upgrade', 'message', 'message', 'message', 'close'],
    );
    assert.deepEqual(log[1].body, { TENSORPOOL_KEY: '[redacted]' });
    assert.deepEqual(log[2].body, {
      tp_config: JOB_FILE,
      system: 'Linux',
      cluster_id: t.clusterId,
      teardown_cluster: false,
    });
    assert.deepEqual(log[3].body, {
      type: 'command_result',
      command: ran[0],
      exit_code: 0,
      command_stdout: '',
      command_stderr: '',
    });
    assert.equal(log[4].status, 1000);
    // No token anywhere but the first message: not in the URL, a header or a query.
    assert.equal(log[0].url, '/job/push');
    assert.deepEqual(log[0].query, {});
    assert.equal(log[0].authorization, null);
    const everything = JSON.stringify(await t.engine.log());
    assert.ok(!everything.includes(t.engine.token));
  });

  it('a bad token is refused with the service reason and nothing is created', async () => {
    const bad = testClient(t.engine, { getToken: () => 'tp_wrong_token_0123456789' });
    const { outcome, ran } = await submit(bad, t.clusterId, t.folder.path);
    assert.deepEqual(
      { kind: outcome.kind, code: outcome.kind === 'refused' ? outcome.code : 0 },
      { kind: 'refused', code: 1008 },
    );
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /Invalid API key/);
    assert.deepEqual(ran, []);
    const list = await t.client.jobs.list();
    assert.deepEqual(list.jobs, []);
    assert.ok(!JSON.stringify(await t.engine.log()).includes('tp_wrong_token_0123456789'));
  });

  it('a connection lost mid-submission (1006) is an unknown outcome, with one push only', async () => {
    await t.engine.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 1 });
    const { outcome, ran } = await submit(t.client, t.clusterId, t.folder.path);
    assert.equal(outcome.kind, 'unknown');
    assert.match(outcome.kind === 'unknown' ? (outcome.jobId ?? '') : '', /^job_/);
    assert.match(outcome.kind === 'unknown' ? outcome.reason : '', /may or may not exist/);
    assert.deepEqual(ran, []);
    const upgrades = (await wsLog()).filter((e) => e.ws === 'upgrade');
    assert.equal(upgrades.length, 1, 'never resubmitted');
  });

  it('a silent peer (no message, no pong) ends the submission as unknown after two ping intervals, not never', async () => {
    await t.engine.fault({ method: 'WS', path: '/job/push', action: 'silent' });
    const started = Date.now();
    const outcome = await t.client.jobs.push(
      { tpConfig: JOB_FILE, system: 'Linux', clusterId: t.clusterId, teardown: false },
      { runCommand: runIn(t.folder.path) },
      { pingMs: 60 },
    );
    assert.equal(outcome.kind, 'unknown', JSON.stringify(outcome));
    assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
    assert.equal((await wsLog()).filter((e) => e.ws === 'upgrade').length, 1, 'never resubmitted');
  });

  it('a slow peer that answers pings is waited for (pongs count as signs of life)', async () => {
    await t.engine.fault({ method: 'WS', path: '/job/push', action: 'slow', delayMs: 400 });
    const outcome = await t.client.jobs.push(
      { tpConfig: JOB_FILE, system: 'Linux', clusterId: t.clusterId, teardown: false },
      { runCommand: runIn(t.folder.path) },
      // Quiet for 400 ms between messages, longer than the 300 ms limit: only the pongs keep it alive. The
      // limit leaves a busy machine 240 ms of slack past one ping interval.
      { pingMs: 60, deadAfterMs: 300 },
    );
    assert.equal(outcome.kind, 'submitted', JSON.stringify(outcome));
  });

  it('a close with a reason is a refusal carrying that reason', async () => {
    await t.engine.fault({
      method: 'WS',
      path: '/job/push',
      action: 'close',
      closeCode: 4503,
      reason: 'Cluster is busy: try again later',
    });
    const { outcome } = await submit(t.client, t.clusterId, t.folder.path);
    assert.deepEqual(outcome, {
      kind: 'refused',
      code: 4503,
      reason: 'Cluster is busy: try again later',
      jobId: undefined,
    });
  });

  it('an unknown cluster is refused with the reason naming it', async () => {
    const { outcome } = await submit(t.client, 'c-does-not-exist', t.folder.path);
    assert.equal(outcome.kind, 'refused');
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /c-does-not-exist.*not found/);
  });

  it('a failing upload command reports its exit code and stderr, and the submission is refused', async () => {
    const failing = await t.client.jobs.push(
      { tpConfig: JOB_FILE, system: 'Linux', clusterId: t.clusterId, teardown: false },
      { runCommand: () => Promise.resolve({ exitCode: 3, stdout: '', stderr: 'rsync: connection refused' }) },
    );
    assert.equal(failing.kind, 'refused');
    assert.match(failing.kind === 'refused' ? failing.reason : '', /Upload failed \(exit code 3\)/);
    const result = (await wsLog()).find(
      (e) => (e.body as { type?: string } | null)?.type === 'command_result',
    );
    assert.equal((result?.body as { exit_code: number }).exit_code, 3);
    assert.equal((result?.body as { command_stderr: string }).command_stderr, 'rsync: connection refused');
    const list = await t.client.jobs.list();
    assert.equal(list.jobs?.[0].status, 'failed');
  });

  it('an invalid job file is refused with the TOML problem and never asks for a command', async () => {
    const { outcome, ran } = await submit(t.client, t.clusterId, t.folder.path, 'commands = [\n');
    assert.equal(outcome.kind, 'refused');
    assert.match(outcome.kind === 'refused' ? outcome.reason : '', /not valid TOML/);
    assert.deepEqual(ran, []);
    assert.ok(!existsSync(join(t.folder.path, '.tp-upload-marker')));
  });
});
