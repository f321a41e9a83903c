// Open TensorBoard's start path against the engine's real nodes: with nothing on its port, the extension asks
// for the log folder, shows the `tensorboard --logdir …` command and asks before starting it in a terminal on
// the node (the ssh it builds), waits until it answers, forwards the port through the real tunnel and opens it; the
// page is fetched through that tunnel (a real GET). On a job row the job's folder on the node is the logdir
// offered. A stand-in `tensorboard` (first on the node's PATH) serves a page naming its logdir and the files
// in it. Declining starts nothing; closing the terminal ends the stand-in; no ssh is left.
//
// Every node here is 127.0.0.1 on this machine, where 6006 may be taken by another run: the suite sets
// tensorpool.ports.tensorBoardPort to a port that is free, which the commands shown and run must then use.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import type { JobNode } from '../../src/vscode/jobs/jobsTree';
import { ALWAYS } from '../fixtures/jobProject';
import { ACCEPT, ESCAPE, ScriptedPrompter, typeText } from '../fixtures/scriptedPrompter';
import { api, control } from './control';
import { signedInWithScratchHome, until, type EngineNode, type InstanceNode } from './nodes';
import { httpGet, nodeCluster, sshProcesses, type ForwardResult } from './portsHelpers';

/** A port nothing on this machine listens on now (the system's pick). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const TB_NAME = /^TensorBoard · node 1 of /;

/** Whether something on this machine accepts connections on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) =>
    net
      .connect(port, '127.0.0.1', function (this: net.Socket) {
        this.destroy();
        resolve(true);
      })
      .once('error', () => resolve(false)),
  );

suite('Open TensorBoard (real ssh, a stand-in tensorboard on the node)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let node: InstanceNode;
  let real: EngineNode;
  let clusterName: string;
  const browsed: vscode.Uri[] = [];
  const ours = () => sshProcesses(home);
  const pidFile = () => path.join(real.dir, 'tb.pid');

  /** The row the Clusters view shows for the forward, to stop it. */
  const forwardRows = async () =>
    ((await ext.views.clusters.getChildren(node)) ?? []).filter(
      (r): r is Extract<ClusterNode, { kind: 'portForward' }> => r.kind === 'portForward',
    );

  let TB_PORT: number;
  const settings = () => vscode.workspace.getConfiguration('tensorpool');

  suiteSetup(async () => {
    ext = await api();
    TB_PORT = await freePort();
    await settings().update('ports.tensorBoardPort', TB_PORT, vscode.ConfigurationTarget.Global);
    home = await signedInWithScratchHome(ext, 'tp-tb-home-', 'tp_node_key', {
      browse: async (uri) => void browsed.push(uri),
    });
    clusterName = 'tboard';
    ({ node, real } = await nodeCluster(ext, clusterName));
    // The job push runs rsync with the user's own key (the harness's agent): the node accepts it too.
    const userKey = process.env.TENSORPOOL_TEST_SSH_PUBKEY;
    assert.ok(userKey, 'run through the harness');
    fs.appendFileSync(path.join(real.dir, 'etc', 'authorized_keys'), `\n${userKey.trim()}\n`);
    // The stand-in: serves its logdir's name and listing on the --host/--port it is given.
    fs.writeFileSync(
      path.join(real.dir, 'tb.js'),
      `const a=process.argv.slice(2),o=(k)=>a[a.indexOf(k)+1],fs=require('fs');\n` +
        `fs.writeFileSync(process.env.TP_NODE_DIR+'/tb.pid',String(process.pid));\n` +
        `require('http').createServer((q,s)=>{let f=[];try{f=fs.readdirSync(o('--logdir'))}catch{}` +
        `s.end('TensorBoard logdir='+o('--logdir')+' files='+f.join(','))}).listen(Number(o('--port')),o('--host'));\n`,
    );
    fs.writeFileSync(
      path.join(real.dir, 'bin', 'tensorboard'),
      '#!/bin/sh\nexec node "$TP_NODE_DIR/tb.js" "$@"\n',
      { mode: 0o755 },
    );
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    for (const t of vscode.window.terminals.filter((x) => TB_NAME.test(x.name))) t.dispose();
    // The stand-in ends with its terminal's ssh (nothing left running on the node).
    if (fs.existsSync(pidFile())) {
      const pid = Number(fs.readFileSync(pidFile(), 'utf8'));
      await until(async () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 'the stand-in TensorBoard ended with its terminal');
      fs.rmSync(pidFile());
    }
    for (const row of await forwardRows())
      await vscode.commands.executeCommand('tensorpool.stopForwarding', row);
    await until(async () => ours().length === 0, 'no ssh left', 15_000);
  });
  suiteTeardown(async () => {
    await settings().update('ports.tensorBoardPort', undefined, vscode.ConfigurationTarget.Global);
    ext.testing.configure({});
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** The terminal the start made, its ssh argv's tail. */
  function terminalTail(): string[] {
    const terminal = vscode.window.terminals.find((x) => TB_NAME.test(x.name));
    assert.ok(terminal, 'a terminal on the node runs it');
    const o = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(o.shellPath, 'ssh');
    return (o.shellArgs as string[]).slice(-3);
  }

  test('nothing on the TensorBoard port: the command is shown and asked first (declining starts nothing); then started in a terminal and opened once it answers', async () => {
    assert.notEqual(TB_PORT, 6006, 'the setting, not the default, is what is used');
    fs.mkdirSync(path.join(real.dir, 'home', 'runs', 'exp1'), { recursive: true });
    fs.writeFileSync(path.join(real.dir, 'home', 'runs', 'exp1', 'events.out.tfevents.1'), '');
    const command = `tensorboard --logdir runs/exp1 --host 127.0.0.1 --port ${TB_PORT}`;

    const declined = new ScriptedPrompter([typeText('runs/exp1'), ACCEPT, ESCAPE]);
    ext.setPrompter(declined);
    const no = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openTensorBoard', node);
    assert.deepEqual(no, { ok: false, reason: 'cancelled' });
    assert.equal(
      declined.shown.find((s) => s.kind === 'confirm')?.detail,
      `Start it there in a terminal with: ${command}`,
    );
    assert.equal(vscode.window.terminals.filter((x) => TB_NAME.test(x.name)).length, 0, 'no terminal');
    assert.equal(await listening(TB_PORT), false, 'nothing started');

    const p = new ScriptedPrompter([typeText('runs/exp1'), ACCEPT, 'Start in a Terminal']);
    ext.setPrompter(p);
    const r = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openTensorBoard', node);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(
      p.shown.map((s) => s.kind),
      ['input', 'confirm'],
      'the folder asked, then the command shown',
    );
    assert.equal(p.shown[0].value, 'runs', 'a node row offers runs/');
    assert.deepEqual(terminalTail(), ['-t', `${real.user}@127.0.0.1`, command]);
    // This machine's port is the node's: the forward uses another local port, and the page comes through it.
    assert.notEqual(r.local, TB_PORT);
    const opened = browsed.at(-1)!.toString(true);
    assert.match(opened, new RegExp(String(r.local)), 'the address, through asExternalUri');
    assert.equal(await httpGet(opened), 'TensorBoard logdir=runs/exp1 files=events.out.tfevents.1');
    assert.equal(ours().length, 2, 'two ssh: the terminal’s and the tunnel’s');
  });

  test('on a job: the job’s folder on the node is the logdir offered and served', async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    const project = path.join(root, 'tb-job');
    fs.mkdirSync(project, { recursive: true });
    try {
      fs.writeFileSync(path.join(project, 'tb.tp.toml'), 'commands = ["touch events.out.tfevents.2"]\n');
      ext.setPrompter(new ScriptedPrompter([clusterName, 'Keep the cluster', 'Run job', ALWAYS]));
      const outcome = await vscode.commands.executeCommand<{ kind: string; jobId?: string }>(
        'tensorpool.runJobFile',
        vscode.Uri.file(path.join(project, 'tb.tp.toml')),
      );
      const jobId = outcome.jobId;
      assert.ok(jobId, JSON.stringify(outcome));
      let row: JobNode | undefined;
      await until(
        async () => {
          await ext.testing.jobs.refresh();
          const rows = (await ext.views.jobs.getChildren()) ?? [];
          row = rows.find((j) => j.kind === 'job' && j.job.id === jobId);
          return !!row && fs.existsSync(path.join(real.dir, 'home', 'jobs', jobId, 'events.out.tfevents.2'));
        },
        'the job listed, its file on the node',
        60_000,
      );

      const p = new ScriptedPrompter([ACCEPT, 'Start in a Terminal']);
      ext.setPrompter(p);
      const r = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openTensorBoard', row);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(p.shown[0].value, `jobs/${jobId}`, 'the job’s folder offered');
      const command = `tensorboard --logdir jobs/${jobId} --host 127.0.0.1 --port ${TB_PORT}`;
      assert.equal(p.shown[1].detail, `Start it there in a terminal with: ${command}`);
      assert.deepEqual(terminalTail(), ['-t', `${real.user}@127.0.0.1`, command]);
      const page = await httpGet(browsed.at(-1)!.toString(true));
      // The job's folder as the node has it (the pushed files and what the job wrote).
      const listing = fs.readdirSync(path.join(real.dir, 'home', 'jobs', jobId));
      assert.ok(listing.includes('events.out.tfevents.2'));
      assert.equal(page, `TensorBoard logdir=jobs/${jobId} files=${listing.join(',')}`);
    } finally {
      for (const t of vscode.window.terminals.filter((x) => x.name.startsWith('TensorPool job'))) t.dispose();
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});
