// The operation fault kinds (catalogue OPERATION_FAULT_KINDS) around the real extension: Run on
// Cluster… under job-push faults (the outcome told truthfully; one push, never resubmitted), the job's
// terminal under log-stream faults (a note, a reconnect with backoff, each line once, never a push), a
// cancel whose answer is lost, volumes stuck / failed / unlistable, and POST /health refusing or failing.
// Kinds that only make sense at the client (every reconnect dropped, job info 500, cut-off downloads,
// connection refused before the push) run in node/operationFaults.test.ts. Unhandled rejections are
// checked at the end of the run (unhandled.test.ts).
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { PROJECT, ticksJob } from '../../fixtures/jobProject';
import { ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster } from '../../integration/realCluster';
import {
  OPERATION_FAULT_KINDS,
  failedVolumeRequest,
  faultSubject,
  type OperationFaultKind,
} from '../catalogue';
import { ledger } from '../ledger';
import { ensureSignedIn, freshAccount, mutations } from './common';
import * as spy from './spy';
import { accountIs, control, hideViews, sleep, until } from './util';

/** Real jobs on a real node (the engine's sshd), uploaded with the user's key: six lines, one every 150 ms. */
const JOB_FILE = ticksJob(6, 150);
/** Jobs that run longer: six lines in 4.8 s (a stream that drops or is refused early on, while the job still
 *  runs, even when a busy machine first reads the log a second or two after the submission), one line a
 *  second (a refusal seen while it runs), one every 2.5 s (a silence of 10 s noticed while it runs), and one
 *  that runs until canceled. */
const SLOW_JOBS = {
  'steady.tp.toml': ticksJob(6, 800),
  'slow.tp.toml': ticksJob(12, 1000),
  'slower.tp.toml': ticksJob(10, 2500),
};
const LONG_JOB = ticksJob(1000, 200);
const CLUSTER = 'rel-jobs';

type Outcome = { kind: string; jobId?: string; reason?: string; code?: number };
interface WsEntry {
  method: string;
  path: string;
  ws?: string;
}

