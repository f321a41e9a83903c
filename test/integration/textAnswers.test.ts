// A service that answers lists, info and /me in text only: the tree shows the clusters the text names,
// every action works from those rows and from a typed ID, an empty picker says why, and the account
// label comes from the words of /me.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { engine, resolvedTooltip } from './helpers';
import { until } from '../shared/wait';
import type { TextStyle } from '../../engine/types';

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
    const state = await control.state();
    if (state.clusters.find((c) => c.id === cluster_id)?.status === 'RUNNING') return cluster_id;
    await sleep(100);
  }
  throw new Error(`${name} did not become RUNNING`);
}

async function sshCommandFor(instanceId: string): Promise<string> {
  const res = await fetch(`${engine.url}/ssh/${instanceId}?system=linux`, { headers: auth() });
  return ((await res.json()) as { command: string }).command;
}

/** The node's port and login, read from the service's own command (`… -p <port> user@host`). */
async function loginOf(instanceId: string): Promise<{ port: string; dest: string }> {
  const argv = (await sshCommandFor(instanceId)).split(' ');
  return { port: argv[argv.indexOf('-p') + 1], dest: argv[argv.length - 1] };
}

/** What Copy SSH Command copies for that node: the ssh the extension builds from the text's port and user
 *  (the engine's real nodes), with our known_hosts, never the service's command that skips host keys. */
async function assertBuiltFor(copied: string | undefined, instanceId: string, what: string): Promise<void> {
  const { port, dest } = await loginOf(instanceId);
  assert.ok(copied, what);
  assert.match(copied, new RegExp(`^ssh -p ${port} `), what);
  assert.match(copied, / -o StrictHostKeyChecking=accept-new -o HostKeyAlias=tp-\S+ /, what);
  assert.ok(copied.endsWith(` ${dest}`), `${what}: ${copied}`);
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
  let scratch: string;

  async function textOnly(style: TextStyle): Promise<void> {
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
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-text-home-'));
    ext.testing.configure({ home: () => scratch });
    alpha = await createRunning('alpha', 2);
    beta = await createRunning('beta', 1);
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
  });
  suiteTeardown(async () => {
    // The destroys started here are followed to their end, so no later suite sees them in the status bar.
    await until('no operation followed', () => ext.store.operations.length === 0, 30_000);
    ext.testing.configure({});
    fs.rmSync(scratch, { recursive: true, force: true });
    await control.config({ listMode: 'both', answers: { clusterList: null, clusterInfo: null, me: null } });
    await ext.refresh();
  });

  test('a text-only list shows the clusters it names, like structured rows, marked as read from text', async () => {
    await control.config({ answers: { clusterList: { mode: 'structured' } } });
    await ext.refresh();
    const structured = (await rows(ext)).map((r) => [label(r.item), r.item.description, r.item.contextValue]);
    for (const style of ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue'] as const) {
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
    const state = await control.state();
    const nodesOf = (id: string) => state.clusters.find((c) => c.id === id)!.instances;
    ext.setPrompter(new ScriptedPrompter(['beta-2']));
    await assertBuiltFor(
      await vscode.commands.executeCommand('tensorpool.copySshCommand'),
      nodesOf(beta)[0].id,
      'a parsed row',
    );
    ext.setPrompter(new ScriptedPrompter([ENTER_ID, alpha, 'Node 2']));
    const second = await vscode.commands.executeCommand<string>('tensorpool.copySshCommand');
    await assertBuiltFor(second, nodesOf(alpha)[1].id, 'a typed ID, node 2');
    assert.equal(await vscode.env.clipboard.readText(), second);
    // What the "cluster is ready" notification's button sends: the cluster id alone.
    ext.setPrompter(new ScriptedPrompter([]));
    await assertBuiltFor(
      await vscode.commands.executeCommand('tensorpool.copySshCommand', beta),
      nodesOf(beta)[0].id,
      'a bare cluster id',
    );
    const row = (await rows(ext)).find((r) => label(r.item) === 'beta-2')!;
    await vscode.commands.executeCommand('tensorpool.copyIp', row.node);
    assert.equal(await vscode.env.clipboard.readText(), nodesOf(beta)[0].ip);
  });

  test('connect reads the nodes, ports and users from text-only list and info in every style', async () => {
    const state = await control.state();
    const second = state.clusters.find((c) => c.id === alpha)!.instances[1].id;
    for (const style of ['plain', 'markdown', 'grid', 'box', 'heavy', 'keyValue'] as const) {
      await control.config({
        answers: { clusterList: { mode: 'text', style }, clusterInfo: { mode: 'text', style } },
      });
      await ext.refresh();
      ext.setPrompter(new ScriptedPrompter(['Node 2']));
      await assertBuiltFor(
        await vscode.commands.executeCommand('tensorpool.copySshCommand', alpha),
        second,
        style,
      );
    }
    // A list whose text names the clusters but no instance: the nodes come from the info text.
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      times: -1,
      status: 200,
      body: { message: `CLUSTER ID  NAME  STATUS\n${alpha}  alpha-2  RUNNING\n${beta}  beta-2  RUNNING` },
    });
    await ext.refresh();
    for (const style of ['plain', 'heavy', 'keyValue'] as const) {
      await control.config({ answers: { clusterInfo: { mode: 'text', style } } });
      ext.setPrompter(new ScriptedPrompter(['alpha-2', 'Node 2']));
      await assertBuiltFor(
        await vscode.commands.executeCommand('tensorpool.copySshCommand'),
        second,
        `info ${style}`,
      );
    }
    // Nothing gives an address: the service's command (GET /ssh) is used, checked by the policy.
    await control.clearFaults();
    await control.fault({
      method: 'GET',
      path: '/cluster/info/*',
      times: -1,
      status: 200,
      body: { message: `INSTANCE ID  STATUS\n${second}  RUNNING` },
    });
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      times: -1,
      status: 200,
      body: { message: `CLUSTER ID  NAME  STATUS\n${alpha}  alpha-2  RUNNING` },
    });
    await ext.refresh();
    ext.setPrompter(new ScriptedPrompter(['alpha-2']));
    const copied = await vscode.commands.executeCommand<string>('tensorpool.copySshCommand');
    // The service's command when nothing else gives one, after the extension's own options (ssh keeps the
    // first value it reads: our known_hosts and host-key checking, no password prompts).
    const service = await sshCommandFor(second);
    assert.ok(
      copied?.endsWith(` ${service.slice('ssh '.length)}`),
      `the service's words, whole and last: ${copied}`,
    );
    assert.match(
      copied ?? '',
      /^ssh -o UserKnownHostsFile=\S+\/\.ssh\/tensorpool\/known_hosts -o StrictHostKeyChecking=accept-new -o HostKeyAlias=tp-alpha-2-1\.\S+ -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no /,
    );
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
    assert.deepEqual(ext.testing.clusters.data?.textClusters, []);
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
