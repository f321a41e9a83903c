// Show GPU Monitor against a real node: the chart panel (uPlot, charts/chartPanel.ts) draws a chart per GPU
// figure and they grow as samples arrive; hidden, the panel takes no sample and its ssh ends; shown again,
// sampling resumes after a gap point and the status says since when it was paused; closed, no ssh is left.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engineNodes, signedInWithScratchHome, until } from './nodes';
import { api, control } from './control';

suite('GPU monitor (real node)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let clusterId: string;

  const monitor = () => ext.testing.gpu.monitor(clusterId);
  const sshCount = () =>
    fs
      .readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((pid) => {
        try {
          const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return path.basename(argv[0]) === 'ssh' && argv.some((a) => a.includes(home));
        } catch {
          return false;
        }
      }).length;

  suiteSetup(async () => {
    ext = await api();
    home = await signedInWithScratchHome(ext, 'tp-mon-home-', 'tp_mon_key');
    ext.setPrompter(
      new ScriptedPrompter([
        '1xH100',
        ACCEPT,
        'mon',
        'tp_mon_key.pub',
        'Only for this cluster',
        ACCEPT,
        'Off',
        'Create cluster',
      ]),
    );
    clusterId = (await vscode.commands.executeCommand<string>('tensorpool.createCluster'))!;
    ext.setPrompter(undefined);
    await until(
      async () => {
        await ext.refresh();
        return ext.testing.clusters.data?.clusters?.find((c) => c.id === clusterId)?.status === 'RUNNING';
      },
      'RUNNING',
      30_000,
    );
    // The create is followed to its end before going on (a follow left running would change later suites' rows).
    await until(
      async () => ext.store.clusterOperations.length === 0,
      'the create followed to its end',
      30_000,
    );
    const node = (await engineNodes()).find((n) => n.cluster_id === clusterId)!;
    fs.mkdirSync(path.join(node.dir, 'gpu'), { recursive: true });
    fs.writeFileSync(path.join(node.dir, 'gpu', 'load.json'), JSON.stringify({ utilization: [70] }));
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    ext.testing.configure({});
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('the monitor draws a chart per GPU figure and they update', async () => {
    assert.equal(await vscode.commands.executeCommand('tensorpool.showGpuMonitor', clusterId), true);
    await until(
      async () => ((await monitor())?.drawn ?? []).filter((d) => d.points >= 2).length === 4,
      'four charts drawn',
      60_000,
    );
    const m = (await monitor())!;
    assert.deepEqual(m.series.map((s) => s.id.split('/').slice(1).join('/')).sort(), [
      '0/mem',
      '0/power',
      '0/temp',
      '0/util',
    ]);
    assert.ok(
      m.drawn.every((d) => d.width > 0 && d.height > 0),
      'canvases have a size',
    );
    const before = Math.max(...m.drawn.map((d) => d.points));
    await until(
      async () => Math.max(...((await monitor())?.drawn ?? []).map((d) => d.points)) > before,
      'the charts update',
    );
    assert.equal(sshCount(), 1, 'one ssh for the node');
    assert.match(m.status, /No GPU processes|Processes:/);
  });

  test('hidden it takes no sample and its ssh ends; shown again it resumes after a gap', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'cover' });
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Active, preview: false });
    await until(async () => (await monitor())?.visible === false, 'hidden');
    await until(async () => sshCount() === 0, '0 ssh while hidden');
    const { series, intervalMs } = (await monitor())!;
    // An ssh started again while hidden would bring a sample within an interval of starting: 2.5 of them.
    await new Promise((r) => setTimeout(r, 2.5 * intervalMs));
    assert.equal((await monitor())!.series[0].points, series[0].points, 'no sample while hidden');

    await vscode.commands.executeCommand('tensorpool.showGpuMonitor', clusterId);
    await until(
      async () => ((await monitor())?.series[0].gaps ?? 0) >= 1,
      'a gap point after the pause',
      30_000,
    ).catch(async (e: Error) => {
      const m = await monitor();
      const seen = JSON.stringify({ ...m, drawn: m?.drawn.length, running: ext.testing.gpu.sampler.running });
      throw new Error(`${e.message}: ${seen}`);
    });
    assert.match((await monitor())!.status, /Paused while hidden since/);
    await until(async () => sshCount() === 1, 'sampling again');
  });

  test('closing the monitor leaves no ssh', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(async () => (await monitor()) === undefined, 'closed');
    await until(async () => sshCount() === 0, 'no ssh left');
  });
});
