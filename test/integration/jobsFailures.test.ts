// Real jobs that fail, and the messages that say so with nothing lost: a later command's non-zero exit
// (the rest skipped), a command killed by a signal, an upload the cluster refuses (not the user's key),
// and rsync or ssh missing on the user's machine (what to install). Each is shown failed or refused with
// the reason; no push is ever repeated.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PROJECT, TRAIN_JOB } from '../fixtures/jobProject';
import { ESCAPE } from '../fixtures/scriptedPrompter';
import { control } from './control';
import { until, upgrades, useJobKit } from './jobKit';
import { realCluster } from './realCluster';

const jobInfo = async (kit: ReturnType<typeof useJobKit>, id: string) => {
  await kit.ext.testing.jobs.refresh();
  return kit.ext.testing.jobs.find(id);
};

suite('Jobs: real failures, said clearly', () => {
  const kit = useJobKit('jobs-fail-itest', 'jobs-fail-itest');

  test("a later command's non-zero exit fails the job; the commands after it are skipped", async () => {
    const toml = 'commands = ["echo first-step-ran", "exit 3", "echo never-printed"]\n';
    const { outcome } = kit.run(kit.jobFile('exit3.tp.toml', toml));
    const id = (await outcome).jobId!;
    await until('failed', async () => (await kit.statusOf(id)) === 'failed');
    await until('the end in the terminal', () => /exit code 3/.test(kit.ext.testing.terminalText()));
    const text = kit.ext.testing.terminalText();
    assert.ok(text.includes('first-step-ran'), 'the first command ran');
    assert.ok(!text.includes('never-printed'), 'the rest was skipped');
    assert.equal((await jobInfo(kit, id))?.exitCode, 3);
  });

  test('a command killed by a signal fails the job, and the terminal says which signal', async () => {
    const toml = 'commands = ["echo before-the-signal; kill -KILL $$", "echo after-the-signal"]\n';
    const { outcome } = kit.run(kit.jobFile('signal.tp.toml', toml));
    const id = (await outcome).jobId!;
    await until('failed', async () => (await kit.statusOf(id)) === 'failed');
    await until('the signal in the terminal', () =>
      /killed by signal SIGKILL/.test(kit.ext.testing.terminalText()),
    );
    const text = kit.ext.testing.terminalText();
    assert.ok(text.includes('before-the-signal'));
    assert.ok(!text.includes('after-the-signal'));
    assert.equal((await jobInfo(kit, id))?.exitCode, 137, '128 + 9');
    // The Jobs view says which signal, too.
    const row = ((await kit.ext.views.jobs.getChildren(undefined)) ?? []).find(
      (n) => n.kind === 'job' && n.job.id === id,
    );
    assert.ok(row, 'listed');
    const views = kit.ext.views.jobs;
    const item = await views.getTreeItem(row);
    const tip = (await views.resolveTreeItem!(item, row, new vscode.CancellationTokenSource().token))
      ?.tooltip as vscode.MarkdownString;
    assert.match(tip.value, /Exit code: 137 \(killed by SIGKILL\)/);
  });

  test("an upload the cluster refuses (not the user's key) shows the job refused with ssh's own words", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'tp-other-key-'));
    try {
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(tmp, 'k')]);
      const other = execFileSync('cat', [path.join(tmp, 'k.pub')], { encoding: 'utf8' }).trim();
      const locked = await realCluster('jobs-locked-itest', [other]);
      await kit.ext.refresh();
      await control.clearLog();
      const script = [locked.name, 'Keep the cluster', 'Run job', 'Run', ESCAPE];
      const { p, outcome } = kit.run(kit.jobFile('train.tp.toml', TRAIN_JOB, PROJECT), script);
      const out = await outcome;
      assert.equal(out.kind, 'refused', JSON.stringify(out));
      const said = p.shown.find((s) => s.kind === 'confirm' && /refused the job/.test(s.message ?? ''));
      assert.match(
        said?.message ?? '',
        /Upload failed \(exit code \d+\)\. The upload said: .*Permission denied \(publickey\)/,
      );
      assert.match(kit.ext.testing.terminalText(), /Permission denied \(publickey\)/);
      const jobs = path.join(locked.nodeDir, 'home', 'jobs');
      const made = readdirSync(jobs);
      assert.deepEqual(readdirSync(path.join(jobs, made[0])), [], 'nothing arrived');
      const id = made[0];
      await until('shown failed', async () => (await kit.statusOf(id)) === 'failed');
      assert.equal(await upgrades(), 1, 'never pushed again');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  for (const missing of ['rsync', 'ssh'] as const) {
    test(`${missing} missing on this computer: the refusal says what to install`, async () => {
      // A PATH where only the other tool is found (the extension host's own environment, as a user's).
      const bin = mkdtempSync(path.join(os.tmpdir(), 'tp-path-'));
      for (const tool of ['rsync', 'ssh'].filter((t) => t !== missing))
        symlinkSync(
          execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(),
          path.join(bin, tool),
        );
      const saved = process.env.PATH;
      process.env.PATH = bin;
      try {
        await control.clearLog();
        const { p, outcome } = kit.run(kit.jobFile('train.tp.toml', TRAIN_JOB, PROJECT), [
          ...kit.wizard(),
          'Run',
          ESCAPE,
        ]);
        const out = await outcome;
        assert.equal(out.kind, 'refused', JSON.stringify(out));
        const said = p.shown.find((s) => s.kind === 'confirm' && /refused the job/.test(s.message ?? ''));
        assert.match(
          said?.message ?? '',
          new RegExp(`${missing} is not installed on this computer: install`),
        );
        assert.equal(await upgrades(), 1, 'never pushed again');
      } finally {
        process.env.PATH = saved;
        rmSync(bin, { recursive: true, force: true });
      }
    });
  }
});
