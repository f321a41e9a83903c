// The clusters tree, create/edit/destroy through scripted answers to the same Prompter the
// real UI uses, exact request bodies from the engine's log, request tracking, refresh only when visible.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ACCEPT, ESCAPE, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { until } from '../shared/wait';
import { accountIs, api, control, signIn, sleep } from './control';
import { resolvedTooltip } from './helpers';
import { assertTextListing } from './textListing';
import { SETTING_DEFAULTS } from '../../src/vscode/shared/settingDefaults';

/** The engine's Retry-After in this suite: the follower polls a request this often. */
const RETRY_AFTER_S = 1;
/** The refresh time scale of the visibility test: the default interval divided by it is one second. */
const TIME_SCALE = 60;
const INTERVAL_MS = (SETTING_DEFAULTS.refreshInterval * 1000) / TIME_SCALE;

async function rows(
  ext: TensorPoolExtensionApi,
): Promise<Array<{ node: ClusterNode; item: vscode.TreeItem }>> {
  const provider = ext.views.clusters;
  const nodes = (await provider.getChildren(undefined)) ?? [];
  return Promise.all(nodes.map(async (node) => ({ node, item: await provider.getTreeItem(node) })));
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

suite('Clusters: tree, wizards, tracking', () => {
  let ext: TensorPoolExtensionApi;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 300, processingMs: 900, retryAfterSeconds: RETRY_AFTER_S });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    await control.clearFaults();
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('containerField', undefined, vscode.ConfigurationTarget.Global);
  });

  test('an empty account shows "No clusters yet"', async () => {
    // A refresh started before the engine was reset may still be in flight: let it finish, then ask again.
    await ext.refresh();
    await ext.refresh();
    assert.deepEqual(
      (await rows(ext)).map((r) => label(r.item)),
      ['No clusters yet'],
    );
  });

  test('create through the wizard: exact body, shown at once as provisioning, tracked to running', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter([
      '2xH100',
      '2',
      'itest-a',
      'No new key',
      'nvcr.io/nvidia/pytorch:24.05-py3',
      'On',
      'Create cluster',
    ]);
    ext.setPrompter(p);
    const created = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    assert.ok(created, 'cluster id returned');
    const posts = await control.calls('POST', '/cluster/create');
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].body, {
      instance_type: '2xH100',
      num_nodes: 2,
      tp_cluster_name: 'itest-a',
      container: 'nvcr.io/nvidia/pytorch:24.05-py3',
      deletion_protection: true,
    });
    // At once: the row is there, in transition.
    const first = (await rows(ext)).find((r) => label(r.item) === 'itest-a');
    assert.ok(first, 'the new cluster is in the tree immediately');
    assert.match(String(first.item.description), /2xH100 × 2/);
    assert.equal((first.item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    assert.ok(
      ext.store.clusterOperations.some((r) => r.id === created),
      'its request is followed',
    );
    await until('request followed to the end', () => ext.store.clusterOperations.length === 0);
    await ext.refresh();
    const done = (await rows(ext)).find((r) => label(r.item) === 'itest-a');
    assert.ok(done);
    assert.equal(done.item.description, 'running · 2xH100 × 2');
    assert.equal((done.item.iconPath as vscode.ThemeIcon).id, 'vm-running');
    assert.match(done.item.contextValue ?? '', /^cluster running protected hasIp$/);
    const tooltip = await resolvedTooltip(ext.views.clusters, done.node);
    for (const part of ['ID:', 'Type: 2xH100', 'Nodes: 2', 'Deletion protection: on', 'Instance'])
      assert.ok(tooltip.includes(part), `${part} in ${tooltip}`);
    const kids = await ext.views.clusters.getChildren(done.node);
    assert.equal(kids?.length, 2, 'two instance rows');
    const statuses = (await control.log())
      .filter((e) => e.path.startsWith('/request/info/'))
      .map((e) => e.status);
    assert.ok(statuses.length >= 2 && statuses.every((s) => s === 200));
  });

  test('the image field follows the setting (experimental_container)', async () => {
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('containerField', 'experimental_container', vscode.ConfigurationTarget.Global);
    await control.clearLog();
    ext.setPrompter(
      new ScriptedPrompter([
        '1xH100',
        ACCEPT,
        'itest-img',
        'No new key',
        'ubuntu:22.04',
        'Off',
        'Create cluster',
      ]),
    );
    assert.ok(await vscode.commands.executeCommand('tensorpool.createCluster'));
    const [post] = await control.calls('POST', '/cluster/create');
    assert.deepEqual(post.body, {
      instance_type: '1xH100',
      num_nodes: 1,
      tp_cluster_name: 'itest-img',
      experimental_container: 'ubuntu:22.04',
      deletion_protection: false,
    });
  });

  test('a 422 reopens the wizard at the field with the server message; one POST per confirmation', async () => {
    await control.clearLog();
    await control.fault({
      method: 'POST',
      path: '/cluster/create',
      status: 422,
      body: {
        detail: [
          { loc: ['body', 'num_nodes'], msg: 'Not enough 8xB200 capacity for 4 nodes', type: 'value_error' },
        ],
      },
    });
    const p = new ScriptedPrompter([
      '8xB200',
      '4',
      'itest-422',
      'No new key',
      '',
      'Off',
      'Create cluster',
      '1',
      'Create cluster',
    ]);
    ext.setPrompter(p);
    assert.ok(await vscode.commands.executeCommand('tensorpool.createCluster'));
    const reopened = p.shown.find((s) => s.initialError);
    assert.ok(reopened, 'a step was reopened with an error');
    assert.equal(reopened.step, 2);
    assert.equal(reopened.value, '4', 'what was typed is kept');
    assert.equal(reopened.initialError, 'Not enough 8xB200 capacity for 4 nodes');
    const posts = await control.calls('POST', '/cluster/create');
    assert.deepEqual(
      posts.map((x) => [x.status, (x.body as { num_nodes: number }).num_nodes]),
      [
        [422, 4],
        [202, 1],
      ],
    );
  });

  test('bad answers never reach the engine; Escape on a filled wizard discards after asking', async () => {
    await control.clearLog();
    const p = new ScriptedPrompter(['8 x H100', 'xH100', '8xH100', '0', '1.5', '2', '<escape>', 'Discard']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.createCluster'), undefined);
    assert.equal(p.rejections.length, 4);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method !== 'GET'),
      [],
    );
  });

  test('edit: rename and protection are sent; an edit that changes nothing sends nothing', async () => {
    await ext.refresh();
    const target = (await rows(ext)).find((r) => label(r.item) === 'itest-img')!;
    await control.clearLog();
    ext.setPrompter(new ScriptedPrompter([ACCEPT, ACCEPT, 'Nothing to change: close']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster', target.node), false);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method === 'PATCH'),
      [],
    );
    ext.setPrompter(new ScriptedPrompter(['itest-renamed', 'On', 'Apply changes']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster', target.node), true);
    const [patch] = (await control.log()).filter((e) => e.method === 'PATCH');
    assert.deepEqual(
      [patch.status, patch.body],
      [202, { cluster_name: 'itest-renamed', deletion_protection: true }],
    );
    assert.ok((await rows(ext)).some((r) => label(r.item) === 'itest-renamed'));
  });

  test('a duplicate name from the server returns to the name step', async () => {
    await ext.refresh();
    const target = (await rows(ext)).find((r) => label(r.item) === 'itest-renamed')!;
    await control.fault({
      method: 'PATCH',
      path: `/cluster/edit/${(target.node as { cluster: { id: string } }).cluster.id}`,
      status: 422,
      body: { detail: [{ loc: ['body', 'cluster_name'], msg: 'Name reserved', type: 'value_error' }] },
    });
    const p = new ScriptedPrompter(['reserved-name', ACCEPT, 'Apply changes', 'fine-name', 'Apply changes']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster', target.node), true);
    assert.equal(p.shown.find((s) => s.initialError)?.initialError, 'Name reserved');
  });

  test('a protected cluster is never sent to destroy; "turn off and destroy" edits, confirms by name, destroys and tracks', async () => {
    await ext.refresh();
    const target = (await rows(ext)).find((r) => label(r.item) === 'fine-name')!;
    const id = (target.node as { cluster: { id: string } }).cluster.id;
    await control.clearLog();
    ext.setPrompter(new ScriptedPrompter(['<escape>']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', target.node), false);
    assert.deepEqual(
      (await control.log()).filter((e) => e.method !== 'GET'),
      [],
      'nothing sent while protected',
    );
    const p = new ScriptedPrompter(['Turn Off Protection and Destroy', 'wrong', 'fine-name']);
    ext.setPrompter(p);
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', target.node), true);
    assert.match(p.shown[0].message ?? '', /deletion protection/);
    assert.equal(p.rejections[0].value, 'wrong');
    const mutations = (await control.log())
      .filter((e) => e.method !== 'GET')
      .map((e) => `${e.method} ${e.path} ${JSON.stringify(e.body)} ${e.status}`);
    assert.deepEqual(mutations, [
      `PATCH /cluster/edit/${id} {"deletion_protection":false} 202`,
      `DELETE /cluster/${id} null 202`,
    ]);
    await until('destroy followed to the end', () => ext.store.clusterOperations.length === 0);
    await ext.refresh();
    const left = await rows(ext);
    assert.ok(
      !left.some((r) => label(r.item) === 'fine-name'),
      `gone from the tree: ${JSON.stringify(left.map((r) => [label(r.item), r.item.description]))}`,
    );
  });

  test('tracking shows RETRYING and ends with FAILED and the external message', async () => {
    await control.config({ retrying: true, failCreates: 1 });
    const seen = new Set<string>();
    const sub = ext.store.onDidChange(() => ext.store.clusterOperations.forEach((r) => seen.add(r.status)));
    ext.setPrompter(
      new ScriptedPrompter(['1xL40S', ACCEPT, 'itest-fail', 'No new key', '', 'Off', 'Create cluster']),
    );
    assert.ok(await vscode.commands.executeCommand('tensorpool.createCluster'));
    await until('request ends', () => ext.store.clusterOperations.length === 0);
    sub.dispose();
    await control.config({ retrying: false, failCreates: 0 });
    for (const s of ['PENDING', 'PROCESSING', 'RETRYING']) assert.ok(seen.has(s), `${s} seen: ${[...seen]}`);
    assert.ok(ext.testing.logTail.some((l) => /itest-fail: request .* is FAILED/.test(l)));
  });

  test('a text-only list shows a row that opens the text, plus the clusters this window is following', async () => {
    await control.config({ listMode: 'text' });
    ext.setPrompter(
      new ScriptedPrompter(['1xH100', ACCEPT, 'itest-text', 'No new key', '', 'Off', 'Create cluster']),
    );
    assert.ok(await vscode.commands.executeCommand('tensorpool.createCluster'));
    await ext.refresh();
    await assertTextListing(ext.views.clusters, {
      label: 'Cluster list (text from the server)',
      command: 'tensorpool.showListingText',
      text: /itest-text/,
    });
    const labels = (await rows(ext)).map((r) => label(r.item));
    assert.ok(labels.includes('itest-text'), labels.join(', '));
    await control.config({ listMode: 'both' });
    await until('request ends', () => ext.store.clusterOperations.length === 0);
  });

  test('errors show as a row with retry, keeping the last good list', async () => {
    await control.fault({
      method: 'GET',
      path: '/cluster/list',
      status: 503,
      body: { message: 'maintenance' },
      times: 10,
    });
    await ext.refresh();
    const r = await rows(ext);
    assert.equal(label(r[0].item), 'Could not load clusters');
    assert.match(String(r[0].item.description), /maintenance/);
    assert.equal(r[0].item.command?.command, 'tensorpool.refresh');
    assert.ok(r.length > 1, 'the last good clusters are still shown');
    await control.clearFaults();
  });

  test('Mine / organisation toggle sends include_org', async () => {
    await control.clearLog();
    await vscode.commands.executeCommand('tensorpool.showOrganization');
    await vscode.commands.executeCommand('tensorpool.showMine');
    const lists = await control.calls('GET', '/cluster/list');
    assert.deepEqual(
      lists.map((l) => l.query.include_org ?? 'false'),
      ['true', 'false'],
    );
  });

  test('automatic refresh only while the view is visible', async () => {
    // On the refresh time scale (the soak's seam): the 60 s interval becomes 1 s, so the view refreshes on
    // its own several times in the windows below when it is allowed to, and the hidden one can fail.
    ext.testing.setRefreshTimeScale(TIME_SCALE);
    try {
      // Hidden first, so that showing arms the timer on the new scale.
      await vscode.commands.executeCommand('workbench.view.explorer');
      await until('view hidden first', () => ext.testing.nextRefreshDelay() === undefined, 5000);
      await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
      await until('view visible', () => ext.testing.nextRefreshDelay() !== undefined, 5000);
      await control.clearLog();
      await until(
        'refreshes on their own while visible',
        async () => (await control.calls('GET', '/cluster/list')).length >= 2,
        5000,
      );
      await vscode.commands.executeCommand('workbench.view.explorer');
      await until('view hidden', () => ext.testing.nextRefreshDelay() === undefined, 5000);
      // A refresh already sent when the view was hidden lands first.
      await until('no refresh under way', () => !ext.testing.clusters.loading, 5000);
      await control.clearLog();
      await sleep(3 * INTERVAL_MS);
      assert.deepEqual(
        (await control.calls('GET', '/cluster/list')).length,
        0,
        'no list requests while hidden (three intervals)',
      );
      await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
      await until(
        'refreshed on showing',
        async () => (await control.calls('GET', '/cluster/list')).length > 0,
        5000,
      );
    } finally {
      ext.testing.setRefreshTimeScale(1);
    }
  });

  test('with the view showing, the startup check asks for /me and the list alongside POST /health and shows that answer', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
    await until('view visible', () => ext.testing.nextRefreshDelay() !== undefined, 5000);
    await ext.refresh();
    await control.clearLog();
    await ext.testing.initializeAccount();
    await accountIs(ext, 'signedIn');
    await until('the list loaded', () => !ext.testing.clusters.loading, 5000);
    // The organisation details land (the account's second change): they ask for nothing again.
    await until(
      'the organisation details',
      () => ext.store.account.kind === 'signedIn' && !!ext.store.account.org,
    );
    const calls = (await control.log())
      .map((e) => `${e.method} ${e.path}`)
      .filter((c) => ['POST /health', 'GET /me', 'GET /cluster/list'].includes(c));
    assert.deepEqual(
      calls.slice().sort(),
      ['GET /cluster/list', 'GET /me', 'POST /health'],
      'one health check, with one /me and one list alongside',
    );
    const names = (await rows(ext)).filter((r) => r.node.kind === 'cluster').map((r) => label(r.item));
    assert.ok(names.length > 0, 'the rows are the answer');
  });

  test('a stored token rejected by the startup check shows no rows, even with the list asked for alongside', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
    await until('view visible', () => ext.testing.nextRefreshDelay() !== undefined, 5000);
    await control.clearLog();
    const revoked = { status: 401, body: { error: 'Token revoked' } };
    await control.fault({ method: 'GET', path: '/me', ...revoked });
    await control.fault({ method: 'GET', path: '/cluster/list', ...revoked });
    await ext.testing.initializeAccount();
    await accountIs(ext, 'rejected');
    await until(
      'the list asked for alongside /me was answered',
      async () => (await control.calls('GET', '/cluster/list')).length > 0,
    );
    assert.deepEqual(
      (await rows(ext)).map((r) => r.node.kind),
      [],
      'the welcome view, not stale rows',
    );
    assert.equal((await control.calls('GET', '/cluster/list')).length, 1, 'asked for alongside /me, once');
    assert.equal(ext.store.account.kind, 'rejected');
    await control.clearFaults();
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
  });

  test('a create being followed when the service refuses this version stops being followed, and the log says why', async () => {
    await control.config({ stuck: true }); // the create never finishes: only the refusal ends its following
    ext.setPrompter(
      new ScriptedPrompter([
        '2xH100',
        '2',
        'itest-refused',
        'No new key',
        'nvcr.io/nvidia/pytorch:24.05-py3',
        'On',
        'Create cluster',
      ]),
    );
    const created = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    assert.ok(created, 'cluster id returned');
    const polls = async () => (await control.log()).filter((e) => e.path.startsWith('/request/info/')).length;
    await until('the create is polled', async () => (await polls()) >= 2);
    assert.ok(ext.store.clusterOperation(created), 'followed');
    await control.config({ minClientVersion: '99.0.0' });
    try {
      ext.setPrompter(new ScriptedPrompter([ESCAPE]));
      await ext.testing.initializeAccount();
      await accountIs(ext, 'outdated');
      await until(
        'the create is no longer followed',
        () => ext.store.clusterOperation(created) === undefined,
      );
      assert.ok(
        ext.testing.logTail.some((l) => /Stopped following .*refused this version of the extension/.test(l)),
        ext.testing.logTail.slice(-5).join('\n'),
      );
      await control.clearLog();
      await sleep(1.5 * RETRY_AFTER_S * 1000); // longer than this suite's time between polls (Retry-After)
      assert.equal(await polls(), 0, 'no poll reaches a service that refused this version');
    } finally {
      await control.config({ minClientVersion: null, stuck: false });
    }
    await vscode.commands.executeCommand('tensorpool.retryAccountCheck');
    await accountIs(ext, 'signedIn');
  });
});
