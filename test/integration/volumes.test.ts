// Storage volumes in the real extension host: the Volumes tree (structured and text-only), the
// create/edit wizards through scripted answers (validation, Back, a 422 back to its field), attach
// eligibility and the restart warning, request following, refusals that send nothing, and the
// volumes shown under their cluster in the Clusters tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import type { VolumeNode } from '../../src/vscode/volumes/volumesTree';
import { ACCEPT, BACK, ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { resolvedTooltip } from './helpers';
import { assertTextListing } from './textListing';

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

async function volumeRows(
  ext: TensorPoolExtensionApi,
): Promise<Array<{ node: VolumeNode; item: vscode.TreeItem }>> {
  const p = ext.views.volumes;
  const nodes = (await p.getChildren(undefined)) ?? [];
  return Promise.all(nodes.map(async (node) => ({ node, item: await p.getTreeItem(node) })));
}

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for: ${what}`);
    await sleep(100);
  }
}

async function seedClusters(): Promise<void> {
  for (const b of [
    { clusters: 1, numNodes: 2, prefix: 'multi' },
    { clusters: 1, numNodes: 1, prefix: 'single' },
  ]) {
    await control.seed(b);
  }
}

suite('Volumes: tree, wizards, attach, tracking', () => {
  let ext: TensorPoolExtensionApi;
  const find = async (name: string) => (await volumeRows(ext)).find((r) => label(r.item) === name);
  const volume = async (name: string) => {
    const row = await find(name);
    assert.ok(row && row.node.kind === 'volume', `volume ${name} in the tree`);
    return row.node;
  };

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 200, processingMs: 600, retryAfterSeconds: 1 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await control.config({ listMode: 'both' });
  });

  test('an empty account shows "No volumes yet"', async () => {
    await ext.testing.volumes.refresh();
    assert.deepEqual(
      (await volumeRows(ext)).map((r) => label(r.item)),
      ['No volumes yet'],
    );
  });

  test('create: size and name validated as typed, Back keeps answers, one exact request, followed to READY', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter([
      '0',
      '1.5',
      'lots',
      '100',
      BACK,
      ACCEPT,
      'bad name',
      'itest-vol',
      'On',
      'Create volume',
    ]);
    ext.setPrompter(p);
    // The one status-bar item of followed operations shows volume operations too (read as each one changes).
    const item = await ext.testing.operationsItem();
    const shown: string[] = [];
    const sub = ext.store.onDidChange((t) => {
      if (t === 'operations' && ext.store.volumeOperations.length) shown.push(item.text);
    });
    const id = await vscode.commands.executeCommand<string>('tensorpool.createVolume');
    assert.ok(id, 'storage id returned');
    assert.equal(p.rejections.length, 4, JSON.stringify(p.rejections));
    const sizeSteps = p.shown.filter((s) => s.kind === 'input' && /Size in GB/.test(s.prompt ?? ''));
    assert.equal(sizeSteps.length, 2);
    assert.equal(sizeSteps[1].value, '100', 'Back kept the size');
    assert.match(sizeSteps[0].prompt ?? '', /24 hours/);
    const posts = await control.calls('POST', '/storage/create');
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].body, { size: 100, deletion_protection: true, name: 'itest-vol' });
    const first = await find('itest-vol');
    assert.ok(first, 'shown at once');
    assert.equal((first.item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    await until('create followed to the end', () => ext.testing.volumes.operations.length === 0);
    sub.dispose();
    assert.ok(
      shown.some((t) => /^\$\(loading~spin\) Creating itest-vol: (PENDING|PROCESSING)$/.test(t)),
      shown.join(' | '),
    );
    await ext.testing.volumes.refresh();
    const done = await find('itest-vol');
    assert.ok(done);
    assert.match(String(done.item.description), /100 GB · READY · protected/);
    assert.match(await resolvedTooltip(ext.views.volumes, done.node), new RegExp(`/mnt/${id}`));
    assert.match(done.item.contextValue ?? '', /^volume ready protected detached$/);
  });

  test('a protected volume is never sent to destroy: the dialog says why and offers Edit', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter([ESCAPE]);
    ext.setPrompter(p);
    const ok = await vscode.commands.executeCommand('tensorpool.destroyVolume', await volume('itest-vol'));
    assert.equal(ok, false);
    assert.match(p.shown[0].message ?? '', /deletion protection/);
    assert.deepEqual(p.shown[0].items, ['Turn Off Protection…']);
    assert.equal((await control.log()).filter((e) => e.method === 'DELETE').length, 0);
  });

  test('edit: nothing changed sends nothing; sizes only grow; then exactly the changed fields', async () => {
    await control.clearLog();
    ext.setPrompter(new ScriptedPrompter([ACCEPT, ACCEPT, ACCEPT, 'Nothing to change: close']));
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.editVolume', await volume('itest-vol')),
      false,
    );
    assert.equal((await control.log()).filter((e) => e.method === 'PATCH').length, 0);
    const p = new ScriptedPrompter(['itest-big', '50', '200', BACK, ACCEPT, 'Off', 'Apply changes']);
    ext.setPrompter(p);
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.editVolume', await volume('itest-vol')),
      true,
    );
    assert.equal(p.rejections.length, 1);
    assert.match(p.rejections[0].message, /only grow/);
    const [patch] = (await control.log()).filter((e) => e.method === 'PATCH');
    assert.match(patch.path, /^\/storage\/edit\/vol-/);
    assert.deepEqual(patch.body, { tp_storage_name: 'itest-big', size_gb: 200, deletion_protection: false });
  });

  test('attach: ineligible clusters are listed with the reason, the restart warning is confirmed, every request followed', async () => {
    await seedClusters();
    await ext.refresh();
    await control.clearLog();
    const p = new ScriptedPrompter(['single-1', ESCAPE, 'multi-1', 'Attach and Restart Nodes']);
    ext.setPrompter(p);
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.attachVolume', await volume('itest-big')),
      true,
    );
    const picker = p.shown[0];
    assert.ok(
      picker.items?.includes('single-1') &&
        picker.items.includes('multi-1') &&
        picker.items.includes('Enter an ID…'),
    );
    assert.match(p.shown[1].message ?? '', /single-1: .*multi-node GPU clusters and CPU instances/);
    const warn = p.shown.find((s) => s.kind === 'confirm' && /Attach/.test(s.message ?? ''));
    assert.match(warn?.detail ?? '', /restarts every node of multi-1/);
    const [post] = await control.calls('POST', '/storage/attach');
    const clusters = ext.testing.clusters.data?.clusters ?? [];
    const multi = clusters.find((c) => c.name === 'multi-1')!;
    assert.deepEqual(post.body, {
      storage_id: (await volume('itest-big')).volume.id,
      cluster_ids: [multi.id],
    });
    await until('attach followed to the end', () => ext.testing.volumes.operations.length === 0);
    await ext.testing.volumes.refresh();
    await ext.refresh();
    const row = await find('itest-big');
    assert.match(String(row?.item.description), /on multi-1/);
    const kids = (await ext.views.volumes.getChildren(row!.node)) ?? [];
    assert.equal(kids.length, 1);
    // The cluster shows the volume as a child, with its mount path.
    const clusterNodes = (await ext.views.clusters.getChildren(undefined)) ?? [];
    const multiNode = clusterNodes.find((n) => n.kind === 'cluster' && n.cluster.id === multi.id)!;
    const children = (await ext.views.clusters.getChildren(multiNode)) ?? [];
    const vol = children.find(
      (c): c is Extract<ClusterNode, { kind: 'clusterVolume' }> => c.kind === 'clusterVolume',
    );
    assert.ok(vol, 'volume under the cluster');
    const item = await ext.views.clusters.getTreeItem(vol);
    assert.equal(label(item), 'itest-big');
    assert.match(String(item.description), /^\/mnt\/vol-/);
  });

  test('an attached volume is never sent to destroy; detach from the cluster row is confirmed and followed', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['itest-big', ESCAPE]);
    ext.setPrompter(p);
    // From the palette: the picker lists the volume.
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyVolume'), false);
    assert.match(p.shown[1].message ?? '', /attached to multi-1/);
    assert.equal((await control.log()).filter((e) => e.method === 'DELETE').length, 0);

    const clusterNodes = (await ext.views.clusters.getChildren(undefined)) ?? [];
    const multiNode = clusterNodes.find((n) => n.kind === 'cluster' && n.cluster.name === 'multi-1')!;
    const vol = ((await ext.views.clusters.getChildren(multiNode)) ?? []).find(
      (c) => c.kind === 'clusterVolume',
    )!;
    ext.setPrompter(new ScriptedPrompter(['Detach']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.detachVolume', vol), true);
    const [post] = await control.calls('POST', '/storage/detach');
    assert.equal(multiNode.kind, 'cluster');
    assert.deepEqual(Object.keys(post.body as object).sort(), ['cluster_id', 'storage_id']);
    await until('detach followed to the end', () => ext.testing.volumes.operations.length === 0);
    await ext.testing.volumes.refresh();
    assert.doesNotMatch(String((await find('itest-big'))?.item.description), /on multi-1/);
  });

  test('destroy: type the name, one DELETE, followed until the volume is gone', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['wrong', 'itest-big']);
    ext.setPrompter(p);
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.destroyVolume', await volume('itest-big')),
      true,
    );
    assert.equal(p.rejections.length, 1);
    assert.equal((await control.log()).filter((e) => e.method === 'DELETE').length, 1);
    await until('destroy followed to the end', () => ext.testing.volumes.operations.length === 0);
    await ext.testing.volumes.refresh();
    assert.equal(await find('itest-big'), undefined);
  });

  test("a 422 reopens the wizard at the field it names, with the service's message and the answers kept", async () => {
    await control.fault({
      method: 'POST',
      path: '/storage/create',
      status: 422,
      body: { detail: [{ loc: ['body', 'name'], msg: 'this name is reserved', type: 'value_error' }] },
    });
    const p = new ScriptedPrompter(['20', 'reserved', 'Off', 'Create volume', 'itest-ok', 'Create volume']);
    ext.setPrompter(p);
    const id = await vscode.commands.executeCommand<string>('tensorpool.createVolume');
    assert.ok(id);
    const reopened = p.shown.filter((s) => s.kind === 'input' && /^Name/.test(s.prompt ?? ''))[1];
    assert.match(reopened.initialError ?? '', /reserved/);
    assert.equal(reopened.value, 'reserved');
    const posts = await control.calls('POST', '/storage/create');
    assert.deepEqual(
      posts.map((c) => c.body),
      [
        { size: 20, deletion_protection: false, name: 'reserved' },
        { size: 20, deletion_protection: false, name: 'itest-ok' },
      ],
    );
    await until('create followed', () => ext.testing.volumes.operations.length === 0);
  });

  test("a text-only list shows the service's text, and the volumes read from it", async () => {
    await control.config({ listMode: 'text' });
    await ext.testing.volumes.refresh();
    await assertTextListing(ext.views.volumes, {
      label: 'Volume list (text from the server)',
      command: 'tensorpool.showVolumeListText',
      text: /itest-ok/,
    });
    const rows = await volumeRows(ext);
    const read = rows.find((r) => r.node.kind === 'volume' && /itest-ok/.test(label(r.item)));
    assert.ok(read, 'the volume named in the text is a row of its own, so its actions work');
    assert.equal(read.node.kind === 'volume' && read.node.volume.source, 'text');
    assert.match(await resolvedTooltip(ext.views.volumes, read.node), /Read from the server's text answer/);
  });
});