suite('Reliability: operation faults around the real extension (jobs, volumes, health)', () => {
  let ext: TensorPoolExtensionApi;
  let folder: string;
  let jobFile: vscode.Uri;

  const wsUpgrades = async (p: string) =>
    ((await control.log()) as unknown as WsEntry[]).filter(
      (e) => e.method === 'WS' && e.path === p && e.ws === 'upgrade',
    ).length;
  const pushes = () => wsUpgrades('/job/push');
  const uri = (name: string) => vscode.Uri.file(path.join(folder, name));
  /** What may change something, besides the log streams of jobs still followed from earlier tests. */
  const changes = async () => (await mutations()).filter((m) => !m.startsWith('WS '));

  /** Run a job file on the real cluster (the wizard, then the answers after it); the outcome and what was shown. */
  async function run(after: string[], file = jobFile): Promise<{ out: Outcome; p: ScriptedPrompter }> {
    const p = new ScriptedPrompter([CLUSTER, 'Keep the cluster', 'Run job', ...after]);
    ext.setPrompter(p);
    const out = await vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', file);
    // Its log is being followed once its first listen reached the engine (the follower starts after the
    // push, in a worker thread): a log fault registered later is then meant for a later job, not this one.
    if (out.kind === 'submitted' && out.jobId)
      await until(
        'the job log followed',
        async () => (await wsUpgrades(`/job/listen/${out.jobId}`)) >= 1,
        15_000,
      );
    return { out, p };
  }

  /** A push that may have reached the service: "may or may not exist", Show Jobs, one push counted. */
  async function unknownOutcome(out: Outcome, p: ScriptedPrompter): Promise<void> {
    assert.equal(out.kind, 'unknown', JSON.stringify(out));
    const shown = p.shown.find((s) => s.kind === 'confirm' && /Connection lost/.test(s.message ?? ''));
    assert.match(shown?.message ?? '', /may or may not exist\. Check the job list before running it again/);
    assert.deepEqual(shown?.items, ['Show Jobs']);
    assert.match(ext.testing.terminalText(), /may or may not exist/);
    await sleep(1000);
    const n = await pushes();
    ledger.mutationsFor('push job', 1, n);
    assert.equal(n, 1, 'pushed once, never again');
  }

  /** A job submitted and followed to completion in its terminal, each line once, after `fault` on its log. */
  async function followedThrough(
    fault: Record<string, unknown>,
    note: RegExp,
    timeoutMs = 30_000,
    file = jobFile,
    n = 6,
  ) {
    await control.fault({ method: 'WS', path: '/job/listen/*', ...fault });
    const before = ext.testing.terminalText().length;
    const { out } = await run(['Run'], file);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    const id = out.jobId!;
    const last = `tick ${n} of ${n} (${id})`;
    const mine = () => ext.testing.terminalText().slice(before);
    await until('the whole log in the terminal', () => mine().includes(last), timeoutMs);
    await until('its end', () => mine().includes(`Job ${id} completed`), timeoutMs);
    const text = mine();
    assert.match(text, note, text.slice(-1500));
    for (let k = 1; k <= n; k++)
      assert.equal(text.split(`tick ${k} of ${n} (${id})`).length, 2, `line ${k} once`);
    assert.equal(await pushes(), 1, 'a reconnect is never a push');
    assert.ok((await wsUpgrades(`/job/listen/${id}`)) >= 2, 'followed again');
    return id;
  }

  async function volumeCreate(name: string): Promise<string> {
    ext.setPrompter(new ScriptedPrompter(['10', name, 'Off', 'Create volume']));
    const id = await vscode.commands.executeCommand<string>('tensorpool.createVolume');
    assert.ok(id, 'the volume create was accepted');
    return id;
  }

  suiteSetup(async () => {
    ext = await freshAccount();
    await realCluster(CLUSTER);
    await ext.refresh();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    folder = path.join(root, 'reliability-jobs');
    mkdirSync(folder, { recursive: true });
    for (const [rel, text] of Object.entries({ ...PROJECT, ...SLOW_JOBS, 'long.tp.toml': LONG_JOB })) {
      mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
      writeFileSync(path.join(folder, rel), text);
    }
    writeFileSync(path.join(folder, 'train.tp.toml'), JOB_FILE);
    jobFile = vscode.Uri.file(path.join(folder, 'train.tp.toml'));
    // The upload command runs without asking for every push of this suite.
    const { out } = await run(["Run and Don't Ask Again for This Workspace"]);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
  });
  suiteTeardown(() => rmSync(folder, { recursive: true, force: true }));
  setup(async () => {
    await control.clearLog();
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await control.config({ stuck: false, minClientVersion: null });
    await ensureSignedIn(ext);
    await hideViews();
  });

  const kinds: Partial<Record<OperationFaultKind, () => Promise<void>>> = {
    'push-refused': async () => {
      await control.fault({ method: 'WS', path: '/job/push', status: 503, body: { detail: 'maintenance' } });
      const { out, p } = await run([ESCAPE]);
      assert.equal(out.kind, 'not-sent', JSON.stringify(out));
      const shown = p.shown.find((s) => s.kind === 'confirm');
      assert.match(shown?.message ?? '', /^Nothing was submitted for train\.tp\.toml: /);
      assert.equal(await pushes(), 1);
      ledger.mutationsFor('push job', 1, await pushes());
    },
    'push-1006-early': async () => {
      await control.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 0 });
      const { out, p } = await run([ESCAPE]);
      await unknownOutcome(out, p);
    },
    'push-1006-mid': async () => {
      await control.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 1 });
      const { out, p } = await run([ESCAPE]);
      await unknownOutcome(out, p);
      assert.match(out.jobId ?? '', /^job_/, 'the job id heard before the loss is kept');
    },
    'push-reason': async () => {
      await control.fault({
        method: 'WS',
        path: '/job/push',
        action: 'close',
        closeCode: 4503,
        reason: 'Cluster is busy: try again later',
      });
      const { out, p } = await run([ESCAPE]);
      assert.equal(out.kind, 'refused');
      assert.equal(
        p.shown.find((s) => s.kind === 'confirm')?.message,
        'TensorPool refused the job train.tp.toml: Cluster is busy: try again later',
      );
      assert.match(ext.testing.terminalText(), /Refused \(4503\): Cluster is busy/);
      assert.equal(await pushes(), 1);
    },
    'push-silent': async () => {
      await control.fault({ method: 'WS', path: '/job/push', action: 'silent' });
      const started = Date.now();
      const { out, p } = await run([ESCAPE]);
      const ms = Date.now() - started;
      assert.ok(ms < 20_000, `gave up on the silent service after ${ms} ms (two ping intervals)`);
      await unknownOutcome(out, p);
    },
    'push-slow': async () => {
      await control.fault({ method: 'WS', path: '/job/push', action: 'slow', delayMs: 300 });
      const { out } = await run([]);
      assert.equal(out.kind, 'submitted', 'a slow service is waited for');
      assert.equal(await pushes(), 1);
    },
    'listen-1006': async () => {
      await followedThrough(
        { action: 'terminate', afterMessages: 3 },
        /Connection to the log lost; reconnecting in \d+ s \(attempt 1\)/,
        30_000,
        uri('steady.tp.toml'),
      );
    },
    'listen-refused': async () => {
      await followedThrough(
        { status: 503, body: { detail: 'busy' } },
        /Connection to the log lost; reconnecting in \d+ s \(attempt 1\)/,
        30_000,
        uri('steady.tp.toml'),
      );
    },
    'listen-silent': async () => {
      // Slow lines: the job still runs when the silence is noticed (two ping intervals, 10 s).
      await followedThrough(
        { action: 'silent' },
        /Connection to the log lost; reconnecting in \d+ s \(attempt 1\)/,
        60_000,
        uri('slower.tp.toml'),
        10,
      );
    },
    'listen-reason': async () => {
      await control.fault({
        method: 'WS',
        path: '/job/listen/*',
        action: 'close',
        closeCode: 4404,
        reason: 'Job was deleted by an administrator',
      });
      const mark = spy.notifications.length;
      const { out } = await run([], uri('slow.tp.toml'));
      assert.equal(out.kind, 'submitted');
      await until('the follower stops', () =>
        spy.since(mark).some((n) => /Stopped following job/.test(n.message)),
      );
      const shown = spy.since(mark).find((n) => /Stopped following job/.test(n.message))!;
      assert.match(shown.message, /Job was deleted by an administrator/);
      assert.match(ext.testing.terminalText(), /Stopped following job .*Job was deleted by an administrator/);
      await sleep(1500);
      assert.equal(await wsUpgrades(`/job/listen/${out.jobId}`), 1, 'a refusal is not retried');
      assert.equal(await pushes(), 1);
    },
    'job-cancel-drop-after': async () => {
      const { out } = await run([], uri('long.tp.toml'));
      const id = out.jobId!;
      await control.clearLog();
      await control.fault({ method: 'POST', path: `/job/cancel/${id}`, action: 'drop-after' });
      const mark = spy.notifications.length;
      ext.setPrompter(new ScriptedPrompter(['Cancel Job']));
      assert.equal(await vscode.commands.executeCommand('tensorpool.cancelJob', id), undefined);
      const shown = spy.since(mark).find((n) => n.severity === 'error');
      assert.match(
        shown?.message ?? '',
        new RegExp(`job ${id}.*may have reached TensorPool: check the Jobs view before trying again`),
      );
      assert.deepEqual(await changes(), [`POST /job/cancel/${id} -> null`], 'sent once');
      await ext.testing.jobs.refresh();
      assert.match(ext.testing.jobs.find(id)?.status ?? '', /^cancel/, 'the cancel did happen');
    },
    'volume-stuck': async () => {
      await control.config({ stuck: true });
      const id = await volumeCreate('stuckvol');
      await until(
        'three polls',
        async () => (await control.log()).filter((e) => e.path.startsWith('/request/info/')).length >= 3,
      );
      assert.equal(
        ext.testing.volumes.opFor(id)?.status,
        'PROCESSING',
        'followed, shown as the service says',
      );
      await ext.testing.volumes.refresh();
      const row = (await ext.views.volumes.getChildren(undefined))?.find(
        (n) => n.kind === 'volume' && n.volume.id === id,
      );
      assert.ok(row, 'the volume is in the tree while it is created');
      const item = await ext.views.volumes.getTreeItem(row);
      assert.equal(item.label, 'stuckvol');
      assert.doesNotMatch(String(item.description), /\bready\b|\bavailable\b/i, 'not shown as ready');
      assert.deepEqual(
        (await changes()).filter((m) => m.startsWith('POST')),
        ['POST /storage/create -> 202'],
        'one create; the rest are polls',
      );
    },
    'volume-failed': async () => {
      const mark = spy.notifications.length;
      await control.config({ pendingMs: 1500 });
      const id = await volumeCreate('failvol');
      const op = ext.testing.volumes.opFor(id);
      assert.ok(op, 'the create is followed');
      const [info] = (await control.log()).filter((e) => e.path.startsWith('/request/info/'));
      const requestId = info?.path.split('/').pop();
      assert.ok(requestId);
      await control.fault(failedVolumeRequest(requestId, 'no capacity in this region'));
      await until('the failure is told', () =>
        spy
          .since(mark)
          .some(
            (n) => n.severity === 'error' && /failvol failed: no capacity in this region/.test(n.message),
          ),
      );
      assert.equal(ext.testing.volumes.opFor(id), undefined, 'no longer shown as in progress');
    },
    'volume-list-500': async () => {
      await ext.testing.volumes.refresh();
      await control.clearLog();
      await control.fault({
        method: 'GET',
        path: '/storage/list',
        status: 500,
        body: { message: 'volume service down' },
        times: -1,
      });
      await ext.testing.volumes.refresh();
      const [row] = (await ext.views.volumes.getChildren(undefined)) ?? [];
      assert.equal(row?.kind, 'error');
      const item = await ext.views.volumes.getTreeItem(row);
      assert.equal(item.label, 'Could not load volumes');
      assert.match(String(item.description), /volume service down/);
      assert.equal(item.command?.command, 'tensorpool.refreshVolumes', 'the row retries');
      assert.equal((await control.calls('GET', '/storage/list')).length, 4, 'the GET was retried');
      assert.deepEqual(await changes(), [], 'only GETs');
      await control.clearFaults();
      await vscode.commands.executeCommand(item.command.command);
      const [after] = (await ext.views.volumes.getChildren(undefined)) ?? [];
      assert.notEqual(after?.kind, 'error', 'the retry worked');
    },
    'health-outdated': async () => {
      // A volume create the service never finishes is being followed when the refusal comes.
      await control.config({ stuck: true });
      const followed = await volumeCreate('refusedvol');
      await until('the create is polled', async () =>
        (await control.log()).some((e) => e.path.startsWith('/request/info/')),
      );
      await control.clearLog();
      const warned = spy.notifications.length;
      const healthOutdated = async () => {
        ext.setPrompter(new ScriptedPrompter([ESCAPE]));
        await ext.testing.initializeAccount();
        await accountIs(ext, 'outdated');
        assert.match(ext.testing.statusBar.text, /Update Needed/);
        assert.equal(ext.testing.statusBar.command, 'tensorpool.retryAccountCheck');
        // The account's requests. GET /request/info polls are left out: they follow the stuck create until the
        // refusal (and volume-stuck's, when that test ran first).
        const all = async () =>
          (await control.log()).filter((e) => e.method !== 'WS').map((e) => `${e.method} ${e.path}`);
        const calls = async () => (await all()).filter((c) => !c.startsWith('GET /request/info/'));
        // This version was not refused before: GET /me (and the list, were the view showing) went out alongside
        // POST /health, once each; their answers sign nobody in.
        await until('the /me sent alongside answered', async () => (await calls()).includes('GET /me'));
        const first = await calls();
        assert.equal(first.filter((c) => c === 'POST /health').length, 1);
        assert.equal(first.filter((c) => c === 'GET /me').length, 1);
        assert.ok(
          first.every((c) => ['POST /health', 'GET /me', 'GET /cluster/list'].includes(c)),
          `${first}`,
        );
        assert.equal(ext.store.account.kind, 'outdated');
        // The follower stops at its next poll, and says so.
        await until('the stuck create is no longer followed', () => !ext.testing.volumes.opFor(followed));
        const stopped = spy.since(warned).find((n) => /refusedvol/.test(n.message));
        assert.match(stopped?.message ?? '', /refused this version of the extension/, 'the warning says why');
        await control.clearLog();
        await ext.refresh();
        await sleep(2500); // longer than a follower's 2 s between polls
        assert.deepEqual(await all(), [], 'nothing else is sent to a service that refused this version');
        // The next check remembers the refusal: POST /health alone.
        await ext.testing.initializeAccount();
        await accountIs(ext, 'outdated');
        assert.deepEqual(
          await calls(),
          ['POST /health'],
          'a version refused last time asks for nothing alongside',
        );
      };
      await control.config({ minClientVersion: '99.0.0' });
      try {
        await healthOutdated();
      } finally {
        // A failure above must not leave the engine refusing this version to the tests that follow.
        await control.config({ minClientVersion: null });
      }
      await vscode.commands.executeCommand('tensorpool.retryAccountCheck');
      await accountIs(ext, 'signedIn');
    },
    'health-500': async () => {
      await control.fault({ method: 'POST', path: '/health', status: 500, times: -1 });
      await ext.testing.initializeAccount();
      await accountIs(ext, 'signedIn', 20_000);
      assert.ok(
        ext.testing.logTail.some((l) => /Health check not answered/.test(l)),
        'the log says the check went unanswered',
      );
      assert.doesNotMatch(ext.testing.statusBar.text, /Update Needed/, 'not mistaken for a refusal');
    },
  };

  for (const [kind, run] of Object.entries(kinds) as Array<[OperationFaultKind, () => Promise<void>]>) {
    ledger.cover(test(`${kind}: ${OPERATION_FAULT_KINDS[kind]}`, run), faultSubject(kind));
  }
});
