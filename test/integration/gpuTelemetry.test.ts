// GPU telemetry against the engine's real nodes (OpenSSH sshd, the stand-in nvidia-smi): expanding a
// running cluster in the visible Clusters view starts exactly one ssh per node and the node's rows show
// the stand-in's figures (load.json); a job process moves them; each fault shows its state; a node that
// stops answering is marked; collapsing or hiding the view ends the ssh (counted from /proc). No token or
// key material in any ssh command line or environment.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { engine } from './helpers';
import { engineNodes, until, type EngineNode } from './nodes';
import { runningCluster, sshProcs } from './gpuHelpers';
import { accountIs, api, control, signIn } from './control';

/** The view's sampling interval here (2 s in use; each sample runs the stand-in nvidia-smi twice): the
 *  quiet windows below are three of them. */
const INTERVAL_MS = 1000;
const quiet = () => new Promise((r) => setTimeout(r, 3 * INTERVAL_MS));

suite('GPU telemetry over SSH (real nodes)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let clusterId: string;
  let node: EngineNode;
  const children: ChildProcess[] = [];
  const key = () => path.join(home, '.ssh', 'tp_gpu_key');

  const ssh = () => sshProcs(home);

  const view = () => ext.testing.gpu.clustersView;
  const sampler = () => ext.testing.gpu.sampler;

  async function clusterRow(): Promise<ClusterNode> {
    const rows = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
    const row = rows.find((r) => r.kind === 'cluster' && r.cluster.id === clusterId);
    assert.ok(row, 'the cluster row');
    return row;
  }
  async function nodeRow(): Promise<ClusterNode> {
    const [first] = (await ext.views.clusters.getChildren(await clusterRow())) as ClusterNode[];
    assert.equal(first?.kind, 'instance');
    return first;
  }
  async function description(): Promise<string> {
    return String((await ext.views.clusters.getTreeItem(await nodeRow())).description ?? '');
  }
  async function expand(): Promise<void> {
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
    await view().reveal(await clusterRow(), { expand: true, focus: false, select: false });
    await until(async () => ssh().length === 1, 'one ssh for the node');
  }
  function writeLoad(load: unknown): void {
    const dir = path.join(node.dir, 'gpu');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'load.json'), JSON.stringify(load));
  }
  const descriptionMatches = (re: RegExp, what: string) =>
    until(async () => re.test(await description()), what, 20_000);

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-gpu-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tp-gpu', '-f', key()]);
    ext.testing.configure({ home: () => home, isTrusted: () => true });
    ext.testing.gpu.setViewInterval(INTERVAL_MS);
    clusterId = await runningCluster(ext, '1xH100', 'gpus', 'tp_gpu_key.pub');
    node = (await engineNodes()).find((n) => n.cluster_id === clusterId)!;
  });
  teardown(async () => {
    for (const c of children.splice(0)) c.kill();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    // Leave the Clusters view hidden as the suites after this one expect (a visible view refreshes itself).
    await vscode.commands.executeCommand('workbench.view.explorer');
    ext.testing.configure({});
    ext.testing.gpu.setViewInterval(0);
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('nothing is sampled before anyone expands the cluster', async () => {
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
    const samples = sampler().counts.samples;
    await quiet();
    assert.equal(ssh().length, 0);
    assert.equal(sampler().counts.samples, samples);
    assert.equal(sampler().running, 0);
  });

  test('expanding starts one ssh per node; the node and GPU rows show the stand-in’s figures', async () => {
    writeLoad({ utilization: [87], memoryUsedMiB: [40960] });
    const connections = sampler().counts.connections;
    await expand();
    await descriptionMatches(/^1×H100 · 87% · 40\/80 GB$/, 'the aggregate');
    const samples = sampler().counts.samples;
    await until(async () => sampler().counts.samples >= samples + 2, 'more samples');
    assert.equal(sampler().counts.connections, connections + 1, 'one connection, never one per sample');
    assert.equal(ssh().length, 1);
    const item = await ext.views.clusters.getTreeItem(await nodeRow());
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pulse', 'a busy node');
    const gpus = (await ext.views.clusters.getChildren(await nodeRow())) as ClusterNode[];
    assert.equal(gpus.length, 1);
    const gpuItem = await ext.views.clusters.getTreeItem(gpus[0]);
    assert.equal(gpuItem.label, 'GPU 0 · H100');
    assert.match(String(gpuItem.description), /^87% · 40\/79\.6 GB · \d+ °C · \d+\/700 W$/);
    const resolved = await ext.views.clusters.resolveTreeItem!(item, await nodeRow(), undefined!);
    const md = (resolved!.tooltip as vscode.MarkdownString).value;
    assert.match(md, /\| GPU 0 · H100 \| 87% \| 40\/79\.6 \|/);

    writeLoad({ utilization: [0] });
    await descriptionMatches(/^1×H100 · 0% · 0\/80 GB$/, 'idle figures');
    const idle = await ext.views.clusters.getTreeItem(await nodeRow());
    assert.equal(
      (idle.iconPath as vscode.ThemeIcon).id,
      'circle-large-outline',
      'an idle node looks different',
    );
  });

  test('a port forwarded under the node: new figures redraw the GPU row, never the node or forward rows', async () => {
    writeLoad({ utilization: [60] });
    await descriptionMatches(/^1×H100 · 60% · /, 'busy figures');
    const seen: string[] = [];
    const events = ext.views.clusters.onDidChangeTreeData!((e) =>
      seen.push(...(Array.isArray(e) ? e : [e]).map((n) => (n as ClusterNode | undefined)?.kind ?? 'all')),
    );
    const r = await vscode.commands.executeCommand<{ ok: boolean }>(
      'tensorpool.forwardPort',
      await nodeRow(),
      String(node.port),
    );
    try {
      assert.ok(r.ok, JSON.stringify(r));
      // The node row shows what it has, not the figures that change every sample (clustersTree.gpuChanged).
      await descriptionMatches(/^1×H100$/, 'the brief description while a port is forwarded');
      const rows = async () => (await ext.views.clusters.getChildren(await nodeRow())) as ClusterNode[];
      assert.deepEqual(
        (await rows()).map((c) => c.kind),
        ['portForward', 'gpu'],
      );
      seen.length = 0;
      writeLoad({ utilization: [70] });
      await until(async () => {
        const gpu = (await rows()).find((c) => c.kind === 'gpu');
        return !!gpu && /^70% /.test(String((await ext.views.clusters.getTreeItem(gpu)).description));
      }, 'the GPU row’s new figure');
      await quiet();
      assert.ok(seen.includes('gpu'), 'the GPU row was redrawn');
      assert.deepEqual(
        seen.filter((k) => k !== 'gpu'),
        [],
        'nothing else was',
      );
    } finally {
      events.dispose();
      for (const row of (await ext.views.clusters.getChildren(await nodeRow())) as ClusterNode[])
        if (row.kind === 'portForward')
          await vscode.commands.executeCommand('tensorpool.stopForwarding', row);
    }
    await descriptionMatches(/^1×H100 · 70% · /, 'the figures back once nothing is forwarded');
    await until(async () => ssh().length === 1, 'the tunnel’s ssh ended');
  });

  test('no token or key material in the ssh’s command line or environment', async () => {
    const [p] = ssh();
    assert.ok(p);
    const privateKey = fs.readFileSync(key(), 'utf8');
    const keyBody = privateKey.split('\n')[1];
    for (const text of [p.argv.join(' '), p.env]) {
      assert.ok(!text.includes(engine.token), 'no API token');
      assert.ok(!text.includes(keyBody), 'no private key');
      assert.doesNotMatch(text, /TENSORPOOL_(API_)?KEY|AWS_SECRET/);
    }
    assert.ok(p.argv.includes('BatchMode=yes'));
    assert.ok(p.argv.includes(key()), 'the key the cluster was created with, by path');
  });

  test('a job process on the node moves the figures, and its process shows in the tooltip', async () => {
    fs.rmSync(path.join(node.dir, 'gpu', 'load.json'), { force: true });
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    const procs = path.join(node.dir, 'gpu', 'procs');
    fs.mkdirSync(procs, { recursive: true });
    fs.writeFileSync(
      path.join(procs, `${sleeper.pid}.json`),
      JSON.stringify({ name: 'python3', gpus: [0], memoryMiB: 30720 }),
    );
    await descriptionMatches(/^1×H100 · (9[7-9]|100)% · \d+\/80 GB$/, 'busy from the job');
    const item = await ext.views.clusters.getTreeItem(await nodeRow());
    const resolved = await ext.views.clusters.resolveTreeItem!(item, await nodeRow(), undefined!);
    assert.match((resolved!.tooltip as vscode.MarkdownString).value, new RegExp(`${sleeper.pid} python3`));
    sleeper.kill();
    fs.rmSync(path.join(procs, `${sleeper.pid}.json`), { force: true });
    await descriptionMatches(/^1×H100 · [0-2]% · /, 'idle again when the job ends');
  });

  test('faults: [N/A] figures, the driver failure text as the node’s state', async () => {
    writeLoad({ fault: 'na' });
    await descriptionMatches(/^1×H100 · – · /, 'N/A utilisation shown as unknown');
    const gpus = (await ext.views.clusters.getChildren(await nodeRow())) as ClusterNode[];
    assert.match(String((await ext.views.clusters.getTreeItem(gpus[0])).description), /^– · /);
    writeLoad({ fault: 'driver' });
    await descriptionMatches(/^NVIDIA-SMI has failed because it couldn't communicate/, 'the driver text');
    assert.equal(((await ext.views.clusters.getChildren(await nodeRow())) as ClusterNode[]).length, 0);
    fs.rmSync(path.join(node.dir, 'gpu', 'load.json'), { force: true });
    await descriptionMatches(/^1×H100 · /, 'figures again');
  });

  test('nvidia-smi printing garbage shows its words; nvidia-smi hanging leaves the node stale, not frozen', async () => {
    const smi = path.join(node.dir, 'bin', 'nvidia-smi');
    const original = fs.readFileSync(smi, 'utf8');
    try {
      fs.writeFileSync(smi, '#!/bin/sh\necho "%%garbage%% no rows here"\nexit 3\n');
      await descriptionMatches(/^%%garbage%% no rows here$/, 'the garbage as the state');
      fs.writeFileSync(smi, original);
      await descriptionMatches(/^1×H100 · /, 'figures again');
      fs.writeFileSync(smi, '#!/bin/sh\nexec sleep 60\n');
      await descriptionMatches(/^1×H100 · .* · stale, as of \d/, 'stale with its last sample’s time');
      const item = await ext.views.clusters.getTreeItem(await nodeRow());
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'history');
    } finally {
      fs.writeFileSync(smi, original);
    }
    await descriptionMatches(/^1×H100 · \d+% · /, 'fresh figures once it answers again');
  });

  test('collapsing the cluster ends the ssh and the samples', async () => {
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await until(async () => ssh().length === 0, '0 ssh processes');
    assert.equal(sampler().running, 0);
    const samples = sampler().counts.samples;
    await quiet();
    assert.equal(sampler().counts.samples, samples, '0 samples while collapsed');
    assert.doesNotMatch(await description(), /H100/, 'no figures that would look current');
  });

  test('hiding the view ends the ssh; showing it again resumes', async () => {
    await expand();
    await vscode.commands.executeCommand('workbench.view.explorer');
    await until(async () => ssh().length === 0, '0 ssh processes while hidden');
    const samples = sampler().counts.samples;
    await quiet();
    assert.equal(sampler().counts.samples, samples, '0 samples while hidden');
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
    await until(async () => ssh().length === 1, 'sampling again');
    await descriptionMatches(/^1×H100 · /, 'figures again');
  });

  test('a CPU node has no GPUs (no nvidia-smi), which is not an error', async () => {
    const cpu = await runningCluster(ext, '32xCPU', 'cpus', 'tp_gpu_key.pub');
    const rows = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
    const row = rows.find((r) => r.kind === 'cluster' && r.cluster.id === cpu)!;
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
    await view().reveal(row, { expand: true, focus: false, select: false });
    const [cpuNode] = (await ext.views.clusters.getChildren(row)) as ClusterNode[];
    await until(
      async () => (await ext.views.clusters.getTreeItem(cpuNode)).description === 'no GPUs',
      '"no GPUs"',
      20_000,
    );
    assert.equal(((await ext.views.clusters.getChildren(cpuNode)) as ClusterNode[]).length, 0);
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await until(async () => ssh().length === 0, '0 ssh processes');
  });

  test('a node that stops answering is marked, not frozen', async () => {
    await expand();
    await descriptionMatches(/^1×H100 · /, 'figures');
    await engineNodes({ down: node.instance_id });
    await descriptionMatches(/stale, as of|not answering/, 'marked');
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await until(async () => ssh().length === 0, '0 ssh processes');
  });
});
