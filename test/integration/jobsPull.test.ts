// Pull Outputs against real jobs: an ended job's files are byte-identical to what the job wrote on its node
// (and to what the service serves), a `../` path is refused, a cut-off download leaves nothing, a job that
// wrote no outputs says so, and a running job's pull runs the service's real rsync from the node into the
// chosen folder (never outside it). Hostile commands are never run.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { PROJECT, TRAIN_JOB, ticksJob } from '../fixtures/jobProject';
import { control } from './control';
import { engine } from './helpers';
import { until, useJobKit } from './jobKit';
import { jobDir } from './realCluster';

type PullResult = { written: string[]; refused: { path: string }[]; failed: { path: string }[] };

suite('Jobs: pull the outputs of real jobs', () => {
  const kit = useJobKit('jobs-pull-itest', 'jobs-pull-itest');
  const pullPlan = async (id: string) =>
    (await (
      await fetch(`${engine.url}/job/pull/${id}?system=linux&dry_run=true`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { download_map: Record<string, string>; file_sizes: Record<string, number> };

  async function completedTrainJob(): Promise<string> {
    const { outcome } = kit.run(kit.jobFile('train.tp.toml', TRAIN_JOB, PROJECT));
    const id = (await outcome).jobId!;
    await until('completed', async () => (await kit.statusOf(id)) === 'completed');
    return id;
  }

  test('pull: byte-identical to the files the job wrote on its node; a `../` path refused', async () => {
    const id = await completedTrainJob();
    // The service also names a path outside the folder (a hostile answer): refused, never written.
    const plan = await pullPlan(id);
    await control.fault({
      method: 'GET',
      path: `/job/pull/${id}`,
      times: -1,
      status: 200,
      body: {
        download_map: { ...plan.download_map, '../escape.txt': plan.download_map['results.json'] },
        file_sizes: { ...plan.file_sizes, '../escape.txt': plan.file_sizes['results.json'] },
      },
    });
    const target = path.join(kit.folder, 'outputs', id);
    const p = new ScriptedPrompter(['<accept>', 'Download']);
    kit.ext.setPrompter(p);
    const res = await vscode.commands.executeCommand<PullResult>('tensorpool.pullJobOutputs', id);
    assert.equal(p.shown[0].value, target, 'the default folder is outputs/<job id> beside the job file');
    assert.deepEqual(res.written.sort(), ['checkpoints/model.bin', 'results.json']);
    assert.deepEqual(
      res.refused.map((r) => r.path),
      ['../escape.txt'],
    );
    assert.ok(!existsSync(path.join(kit.folder, 'outputs', 'escape.txt')));
    for (const f of res.written) {
      const wrote = readFileSync(path.join(jobDir(kit.cluster, id), f));
      assert.ok(readFileSync(path.join(target, f)).equals(wrote), `${f} is what the job wrote`);
      const served = Buffer.from(await (await fetch(plan.download_map[f])).arrayBuffer());
      assert.ok(served.equals(wrote), `${f} is what the service serves`);
    }
    assert.equal(readFileSync(path.join(target, 'checkpoints/model.bin')).length, 5000);
  });

  test('pull: a download cut off every time fails without a file under its name or a partial file left', async () => {
    const id = await completedTrainJob();
    await control.fault({ method: 'GET', path: `/job/output/${id}/*`, action: 'truncate', times: -1 });
    const target = path.join(kit.folder, 'outputs', id);
    kit.ext.setPrompter(new ScriptedPrompter(['<accept>', 'Download']));
    const res = await vscode.commands.executeCommand<PullResult>('tensorpool.pullJobOutputs', id);
    assert.deepEqual(res.written, []);
    assert.deepEqual(res.failed.map((f) => f.path).sort(), ['checkpoints/model.bin', 'results.json']);
    const left = existsSync(target) ? readdirSync(target, { recursive: true }).map(String) : [];
    assert.deepEqual(
      left.filter((f) => !f.endsWith('checkpoints')),
      [],
      'no final-named file and no .part file',
    );
  });

  test('pull: a job that wrote no outputs says so, and nothing is created', async () => {
    const toml = 'commands = ["echo nothing to keep"]\noutputs = ["checkpoints/", "results.json"]\n';
    const { outcome } = kit.run(kit.jobFile('empty.tp.toml', toml, {}));
    const id = (await outcome).jobId!;
    await until('completed', async () => (await kit.statusOf(id)) === 'completed');
    kit.ext.setPrompter(new ScriptedPrompter(['<accept>']));
    const res = await vscode.commands.executeCommand('tensorpool.pullJobOutputs', id);
    assert.deepEqual(res, { nothing: `Job ${id} has no outputs.` }, 'the message shown');
    assert.ok(!existsSync(path.join(kit.folder, 'outputs', id)), 'no folder made for nothing');
  });

  test("pull on a running job runs the service's real rsync from the node into the chosen folder", async () => {
    const toml = ticksJob(1000, 200, ' 1').replace('ignore', 'outputs = ["out/"]\nignore');
    const { outcome } = kit.run(kit.jobFile('partial.tp.toml', toml, PROJECT));
    const id = (await outcome).jobId!;
    const wrote = path.join(jobDir(kit.cluster, id), 'out', 'partial.txt');
    await until('running, its partial output written', async () => existsSync(wrote));
    await until('listed running', async () => (await kit.statusOf(id)) === 'running');
    const before = readdirSync(kit.folder).sort();
    kit.ext.setPrompter(new ScriptedPrompter(['<accept>']));
    try {
      const res = await vscode.commands.executeCommand<{ exitCode: number }>('tensorpool.pullJobOutputs', id);
      assert.deepEqual(res, { exitCode: 0 });
      const target = path.join(kit.folder, 'outputs', id);
      assert.ok(readFileSync(path.join(target, 'out', 'partial.txt')).equals(readFileSync(wrote)));
      assert.deepEqual(readdirSync(target), ['out'], 'only the outputs, into outputs/<job id>');
      const after = readdirSync(kit.folder).sort();
      assert.deepEqual(
        after.filter((f) => !before.includes(f)),
        before.includes('outputs') ? [] : ['outputs'],
        'nothing outside the chosen folder',
      );
    } finally {
      kit.ext.setPrompter(new ScriptedPrompter(['Cancel Job']));
      await vscode.commands.executeCommand('tensorpool.cancelJob', id);
    }
  });

  test('pull: a command that hides text or is too long to read is never run, even when running is allowed', async () => {
    const { outcome } = kit.run(kit.jobFile('train.tp.toml', TRAIN_JOB, PROJECT));
    const id = (await outcome).jobId!;
    await until('listed', async () => (await kit.statusOf(id)) !== undefined);
    const marker = path.join(kit.folder, 'outputs', id, '.tp-hidden-marker');
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
      kit.ext.setPrompter(p);
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
        kit.ext.testing.terminalText(),
        /Not run: the command the service sent \(\d+ characters\) is too long/,
      );
    }
  });
});
