// Jobs in the real extension host: running a job file on a cluster through the scripted prompter (the
// exact WebSocket messages in order, the service's command run in the job file's folder after consent and
// never in an untrusted workspace), the log streamed into the job's terminal, the Jobs view, cancel,
// delete, pull (byte-identical files, a `../` path refused) and a lost connection that is never resubmitted.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { JobNode } from '../../src/vscode/views/jobsTree';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { engine } from './helpers';

const JOBS = { pendingMs: 100, lineMs: 30, cancelMs: 400, lines: 3, outputBytes: 5000 };
const JOB_FILE = `commands = ["python train.py", "python eval.py"]
outputs = ["checkpoints/", "results.json"]
`;

interface WsEntry {
  method: string;
  path: string;
  url?: string;
  ws?: string;
  body: unknown;
  status: number | null;
  query: Record<string, string>;
  authorization: string | null;
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for: ${what}`);
    await sleep(100);
  }
}

const wsLog = async (p = '/job/push') =>
  ((await control.log()) as unknown as WsEntry[]).filter((e) => e.method === 'WS' && e.path === p);

/** How many connections were opened on this WebSocket path. */
const upgrades = async (p = '/job/push') => (await wsLog(p)).filter((e) => e.ws === 'upgrade').length;

type Outcome = { kind: string; jobId?: string; reason?: string };

suite('Jobs: run a job file, follow, cancel, delete, pull', () => {
  let ext: TensorPoolExtensionApi;
  let folder: string;
  let jobFile: vscode.Uri;
  let clusterLabel: string;

  const jobRows = async (): Promise<JobNode[]> => (await ext.views.jobs.getChildren(undefined)) ?? [];
  const run = (script: string[]) => {
    const p = new ScriptedPrompter(script);
    ext.setPrompter(p);
    return {
      p,
      outcome: vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', jobFile),
    };
  };
  const WIZARD = () => [clusterLabel, 'Keep the cluster', 'Run job'];
  const statusOf = async (id: string) => {
    await ext.testing.jobs.refresh();
    return ext.testing.jobs.find(id)?.status;
  };

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ jobs: JOBS });
    await fetch(`${engine.url}/_engine/seed`, {
      method: 'POST',
      body: JSON.stringify({ clusters: 1, prefix: 'gpu' }),
    });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await ext.refresh();
    const c = ext.store.clusters.data?.clusters?.[0];
    assert.ok(c, 'a cluster to run on');
    clusterLabel = c.name ?? c.id;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    folder = path.join(root, 'jobs-itest');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'train.tp.toml'), JOB_FILE);
    jobFile = vscode.Uri.file(path.join(folder, 'train.tp.toml'));
  });
  suiteTeardown(() => rmSync(folder, { recursive: true, force: true }));
  teardown(async () => {
    ext.setPrompter(undefined);
    ext.testing.configure({});
    await control.clearFaults();
    await control.config({ jobs: JOBS, answers: { jobList: null } });
  });

  let submitted = '';

  test('runs on the picked cluster: token first, the command in the file folder after consent, the log in the terminal', async () => {
    await control.clearLog();
    rmSync(path.join(folder, '.tp-upload-marker'), { force: true });
    const { p, outcome } = run([...WIZARD(), 'Run']);
    const out = await outcome;
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    submitted = out.jobId ?? '';
    assert.match(submitted, /^job_/);
    const consent = p.shown.find((s) => s.kind === 'confirm');
    assert.ok(consent, 'asked before running the command');
    assert.match(consent.detail ?? '', /\.tp-upload-marker/);
    assert.ok(consent.detail?.includes(folder), 'the dialog names the folder');
    // The command ran in the job file's folder (the engine's command writes the job id there).
    assert.equal(readFileSync(path.join(folder, '.tp-upload-marker'), 'utf8').trim(), submitted);

    const log = await wsLog();
    assert.deepEqual(
      log.map((e) => e.ws),
      ['upgrade', 'message', 'message', 'message', 'close'],
    );
    assert.deepEqual(log[1].body, { TENSORPOOL_KEY: '[redacted]' });
    assert.equal((log[2].body as { tp_config?: string }).tp_config, JOB_FILE);
    assert.equal(
      (log[2].body as { cluster_id?: string }).cluster_id,
      ext.store.clusters.data?.clusters?.[0].id,
    );
    assert.equal((log[3].body as { type?: string; exit_code?: number }).exit_code, 0);
    assert.equal(log[0].url, '/job/push');
    assert.deepEqual(log[0].query, {});
    assert.equal(log[0].authorization, null);
    assert.ok(!JSON.stringify(await control.log()).includes(engine.token), 'no token in the engine log');

    // Every log line streams into the job's terminal.
    const expected = [
      '$ python train.py',
      ...[1, 2, 3].map((k) => `[${submitted}] python train.py: line ${k} of 3`),
      '$ python eval.py',
      ...[1, 2, 3].map((k) => `[${submitted}] python eval.py: line ${k} of 3`),
    ];
    await until('every line in the terminal', () =>
      expected.every((l) => ext.testing.terminalText().includes(l)),
    );
    await until('completed in the Jobs view', async () => (await statusOf(submitted)) === 'completed');
    const row = (await jobRows()).find((n) => n.kind === 'job' && n.job.id === submitted);
    assert.ok(row);
    const item = await ext.views.jobs.getTreeItem(row);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass');
    assert.match(String(item.description), /^completed · /);
    assert.equal(item.contextValue, 'job completed terminal');

    // The job file's lenses: Run on Cluster… and, now that a job was started from it, Show Last Run.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      jobFile,
    );
    const last = lenses.find((l) => l.command?.title === 'Show Last Run')?.command;
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['$(play) Run on Cluster…', 'Show Last Run'],
    );
    assert.deepEqual([last?.command, last?.arguments], ['tensorpool.followJob', [submitted]]);
  });

  test('the second run preselects the last cluster and "Run and don\'t ask again" is remembered', async () => {
    const { p, outcome } = run([
      '<accept>',
      'Keep the cluster',
      'Run job',
      "Run and Don't Ask Again for This Workspace",
    ]);
    assert.equal((await outcome).kind, 'submitted');
    assert.equal(p.shown[0].active, clusterLabel, 'the cluster last used for this file is preselected');
    const again = run([...WIZARD()]);
    assert.equal((await again.outcome).kind, 'submitted');
    assert.equal(again.p.shown.filter((s) => s.kind === 'confirm').length, 0, 'not asked again');
  });

  test('an untrusted workspace never runs the command: nothing is written, the submission is refused', async () => {
    ext.testing.configure({ isTrusted: () => false });
    rmSync(path.join(folder, '.tp-upload-marker'), { force: true });
    await control.clearLog();
    const { p, outcome } = run([...WIZARD(), ESCAPE, ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'refused');
    assert.ok(!existsSync(path.join(folder, '.tp-upload-marker')), 'the command did not run');
    assert.ok(!p.shown.some((s) => s.kind === 'confirm' && /run a command/.test(s.message ?? '')));
    assert.ok(
      p.shown.some(
        (s) => s.kind === 'confirm' && /because this workspace is not trusted/.test(s.message ?? ''),
      ),
      'the user is told why',
    );
    const result = (await wsLog()).find((e) => (e.body as { type?: string })?.type === 'command_result');
    assert.notEqual((result?.body as { exit_code?: number }).exit_code, 0);
  });

  test('a connection lost during the push (1006) shows the unknown outcome and never pushes again', async () => {
    await control.clearLog();
    await control.fault({ method: 'WS', path: '/job/push', action: 'terminate', afterMessages: 1 });
    const { p, outcome } = run([...WIZARD(), ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'unknown');
    const shown = p.shown.find((s) => s.kind === 'confirm');
    assert.match(shown?.message ?? '', /may or may not exist/);
    assert.deepEqual(shown?.items, ['Show Jobs']);
    await sleep(1000);
    assert.equal(await upgrades(), 1, 'one push only');
  });

  test('a refusal shows the service reason; no terminal follows a job that was not submitted', async () => {
    await control.clearLog();
    await control.fault({
      method: 'WS',
      path: '/job/push',
      action: 'close',
      closeCode: 4503,
      reason: 'Cluster is busy: try again later',
    });
    const { p, outcome } = run([...WIZARD(), ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'refused');
    assert.equal(
      p.shown.find((s) => s.kind === 'confirm')?.message,
      'TensorPool refused the job train.tp.toml: Cluster is busy: try again later',
    );
    await sleep(500);
    assert.equal(await upgrades(), 1, 'not retried');
    assert.equal(
      ((await control.log()) as unknown as WsEntry[]).filter((e) => e.path.startsWith('/job/listen/')).length,
      0,
      'nothing to follow',
    );
  });

  test('Follow Logs on a job already followed opens no second connection; a finished job can be followed again', async () => {
    await control.config({ jobs: { ...JOBS, lineMs: 400 } });
    const { outcome } = run([...WIZARD()]);
    const id = (await outcome).jobId!;
    const listens = () => upgrades(`/job/listen/${id}`);
    await until('the submission is followed', async () => (await listens()) === 1);
    const again = vscode.commands.executeCommand('tensorpool.followJob', id);
    await sleep(1000);
    assert.equal(await listens(), 1, 'one follower per job');
    await again;
    await until('completed', async () => (await statusOf(id)) === 'completed');
    const before = ext.testing.terminalText().split(`[${id}] python eval.py: line 3 of 3`).length;
    await vscode.commands.executeCommand('tensorpool.followJob', id);
    assert.equal(await listens(), 2, 'a finished job is followed anew');
    const after = ext.testing.terminalText().split(`[${id}] python eval.py: line 3 of 3`).length;
    assert.equal(after, before + 1, 'the whole log again, in a new terminal');
  });

  test('a dropped log stream reconnects with a note in the terminal, and no line is shown twice', async () => {
    await control.config({ jobs: { ...JOBS, lineMs: 150 } });
    await control.clearLog();
    await control.fault({
      method: 'WS',
      path: '/job/listen/*',
      action: 'terminate',
      afterMessages: 3,
      times: 1,
    });
    const { outcome } = run([...WIZARD()]);
    const id = (await outcome).jobId!;
    const last = `[${id}] python eval.py: line 3 of 3`;
    await until('the whole log after the reconnect', () => ext.testing.terminalText().includes(last));
    const text = ext.testing.terminalText();
    assert.match(text, /Connection to the log lost; reconnecting/);
    for (const k of [1, 2, 3])
      assert.equal(text.split(`[${id}] python train.py: line ${k} of 3`).length, 2, `line ${k} once`);
    assert.equal(await upgrades('/job/push'), 1, 'a reconnect is never a push');
    assert.equal(await upgrades(`/job/listen/${id}`), 2, 'one reconnect');
  });

  test('cancel asks, then waits until the job is canceled', async () => {
    await control.config({ jobs: { ...JOBS, lineMs: 1000 } });
    const { outcome } = run([...WIZARD()]);
    const out = await outcome;
    assert.equal(out.kind, 'submitted');
    const id = out.jobId!;
    ext.setPrompter(new ScriptedPrompter(['Cancel Job']));
    const state = await vscode.commands.executeCommand<string>('tensorpool.cancelJob', id);
    assert.equal(state, 'canceled');
    assert.equal((await control.calls('POST', `/job/cancel/${id}`)).length, 1);
    assert.equal(await statusOf(id), 'canceled');

    ext.setPrompter(new ScriptedPrompter(['Delete']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.deleteJob', id), true);
    assert.equal(ext.testing.jobs.find(id), undefined, 'gone from the list');
  });

  test('pull: files byte-identical to what the engine serves, a `../` path refused', async () => {
    await control.config({ jobs: { ...JOBS, extraOutputs: { '../escape.txt': 'x' } } });
    const { outcome } = run([...WIZARD()]);
    const out = await outcome;
    const id = out.jobId!;
    await until('completed', async () => (await statusOf(id)) === 'completed');
    const target = path.join(folder, 'outputs', id);
    const p = new ScriptedPrompter(['<accept>', 'Download']);
    ext.setPrompter(p);
    const res = await vscode.commands.executeCommand<{
      written: string[];
      refused: { path: string }[];
    }>('tensorpool.pullJobOutputs', id);
    assert.equal(p.shown[0].value, target, 'the default folder is outputs/<job id> beside the job file');
    assert.match(p.shown[1].detail ?? '', /results\.json \(4\.9 KB\)/);
    assert.deepEqual(res.written.sort(), ['checkpoints/result.bin', 'results.json']);
    assert.deepEqual(
      res.refused.map((r) => r.path),
      ['../escape.txt'],
    );
    assert.ok(!existsSync(path.join(folder, 'outputs', 'escape.txt')));
    const plan = (await (
      await fetch(`${engine.url}/job/pull/${id}?system=linux&dry_run=true`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { download_map: Record<string, string> };
    for (const f of res.written) {
      const served = Buffer.from(await (await fetch(plan.download_map[f])).arrayBuffer());
      assert.ok(readFileSync(path.join(target, f)).equals(served), `${f} is byte-identical`);
    }
  });

  test('pull: a download cut off every time fails without a file under its name or a partial file left', async () => {
    const { outcome } = run([...WIZARD()]);
    const id = (await outcome).jobId!;
    await until('completed', async () => (await statusOf(id)) === 'completed');
    // Every output download sends half its body, then drops the connection (retried, then given up).
    await control.fault({ method: 'GET', path: `/job/output/${id}/*`, action: 'truncate', times: -1 });
    const target = path.join(folder, 'outputs', id);
    ext.setPrompter(new ScriptedPrompter(['<accept>', 'Download']));
    const res = await vscode.commands.executeCommand<{ written: string[]; failed: { path: string }[] }>(
      'tensorpool.pullJobOutputs',
      id,
    );
    assert.deepEqual(res.written, []);
    assert.deepEqual(res.failed.map((f) => f.path).sort(), ['checkpoints/result.bin', 'results.json']);
    const left = existsSync(target) ? readdirSync(target, { recursive: true }).map(String) : [];
    assert.deepEqual(
      left.filter((f) => !f.endsWith('checkpoints')),
      [],
      'no final-named file and no .part file',
    );
  });

  test("pull on a running job runs the service's sync command in the chosen folder", async () => {
    await control.config({ jobs: { ...JOBS, lineMs: 1000 } });
    const { outcome } = run([...WIZARD()]);
    const id = (await outcome).jobId!;
    await until('running', async () => (await statusOf(id)) === 'running');
    ext.setPrompter(new ScriptedPrompter(['<accept>']));
    const res = await vscode.commands.executeCommand<{ exitCode: number }>('tensorpool.pullJobOutputs', id);
    assert.deepEqual(res, { exitCode: 0 });
    const marker = path.join(folder, 'outputs', id, '.tp-pull-marker');
    assert.equal(readFileSync(marker, 'utf8').trim(), `pulled ${id}`, 'ran in outputs/<job id>');
  });

  test('pull: a command that hides text or is too long to read is never run, even when running is allowed', async () => {
    const { outcome } = run([...WIZARD()]);
    const id = (await outcome).jobId!;
    await until('listed', async () => (await statusOf(id)) !== undefined);
    const marker = path.join(folder, 'outputs', id, '.tp-hidden-marker');
    const hidden = [
      'echo pwned > .tp-hidden-marker \u202e# rsync outputs',
      'echo pwned > .tp-hidden-marker \u001b[8m; rsync outputs',
      `echo pwned > .tp-hidden-marker #${'x'.repeat(10_001)}`,
    ];
    for (const command of hidden) {
      await control.fault({
        method: 'GET',
        path: `/job/pull/${id}`,
        times: -1,
        status: 200,
        body: { command },
      });
      const p = new ScriptedPrompter(['<accept>']);
      ext.setPrompter(p);
      const res = await vscode.commands.executeCommand<{ exitCode: number }>('tensorpool.pullJobOutputs', id);
      await control.clearFaults();
      assert.deepEqual(res, { exitCode: 126 }, JSON.stringify(command.slice(0, 60)));
      assert.equal(
        p.shown.filter((s) => s.kind === 'confirm').length,
        0,
        'nothing asked: it cannot be shown',
      );
      assert.ok(!existsSync(marker), 'the command did not run');
      assert.match(
        ext.testing.terminalText(),
        /Not run: the command the service sent \(\d+ characters\) is too long/,
      );
    }
  });

  test('a text-only job list shows the service text and the jobs read from it', async () => {
    await control.config({ answers: { jobList: { mode: 'text' } } });
    await ext.testing.jobs.refresh();
    const rows = await jobRows();
    assert.ok(
      rows.some((r) => r.kind === 'textLine'),
      'the text is shown',
    );
    assert.ok(
      rows.some((r) => r.kind === 'job' && r.job.source === 'text'),
      'jobs read from it',
    );
  });
});
