// A service that answers lists, info and /me in text only: the tree shows the clusters the text names,
// every action works from those rows and from a typed ID, an empty picker says why, and the account
// label comes from the words of /me.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/views/clustersTree';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { engine, resolvedTooltip } from './helpers';

const ENTER_ID = 'Enter an ID…';
const auth = () => ({ authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' });

async function createRunning(name: string, nodes: number): Promise<string> {
  const res = await fetch(`${engine.url}/cluster/create`, {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ instance_type: '1xH100', num_nodes: nodes, tp_cluster_name: name }),
  });
  assert.equal(res.status, 202);
  const { cluster_id } = (await res.json()) as { cluster_id: string };
  for (let i = 0; i < 100; i++) {
    const state = (await (await fetch(`${engine.url}/_engine/state`)).json()) as {
      clusters: Array<{ id: string; status: string }>;
    };
    if (state.clusters.find((c) => c.id === cluster_id)?.status === 'RUNNING') return cluster_id;
    await sleep(100);
  }
  throw new Error(`${name} did not become RUNNING`);
}

async function sshCommandFor(instanceId: string): Promise<string> {
  const res = await fetch(`${engine.url}/ssh/${instanceId}?system=linux`, { headers: auth() });
  return ((await res.json()) as { command: string }).command;
}

async function rows(
  ext: TensorPoolExtensionApi,
): Promise<Array<{ node: ClusterNode; item: vscode.TreeItem }>> {
  const nodes = (await ext.views.clusters.getChildren(undefined)) ?? [];
  return Promise.all(nodes.map(async (node) => ({ node, item: await ext.views.clusters.getTreeItem(node) })));
}

const label = (item: vscode.TreeItem) =>
  typeof item.label === 'string' ? item.label : (item.label?.label ?? '');

