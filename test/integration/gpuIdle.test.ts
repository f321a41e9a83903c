// The idle guard against real nodes, on test timing given through its constructor (sampling every
// 250 ms, a 1.5 s period; each quiet window below is longer than the period): it notifies once per idle
// run with the cluster, the idle time and its price; Keep holds while the cluster stays idle, a busy spell
// re-arms it, Don't Ask for This Cluster holds for good; Destroy… runs the normal destroy, whose
// protection rule stops a protected cluster. Switched off, it samples nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { IdleWatch } from '../../src/vscode/gpu/onUse/idleWatch';
import { ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engineNodes, signedInWithScratchHome, until } from './nodes';
import { api, control } from './control';
import { createAnswers, untilRunning } from './gpuHelpers';

suite('Idle guard (real nodes)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let guard: IdleWatch;
  const dirs = new Map<string, string>();

  async function create(name: string, protect: boolean): Promise<string> {
    ext.setPrompter(new ScriptedPrompter(createAnswers('1xH100', name, 'tp_idle_key.pub', protect)));
    const id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    ext.setPrompter(undefined);
    assert.ok(id);
    await untilRunning(ext, id, name);
    const node = (await engineNodes()).find((n) => n.cluster_id === id)!;
    dirs.set(id, node.dir);
    return id;
  }
  function load(id: string, utilization: number): void {
    const dir = path.join(dirs.get(id)!, 'gpu');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'load.json'), JSON.stringify({ utilization: [utilization] }));
  }
  const confirms = (p: ScriptedPrompter) => p.shown.filter((s) => s.kind === 'confirm');
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** The guard's test timing: each wait below is in periods of it. */
  const TIMING = { sampleMs: 250, periodMs: 1500 };
  const periods = (n: number) => sleep(n * TIMING.periodMs);

  let a: string;
  let b: string;

  suiteSetup(async () => {
    ext = await api();
    home = await signedInWithScratchHome(ext, 'tp-idle-home-', 'tp_idle_key');
    a = await create('idle-a', false);
    b = await create('idle-b', true);
    load(a, 60);
    load(b, 60);
  });
  suiteTeardown(async () => {
    ext.setPrompter(undefined);
    ext.testing.gpu.restartIdleGuard(); // production timing again
    await vscode.workspace.getConfiguration('tensorpool').update('idleGuard.enabled', undefined, true);
    ext.testing.configure({});
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('one notification per idle run with the idle time and price; Keep holds; busy re-arms; Don’t Ask holds', async () => {
    const p = new ScriptedPrompter(['Keep', "Don't Ask for This Cluster"]);
    ext.setPrompter(p);
    guard = ext.testing.gpu.restartIdleGuard(TIMING);
    await periods(1.5);
    assert.equal(guard.shown, 0, 'busy clusters: nothing');
    load(a, 0);
    await until(async () => guard.shown === 1, 'the notification', 20_000);
    const [first] = confirms(p);
    assert.match(
      first.message ?? '',
      /^Every GPU of idle-a has been idle for \d+ min\. It costs \$\d+\.\d\d\/h\.$/,
    );
    assert.deepEqual(first.items, ['Destroy…', 'Keep', "Don't Ask for This Cluster"]);
    await periods(1.5);
    assert.equal(guard.shown, 1, 'Keep: quiet while the cluster stays idle');

    load(a, 80);
    await periods(0.7); // a busy spell of a few samples
    load(a, 0);
    await until(async () => guard.shown === 2, 'asked again after a busy spell', 20_000);
    await until(
      async () => ((ext.testing.globalState()['tensorpool.idleGuardDontAsk'] as string[]) ?? []).includes(a),
      'remembered',
    );
    load(a, 80);
    await periods(0.7); // a busy spell of a few samples
    load(a, 0);
    await periods(2);
    assert.equal(guard.shown, 2, 'Don’t Ask holds');
    assert.ok(
      ext.testing.clusters.data?.clusters?.some((c) => c.id === a),
      'never destroyed by itself',
    );
  });

  test('Destroy… runs the normal destroy: a protected cluster is refused by the protection rule', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['Destroy…', ESCAPE]);
    ext.setPrompter(p);
    guard = ext.testing.gpu.restartIdleGuard(TIMING);
    load(b, 0);
    await until(async () => confirms(p).length === 2, 'the protection question', 20_000);
    assert.match(confirms(p)[1].message ?? '', /idle-b has deletion protection on/);
    const deletes = (await control.log()).filter(
      (e) => e.method === 'DELETE' && e.path.startsWith('/cluster/'),
    );
    assert.equal(deletes.length, 0, 'nothing destroyed');
    assert.ok(ext.testing.clusters.data?.clusters?.some((c) => c.id === b && c.status === 'RUNNING'));
  });

  test('switched off, the guard samples nothing', async () => {
    ext.setPrompter(new ScriptedPrompter([]));
    await vscode.workspace.getConfiguration('tensorpool').update('idleGuard.enabled', false, true);
    guard = ext.testing.gpu.restartIdleGuard(TIMING);
    await until(async () => ext.testing.gpu.sampler.running === 0, 'no session');
    const samples = ext.testing.gpu.sampler.counts.samples;
    await periods(0.7); // several sampling intervals
    assert.equal(ext.testing.gpu.sampler.counts.samples, samples);
    assert.equal(guard.shown, 0);
  });
});
