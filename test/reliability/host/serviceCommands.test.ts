// A hostile service rewriting the command a push sends (the engine's `jobs.pushCommand` template), in the real
// extension host, after the user answered the first upload with Run and Don't Ask Again for This Workspace.
// Each hostile command would write a marker file on this machine (shown to work by running one through a
// shell first); none may appear. A tail after `;` or behind a run of blanks and line breaks is refused (no
// shell ever runs it); the service's own `-e` is replaced by the extension's ssh and the upload still works;
// a destination on another host or outside the home is asked about every time, showing the whole command;
// a command the user allowed ends when the push's socket closes (its whole process group). The upload checks the
// node's host key against the known_hosts Connect pins.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hostAlias } from '../../../src/config/sshHosts';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ALWAYS, PROJECT, ticksJob } from '../../fixtures/jobProject';
import { ACCEPT, ESCAPE, ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster, type RealCluster } from '../../integration/realCluster';
import { freshAccount } from './common';
import { control, sleep } from './util';

const CLUSTER = 'rel-commands';
type Outcome = { kind: string; jobId?: string; reason?: string; code?: number };

suite("Reliability: hostile upload commands from the service, after Don't Ask Again", () => {
  let ext: TensorPoolExtensionApi;
  let cluster: RealCluster;
  let folder: string;
  let scratch: string;
  let jobFile: vscode.Uri;

  const marker = (name: string) => path.join(scratch, name);
  /** An rsync -e that writes the marker (rsync runs it as its remote shell). */
  const evilRsh = (name: string) => `-e 'sh -c "echo pwned > ${marker(name)}"'`;

  async function push(after: string[], template: string): Promise<{ out: Outcome; p: ScriptedPrompter }> {
    await control.config({ jobs: { pushCommand: template } });
    const p = new ScriptedPrompter([CLUSTER, 'Keep the cluster', 'Run job', ...after]);
    ext.setPrompter(p);
    const out = await vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', jobFile);
    return { out, p };
  }
  /** The consent dialogs shown after the wizard. */
  const asked = (p: ScriptedPrompter) =>
    p.shown.filter((s) => s.kind === 'confirm' && /asks to run/.test(s.message ?? ''));

  async function noMarker(name: string): Promise<void> {
    await sleep(1500); // time for anything that did run to write
    assert.ok(!existsSync(marker(name)), `the hostile command ran: ${marker(name)} exists`);
  }

  suiteSetup(async function () {
    this.timeout(120_000);
    ext = await freshAccount();
    cluster = await realCluster(CLUSTER);
    await ext.refresh();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    folder = path.join(root, 'reliability-commands');
    for (const [rel, text] of Object.entries(PROJECT)) {
      mkdirSync(path.dirname(path.join(folder, rel)), { recursive: true });
      writeFileSync(path.join(folder, rel), text);
    }
    writeFileSync(path.join(folder, 'train.tp.toml'), ticksJob(2, 100));
    jobFile = vscode.Uri.file(path.join(folder, 'train.tp.toml'));
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tp-commands-hostile-'));
    // A workspace where nothing was allowed yet (an earlier file in this host may have said Don't Ask Again).
    await ext.testing.workspaceState.update('tensorpool.localCommandsAllowed', undefined);
    // The user allows the (real, understood) upload for good.
    const { out, p } = await push([ALWAYS], '');
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    assert.deepEqual(asked(p)[0]?.items, ['Run', ALWAYS]);
    // The upload used the host keys Connect pins: the node's key is in our known_hosts, under the cluster's alias.
    const knownHosts = path.join(os.homedir(), '.ssh', 'tensorpool', 'known_hosts');
    const alias = `${hostAlias(CLUSTER, 1)}.${cluster.id}`;
    const found = spawnSync('ssh-keygen', ['-F', alias, '-f', knownHosts], { encoding: 'utf8' });
    assert.equal(found.status, 0, `${alias} is not in ${knownHosts}: ${found.stderr}`);
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await control.config({ jobs: { pushCommand: '', answerMs: 60_000 } });
  });
  suiteTeardown(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  test('a hostile -e writes its marker when a shell runs the command (the markers below mean something)', () => {
    const r = spawnSync('sh', ['-c', `rsync -az ${evilRsh('proof')} ./ root@127.0.0.1:x/ ; true`], {
      cwd: folder,
      timeout: 20_000,
    });
    assert.equal(r.error, undefined);
    assert.ok(existsSync(marker('proof')), 'the shell ran the -e command');
  });

  test('a command with a shell tail after the allowed rsync is refused unasked, and never run', async () => {
    const { out, p } = await push([], `{command} ; echo pwned > ${marker('tail')}`);
    assert.equal(out.kind, 'refused', JSON.stringify(out));
    assert.equal(asked(p).length, 0, 'nothing was asked');
    assert.match(
      ext.testing.terminalText(),
      /needs a shell, and commands from the service never run through one/,
    );
    await noMarker('tail');
  });

  test("the service's own -e is replaced by the extension's ssh: the upload works, the -e never runs", async () => {
    const { out, p } = await push([], `rsync -az ${evilRsh('rsh')} ./ {user}@{host}:jobs/{job}/`);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    assert.equal(asked(p).length, 0, "the understood shape is covered by Don't Ask Again");
    assert.ok(existsSync(path.join(cluster.nodeDir, 'home', 'jobs', out.jobId!, 'ticks.js')), 'uploaded');
    await noMarker('rsh');
  });

  test('a destination on another host is asked about every time, the whole command shown; no runs it', async () => {
    const { out, p } = await push([ESCAPE], `rsync -az ${evilRsh('host')} ./ {user}@127.0.0.2:jobs/{job}/`);
    assert.equal(out.kind, 'refused', JSON.stringify(out));
    const q = asked(p);
    assert.equal(q.length, 1, 'asked, although "don\'t ask again" was chosen');
    assert.deepEqual(q[0].items, ['Run'], 'never allowed for good');
    assert.ok(q[0].detail?.includes(`echo pwned > ${marker('host')}`), q[0].detail);
    assert.match(q[0].detail ?? '', /127\.0\.0\.2 is not a node of the job's cluster/);
    await noMarker('host');
  });

  test('a destination outside the home is asked about every time; no runs it', async () => {
    for (const [name, dest] of [
      ['abs', '{user}@{host}:/tmp/tp-outside/'],
      ['up', '{user}@{host}:~/../outside/'],
    ]) {
      const { out, p } = await push([ESCAPE], `rsync -az ${evilRsh(name)} ./ ${dest}`);
      assert.equal(out.kind, 'refused', JSON.stringify(out));
      assert.equal(asked(p).length, 1, dest);
      assert.deepEqual(asked(p)[0].items, ['Run']);
      await noMarker(name);
    }
  });

  test('a payload pushed below the dialog by runs of spaces and line breaks is refused or shown', async () => {
    const pad = ' '.repeat(400);
    // Line breaks: a shell would run the last line; no shell runs anything.
    const lines = await push([], `{command}${pad}${'\n'.repeat(60)}echo pwned > ${marker('lines')}`);
    assert.equal(lines.out.kind, 'refused', JSON.stringify(lines.out));
    assert.equal(asked(lines.p).length, 0);
    await noMarker('lines');
    // Spaces only, to another host: asked, and the tail is in the words shown, with no run of blanks.
    const spaces = await push(
      [ESCAPE],
      `rsync -az ./ {user}@127.0.0.2:jobs/{job}/${pad}${evilRsh('spaces')}`,
    );
    assert.equal(spaces.out.kind, 'refused', JSON.stringify(spaces.out));
    const detail = asked(spaces.p)[0]?.detail ?? '';
    assert.ok(detail.includes(`echo pwned > ${marker('spaces')}`), detail);
    assert.ok(!/ {2}/.test(detail), 'no run of spaces hides anything');
    await noMarker('spaces');
    // Spaces only, to the node: the padded -e is dropped like any other, the upload runs with our ssh.
    const node = await push([], `{command}${pad}${evilRsh('padded')}`);
    assert.equal(node.out.kind, 'submitted', JSON.stringify(node.out));
    await noMarker('padded');
  });

  test('a command the user ran ends, its whole process group, when the push socket closes', async () => {
    // Allowed once by the user (asked: not the understood shape). The outer shell waits on an inner one that
    // would write the marker after 4 s: ending only the outer shell would leave the inner one to write it.
    const late = `sh -c 'sh -c "sleep 4; echo pwned > ${marker('late')}" & wait'`;
    await control.config({ jobs: { answerMs: 1500 } }); // the service gives up waiting, and closes
    const { out, p } = await push(['Run'], late);
    assert.equal(out.kind, 'refused', JSON.stringify(out));
    assert.equal(out.code, 4408, JSON.stringify(out));
    assert.equal(asked(p).length, 1);
    for (let i = 0; i < 60 && !/The command was stopped\./.test(ext.testing.terminalText()); i++)
      await sleep(100);
    assert.match(ext.testing.terminalText(), /The command was stopped\./);
    await sleep(4000);
    await noMarker('late');
  });

  test('a command the user ran gets no credential variable of the extension host', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      TENSORPOOL_KEY: 'tp-env-key',
      TENSORPOOL_API_KEY: 'tp-env-api',
      MY_TOKEN: 'tp-t',
    });
    try {
      const { out } = await push(['Run'], `sh -c 'env > ${marker('env')}'`);
      assert.notEqual(out.kind, 'not-sent', JSON.stringify(out));
      const env = readFileSync(marker('env'), 'utf8');
      assert.match(env, /^PATH=/m, 'the command ran');
      assert.doesNotMatch(env, /TENSORPOOL_KEY|TENSORPOOL_API_KEY|MY_TOKEN|tp-env-/);
    } finally {
      for (const k of ['TENSORPOOL_KEY', 'TENSORPOOL_API_KEY', 'MY_TOKEN'])
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
    }
  });

  test("Pull Outputs: the running job's sync with a shell tail is refused; with a hostile -e it runs with our ssh", async () => {
    writeFileSync(path.join(folder, 'long.tp.toml'), ticksJob(1000, 200));
    const p = new ScriptedPrompter([CLUSTER, 'Keep the cluster', 'Run job']);
    ext.setPrompter(p);
    const long = vscode.Uri.file(path.join(folder, 'long.tp.toml'));
    const out = await vscode.commands.executeCommand<Outcome>('tensorpool.runJobFile', long);
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    const id = out.jobId!;
    try {
      for (let i = 0; i < 100; i++) {
        await ext.testing.jobs.refresh();
        if (ext.testing.jobs.find(id)?.status === 'running') break;
        await sleep(200);
      }
      const pull = async (template: string) => {
        await control.config({ jobs: { pullCommand: template } });
        const q = new ScriptedPrompter([ACCEPT]);
        ext.setPrompter(q);
        const r = await vscode.commands.executeCommand<{ exitCode: number }>('tensorpool.pullJobOutputs', id);
        return { r, q };
      };
      const tail = await pull(`{command} ; echo pwned > ${marker('pull-tail')}`);
      assert.deepEqual(tail.r, { exitCode: 126 });
      assert.equal(asked(tail.q).length, 0, 'nothing was asked');
      await noMarker('pull-tail');
      const rsh = await pull(`rsync -az ${evilRsh('pull-rsh')} {user}@{host}:jobs/{job}/ ./`);
      assert.deepEqual(rsh.r, { exitCode: 0 }, ext.testing.terminalText().slice(-800));
      assert.equal(asked(rsh.q).length, 0, "the understood shape is covered by Don't Ask Again");
      await noMarker('pull-rsh');
    } finally {
      await control.config({ jobs: { pullCommand: '' } });
      ext.setPrompter(new ScriptedPrompter(['Cancel Job']));
      await vscode.commands.executeCommand('tensorpool.cancelJob', id);
    }
  });
});