suite('Text-only answers: tree, actions, pickers and account label', () => {
  let ext: TensorPoolExtensionApi;
  let alpha: string;
  let beta: string;

  async function textOnly(style: string): Promise<void> {
    await control.config({
      answers: { clusterList: { mode: 'text', style }, clusterInfo: { mode: 'text', style: 'heavy' } },
    });
    await ext.refresh();
  }

  /** A list answer whose text names no cluster at all. */
  async function unreadableList(): Promise<void> {
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      times: -1,
      status: 200,
      body: { message: 'See the dashboard.' },
    });
    await ext.refresh();
  }

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    alpha = await createRunning('alpha', 2);
    beta = await createRunning('beta', 1);
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
  });
  suiteTeardown(async () => {
    await control.config({ listMode: 'both', answers: { clusterList: null, clusterInfo: null, me: null } });
    await ext.refresh();
  });

  test('a text-only list shows the clusters it names, like structured rows, marked as read from text', async () => {
    await control.config({ answers: { clusterList: { mode: 'structured' } } });
    await ext.refresh();
    const structured = (await rows(ext)).map((r) => [label(r.item), r.item.description, r.item.contextValue]);
    for (const style of ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue']) {
      await textOnly(style);
      const shown = await rows(ext);
      assert.equal(label(shown[0].item), 'Cluster list (text from the server)', style);
      const clusters = shown.filter((r) => r.node.kind === 'cluster');
      assert.deepEqual(
        clusters.map((r) => [label(r.item), r.item.description, r.item.contextValue]),
        structured,
        style,
      );
      for (const r of clusters)
        assert.match(
          await resolvedTooltip(ext.views.clusters, r.node),
          /Read from the server's text answer/,
          style,
        );
      const alphaNode = clusters.find((r) => label(r.item) === 'alpha')!.node;
      assert.equal(((await ext.views.clusters.getChildren(alphaNode)) ?? []).length, 2, `${style}: nodes`);
    }
  });

  test('edit works from a parsed row picked in the palette and from a typed ID', async () => {
    await textOnly('grid');
    await control.clearLog();
    ext.setPrompter(new ScriptedPrompter(['alpha', 'alpha-2', ACCEPT, 'Apply changes']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster'), true);
    ext.setPrompter(new ScriptedPrompter([ENTER_ID, beta, 'beta-2', ACCEPT, 'Apply changes']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster'), true);
    const edits = (await control.calls('PATCH', `/cluster/edit/${alpha}`)).concat(
      await control.calls('PATCH', `/cluster/edit/${beta}`),
    );
    assert.deepEqual(
      edits.map((e) => [e.status, e.body]),
      [
        [202, { cluster_name: 'alpha-2' }],
        [202, { cluster_name: 'beta-2' }],
      ],
    );
  });

  test('copy SSH command and copy IP work from a parsed row, a typed ID and a bare cluster id', async () => {
    await textOnly('box');
    const state = (await (await fetch(`${engine.url}/_engine/state`)).json()) as {
      clusters: Array<{ id: string; instances: Array<{ id: string; ip: string }> }>;
    };
    const nodesOf = (id: string) => state.clusters.find((c) => c.id === id)!.instances;
    ext.setPrompter(new ScriptedPrompter(['beta-2']));
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.copySshCommand'),
      await sshCommandFor(nodesOf(beta)[0].id),
    );
    ext.setPrompter(new ScriptedPrompter([ENTER_ID, alpha, 'Node 2']));
    const second = await sshCommandFor(nodesOf(alpha)[1].id);
    assert.equal(await vscode.commands.executeCommand('tensorpool.copySshCommand'), second);
    assert.equal(await vscode.env.clipboard.readText(), second);
    // What the "cluster is ready" notification's button sends: the cluster id alone.
    ext.setPrompter(new ScriptedPrompter([]));
    assert.equal(
      await vscode.commands.executeCommand('tensorpool.copySshCommand', beta),
      await sshCommandFor(nodesOf(beta)[0].id),
    );
    const row = (await rows(ext)).find((r) => label(r.item) === 'beta-2')!;
    await vscode.commands.executeCommand('tensorpool.copyIp', row.node);
    assert.equal(await vscode.env.clipboard.readText(), nodesOf(beta)[0].ip);
  });

  test('when no answer names a node, copy SSH command says so instead of doing nothing', async () => {
    await control.fault({
      method: 'GET',
      path: '/cluster/info/*',
      times: -1,
      status: 200,
      body: { message: 'Busy.' },
    });
    await unreadableList();
    await vscode.env.clipboard.writeText('before');
    ext.setPrompter(new ScriptedPrompter([]));
    assert.equal(await vscode.commands.executeCommand('tensorpool.copySshCommand', 'c-unlisted'), undefined);
    assert.equal(await vscode.env.clipboard.readText(), 'before');
    assert.ok(
      ext.testing.logTail.some((l) => /No node of c-unlisted is known yet/.test(l)),
      'the reason is shown and logged',
    );
  });

  test('an empty picker says why and offers Enter an ID; destroy then works with the typed ID', async () => {
    await textOnly('markdown');
    await unreadableList();
    assert.deepEqual(ext.store.clusters.data?.textClusters, []);
    const p = new ScriptedPrompter([ENTER_ID, 'not a valid id', alpha, 'alpha-2']);
    ext.setPrompter(p);
    await control.clearLog();
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster'), true);
    const picker = p.shown[0];
    assert.deepEqual(picker.items, [ENTER_ID]);
    assert.match(picker.prompt ?? '', /answered with text only, and no cluster could be read/);
    assert.equal(p.rejections.length, 1, 'a typed ID is validated');
    const deletes = await control.calls('DELETE', `/cluster/${alpha}`);
    assert.deepEqual(
      deletes.map((e) => e.status),
      [202],
    );
  });

  test('destroy works from a parsed tree row', async () => {
    await textOnly('keyValue');
    const row = (await rows(ext)).find((r) => label(r.item) === 'beta-2');
    assert.ok(row && row.node.kind === 'cluster');
    ext.setPrompter(new ScriptedPrompter(['beta-2']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', row.node), true);
    assert.deepEqual(
      (await control.calls('DELETE', `/cluster/${beta}`)).map((e) => e.status),
      [202],
    );
  });

  test('the account label comes from a /me that answers only "Logged in as <email>"', async () => {
    await control.config({ answers: { me: { mode: 'text' } } });
    const me = (await (await fetch(`${engine.url}/me`, { headers: auth() })).json()) as { message: string };
    const email = /\S+@\S+/.exec(me.message)![0];
    await ext.testing.initializeAccount();
    await accountIs(ext, 'signedIn');
    assert.equal(ext.store.account.kind === 'signedIn' && ext.store.account.label, email);
    assert.ok(ext.testing.statusBar.text.includes(email), ext.testing.statusBar.text);
    await control.config({ answers: { me: null } });
  });
});
