// Jobs in the real extension host, run for real on a cluster's node (the engine's sshd on 127.0.0.1):
// Run on Cluster… through the scripted prompter (the exact WebSocket messages in order; the service's
// upload command, a real rsync over ssh with the user's own key, run in the job file's folder after consent
// and never in an untrusted workspace), the program's real stdout and stderr streamed into the job's
// terminal, the Jobs view, following, a reconnect, cancel (no process left) and delete.
// Pulling is in jobsPull.test.ts, the failures in jobsFailures.test.ts.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JobNode } from '../../src/vscode/jobs/jobsTree';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { ALWAYS, PROJECT, TRAIN_JOB, ticksJob } from '../fixtures/jobProject';
import { control, sleep } from './control';
import { engine } from './helpers';
import { until, upgrades, useJobKit, wsLog } from './jobKit';
import { jobDir, processesIn } from './realCluster';
import { assertTextListing } from './textListing';
import { FIRST_RECONNECT_MS } from '../../src/api/jobFollow';

/** A push is sent once; the only job socket the extension opens later is a listen, and never sooner than
 *  the first backoff step after one dropped: half as long again shows none comes. */
const NOTHING_SOONER_MS = 1.5 * FIRST_RECONNECT_MS;

suite('Jobs: run a job file on a real node, follow, cancel, delete', () => {
  const kit = useJobKit('jobs-itest', 'jobs-itest');
  const jobRows = async (): Promise<JobNode[]> => (await kit.ext.views.jobs.getChildren(undefined)) ?? [];
  const train = () => kit.jobFile('train.tp.toml', TRAIN_JOB, PROJECT);

  test('runs on the picked cluster: token first, the real upload after consent, the real output in the terminal', async () => {
    await control.clearLog();
    const file = train();
    const { p, outcome } = kit.run(file, [...kit.wizard(), 'Run']);
    const out = await outcome;
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    const id = out.jobId ?? '';
    assert.match(id, /^job_/);
    const consent = p.shown.find((s) => s.kind === 'confirm');
    assert.ok(consent, 'asked before running the command');
    // The service's rsync, with the extension's own ssh (our known_hosts, a connection of its own) as -e.
    assert.match(
      consent.detail ?? '',
      /rsync -az .*--exclude=secret\.txt .*-e "ssh -p \d+ .*UserKnownHostsFile=.*ControlMaster=no -o ControlPath=none" \.\/ /,
    );
    assert.ok(consent.detail?.includes(kit.folder), 'the dialog names the folder');
    assert.ok(!consent.detail?.includes(engine.token), 'no token in the command');

    const log = await wsLog();
    assert.deepEqual(
      log.map((e) => e.ws),
      ['upgrade', 'message', 'message', 'message', 'close'],
    );
    assert.deepEqual(log[1].body, { TENSORPOOL_KEY: '[redacted]' });
    assert.equal((log[2].body as { tp_config?: string }).tp_config, TRAIN_JOB);
    assert.equal((log[2].body as { cluster_id?: string }).cluster_id, kit.cluster.id);
    assert.equal((log[3].body as { type?: string; exit_code?: number }).exit_code, 0);
    assert.equal(log[0].url, '/job/push');
    assert.deepEqual(log[0].query, {});
    assert.equal(log[0].authorization, null);
    assert.ok(!JSON.stringify(await control.log()).includes(engine.token), 'no token in the engine log');

    // The program's own lines, stdout and stderr, in the job's terminal.
    const expected = [
      '$ node train.js',
      'train: step=1 loss=0.91',
      'train: a warning on stderr',
      `train: on node ${kit.cluster.instanceId}`,
      '$ node eval.js',
      'eval: accuracy=0.93',
    ];
    await until('every line in the terminal', () =>
      expected.every((l) => kit.ext.testing.terminalText().includes(l)),
    );
    await until('completed in the Jobs view', async () => (await kit.statusOf(id)) === 'completed');
    const row = (await jobRows()).find((n) => n.kind === 'job' && n.job.id === id);
    assert.ok(row);
    const item = await kit.ext.views.jobs.getTreeItem(row);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass');
    assert.match(String(item.description), /^completed · /);
    assert.equal(item.contextValue, 'job completed terminal');
    // The upload left the ignored files behind; the job wrote its outputs beside the rest.
    assert.deepEqual(readdirSync(jobDir(kit.cluster, id)).sort(), [
      'checkpoints',
      'eval.js',
      'results.json',
      'ticks.js',
      'train.js',
      'train.tp.toml',
    ]);

    // The job file's lenses: Run on Cluster… and, now that a job was started from it, Show Last Run.
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      file,
    );
    const last = lenses.find((l) => l.command?.title === 'Show Last Run')?.command;
    assert.deepEqual(
      lenses.map((l) => l.command?.title),
      ['$(play) Run on Cluster…', 'Show Last Run'],
    );
    assert.deepEqual([last?.command, last?.arguments], ['tensorpool.followJob', [id]]);
  });

  test('the second run preselects the last cluster and "Run and don\'t ask again" is remembered', async () => {
    const file = train();
    const { p, outcome } = kit.run(file, ['<accept>', 'Keep the cluster', 'Run job', ALWAYS]);
    assert.equal((await outcome).kind, 'submitted');
    assert.equal(p.shown[0].active, kit.cluster.name, 'the cluster last used for this file is preselected');
    const again = kit.run(file, kit.wizard());
    assert.equal((await again.outcome).kind, 'submitted');
    assert.equal(again.p.shown.filter((s) => s.kind === 'confirm').length, 0, 'not asked again');
  });

  test('an untrusted workspace never runs the command: nothing is uploaded, the submission is refused', async () => {
    kit.ext.testing.configure({ isTrusted: () => false });
    const jobs = path.join(kit.cluster.nodeDir, 'home', 'jobs');
    const before = new Set(readdirSync(jobs));
    await control.clearLog();
    const { p, outcome } = kit.run(train(), [...kit.wizard(), ESCAPE, ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'refused');
    const created = readdirSync(jobs).filter((d) => !before.has(d));
    assert.equal(created.length, 1, 'the job folder the push made');
    assert.deepEqual(readdirSync(path.join(jobs, created[0])), [], 'nothing was uploaded');
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
    const { p, outcome } = kit.run(train(), [...kit.wizard(), ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'unknown');
    const shown = p.shown.find((s) => s.kind === 'confirm');
    assert.match(shown?.message ?? '', /may or may not exist/);
    assert.deepEqual(shown?.items, ['Show Jobs']);
    await sleep(NOTHING_SOONER_MS);
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
    const { p, outcome } = kit.run(train(), [...kit.wizard(), ESCAPE]);
    const out = await outcome;
    assert.equal(out.kind, 'refused');
    assert.equal(
      p.shown.find((s) => s.kind === 'confirm')?.message,
      'TensorPool refused the job train.tp.toml: Cluster is busy: try again later',
    );
    await sleep(NOTHING_SOONER_MS);
    assert.equal(await upgrades(), 1, 'not retried');
    assert.equal(
      ((await control.log()) as unknown as Array<{ path: string }>).filter((e) =>
        e.path.startsWith('/job/listen/'),
      ).length,
      0,
      'nothing to follow',
    );
  });

  test('Follow Logs on a job already followed opens no second connection; a finished job can be followed again', async () => {
    const { outcome } = kit.run(kit.jobFile('ticks.tp.toml', ticksJob(8, 250), PROJECT), kit.wizard());
    const id = (await outcome).jobId!;
    const listens = () => upgrades(`/job/listen/${id}`);
    await until('the submission is followed', async () => (await listens()) === 1);
    // Following a followed job shows its terminal and settles when that one following ends (the job completed).
    await vscode.commands.executeCommand('tensorpool.followJob', id);
    assert.equal(await listens(), 1, 'one follower per job');
    await until('completed', async () => (await kit.statusOf(id)) === 'completed');
    const count = () => kit.ext.testing.terminalText().split('tick 8 of 8').length;
    const before = count();
    await vscode.commands.executeCommand('tensorpool.followJob', id);
    assert.equal(await listens(), 2, 'a finished job is followed anew');
    assert.equal(count(), before + 1, 'the whole log again, in a new terminal');
  });

  test('a dropped log stream reconnects with a note in the terminal, and no line is shown twice', async () => {
    await control.clearLog();
    await control.fault({ method: 'WS', path: '/job/listen/*', action: 'terminate', afterMessages: 3 });
    // The tap holds every job terminal's text since the host started: this job's is what comes after `from`.
    const from = kit.ext.testing.terminalText().length;
    const mine = () => kit.ext.testing.terminalText().slice(from);
    // 4.8 s of ticks: the stream drops (after its third message) while the job still runs, even on a machine
    // so busy that the log is first read a second or two after the submission. (A drop after the job ended
    // gets the other note, 'the job has ended: reading the rest of its log'; client.jobFollow.test.ts tests
    // that reading.)
    const { outcome } = kit.run(kit.jobFile('ticks6.tp.toml', ticksJob(6, 800), PROJECT), kit.wizard());
    const id = (await outcome).jobId!;
    await until('the whole log after the reconnect', () => mine().includes('tick 6 of 6'));
    await until('completed', async () => (await kit.statusOf(id)) === 'completed');
    const text = mine();
    assert.match(text, /Connection to the log lost; reconnecting/, text);
    for (const k of [1, 2, 3, 4, 5, 6])
      assert.equal(text.split(`tick ${k} of 6`).length, 2, `tick ${k} once`);
    assert.equal(await upgrades('/job/push'), 1, 'a reconnect is never a push');
    assert.equal(await upgrades(`/job/listen/${id}`), 2, 'one reconnect');
  });

  test('cancel asks, then waits until the job is canceled: no process of it is left on the node', async () => {
    const { outcome } = kit.run(kit.jobFile('long.tp.toml', ticksJob(1000, 200), PROJECT), kit.wizard());
    const out = await outcome;
    assert.equal(out.kind, 'submitted');
    const id = out.jobId!;
    const dir = jobDir(kit.cluster, id);
    await until('running on the node', () => processesIn(dir).length > 0);
    await until('its output', () => kit.ext.testing.terminalText().includes('tick 2 of 1000'));
    kit.ext.setPrompter(new ScriptedPrompter(['Cancel Job']));
    const state = await vscode.commands.executeCommand<string>('tensorpool.cancelJob', id);
    assert.equal(state, 'canceled');
    assert.equal((await control.calls('POST', `/job/cancel/${id}`)).length, 1);
    assert.equal(await kit.statusOf(id), 'canceled');
    assert.deepEqual(processesIn(dir), [], 'no process of the job is left');

    kit.ext.setPrompter(new ScriptedPrompter(['Delete']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.deleteJob', id), true);
    assert.equal(kit.ext.testing.jobs.find(id), undefined, 'gone from the list');
    assert.ok(existsSync(kit.folder), 'the project is untouched');
  });

  test('a text-only job list shows the service text and the jobs read from it', async () => {
    await control.config({ answers: { jobList: { mode: 'text' } } });
    await kit.ext.testing.jobs.refresh();
    await assertTextListing(kit.ext.views.jobs, {
      label: 'Job list (text from the server)',
      command: 'tensorpool.showJobListText',
      text: new RegExp(kit.ext.testing.jobs.jobs[0]?.id ?? 'no job read'),
    });
    const rows = await jobRows();
    assert.ok(rows.length >= 2, 'the text row and the jobs');
    assert.ok(
      rows.some((r) => r.kind === 'job' && r.job.source === 'text'),
      'jobs read from it',
    );
  });
});
