// Tree rows as a newcomer reads them: the state word first, nodes named "node N · address", details in
// tooltips; the same label in the tree and every cluster picker; tree elements that stay the same
// objects across refreshes, with change events that name the rows that changed; our own sentence
// for an accepted edit, the service's text and every mutation in the log.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import type { Answer, ConfirmOptions, InputOptions, PickOptions, Prompter } from '../../src/wizards/prompter';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { engine, resolvedTooltip } from './helpers';

type ClusterRow = Extract<ClusterNode, { kind: 'cluster' }>;

async function seed(prefix: string, clusters: number, numNodes: number): Promise<void> {
  await control.seed({ clusters, prefix, numNodes, instanceType: '8xH100', token: engine.token });
}

function text(value: string | vscode.MarkdownString | vscode.TreeItemLabel | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return 'value' in value ? value.value : value.label;
}

async function clusterRow(ext: TensorPoolExtensionApi, name: string): Promise<ClusterRow | undefined> {
  const nodes = (await ext.views.clusters.getChildren(undefined)) ?? [];
  return nodes.find(
    (n): n is ClusterRow => n.kind === 'cluster' && (n.cluster.name ?? n.cluster.id) === name,
  );
}

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for: ${what}`);
    await sleep(100);
  }
}

/** A prompter that records every pick it is shown, whole, and cancels it. */
class RecordingPrompter implements Prompter {
  readonly picks: Array<PickOptions<unknown>> = [];
  async pick<T>(o: PickOptions<T>): Promise<Answer<T>> {
    this.picks.push(o);
    return { kind: 'cancel' };
  }
  async input(_o: InputOptions): Promise<Answer<string>> {
    return { kind: 'cancel' };
  }
  async pickMany<T>(): Promise<Answer<T[]>> {
    return { kind: 'cancel' };
  }
  async confirm(o: ConfirmOptions): Promise<string | undefined> {
    // Only a wizard's "discard?" question can come up here: discard.
    return o.actions.find((a) => /discard/i.test(a));
  }
}

suite('Tree rows: readable, stable, one label everywhere', () => {
  let ext: TensorPoolExtensionApi;
  const infos: string[] = [];
  let original: typeof vscode.window.showInformationMessage;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 300, processingMs: 2500, retryAfterSeconds: 1 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    await vscode.commands.executeCommand('workbench.view.extension.tensorpool');
    await seed('rows', 2, 2);
    await ext.refresh();
    await ext.refresh();
    // The test modules share the extension's `vscode` API object: wrapping a function here is seen
    // by the extension's own calls.
    original = vscode.window.showInformationMessage;
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = (
      message: string,
      ...rest: unknown[]
    ) => {
      infos.push(message);
      return (original as (...a: unknown[]) => Thenable<unknown>).call(vscode.window, message, ...rest);
    };
  });
  suiteTeardown(() => {
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = original;
  });
  teardown(() => ext.setPrompter(undefined));

  test('a cluster row leads with its state word, then type and node count; details in the tooltip', async () => {
    const node = await clusterRow(ext, 'rows-1');
    assert.ok(node, 'seeded cluster in the tree');
    const item = await ext.views.clusters.getTreeItem(node);
    assert.equal(text(item.label), 'rows-1');
    assert.equal(item.description, 'running · 8xH100 × 2');
    assert.equal(item.id, `cluster:${node.cluster.id}`);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'vm-running');
    assert.equal(((item.iconPath as vscode.ThemeIcon).color as vscode.ThemeColor).id, 'testing.iconPassed');
    // The tooltip is built on hover (resolveTreeItem), not with every row.
    assert.equal(item.tooltip, undefined, 'no tooltip before the row is hovered');
    // A running cluster's price (GET /cluster/quote) is asked when the list arrives; wait for it.
    let tooltip = await resolvedTooltip(ext.views.clusters, node);
    for (let i = 0; i < 50 && !tooltip.includes('- Price:'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      tooltip = await resolvedTooltip(ext.views.clusters, node);
    }
    for (const part of [`\`${node.cluster.id}\``, 'Status: RUNNING', 'Nodes: 2', '(node 1)', '(node 2)'])
      assert.ok(tooltip.includes(part), `${part} in ${tooltip}`);
    // Created: relative, then the exact local time with seconds.
    assert.match(tooltip, /Created: (just now|\d+ (second|minute)s? ago) \\\(.*\d:\d\d:\d\d.*\\\)/);
    // Line by line, what the tooltip has always shown: the row's words, then the details.
    const c = node.cluster;
    const expected = [
      /^\*\*rows\\-1\*\* · running · 8xH100 × 2$/,
      /^$/,
      /^- Status: RUNNING$/,
      new RegExp(`^- ID: \`${c.id}\`$`),
      /^- Type: 8xH100$/,
      /^- Nodes: 2$/,
      /^- Deletion protection: (on|off)$/,
      /^- Created: /,
      ...(c.owner ? [/^- Owner: /] : []),
      /^- Price: \$\d+\.\d\d\/h$/,
      /^- Running for: \d+ min \(since it was created\)$/,
      /^- Cost so far: \$\d+\.\d+ \(an estimate: price × time\)$/,
      ...c.instances.map((i, n) => new RegExp(`^- Instance \`${i.id}\` \\(node ${n + 1}\\): RUNNING, `)),
    ];
    const lines = tooltip.split('\n');
    assert.equal(lines.length, expected.length, tooltip);
    lines.forEach((line, n) => assert.match(line, expected[n]));
  });

  test('node rows read "node N · address", the state as description, the instance id in the tooltip', async () => {
    const node = (await clusterRow(ext, 'rows-1'))!;
    const kids = (await ext.views.clusters.getChildren(node)) ?? [];
    assert.equal(kids.length, 2);
    for (const [n, kid] of kids.entries()) {
      assert.equal(kid.kind, 'instance');
      const instance = node.cluster.instances[n];
      const item = await ext.views.clusters.getTreeItem(kid);
      assert.ok(instance.ip, 'a running node has an address');
      assert.equal(text(item.label), `node ${n + 1} · ${instance.ip}`);
      assert.equal(item.description, 'running');
      const tooltip = await resolvedTooltip(ext.views.clusters, kid);
      assert.ok(tooltip.includes(`\`${instance.id}\``), tooltip);
      assert.equal(item.id, `instance:${node.cluster.id}:${instance.id}`);
    }
  });

  test('an unchanged cluster is the same element object across refreshes; so are its nodes', async () => {
    const before = (await clusterRow(ext, 'rows-2'))!;
    const kidsBefore = (await ext.views.clusters.getChildren(before)) ?? [];
    const events: Array<ClusterNode | ClusterNode[] | undefined | null | void> = [];
    const sub = ext.views.clusters.onDidChangeTreeData!((e) => events.push(e));
    try {
      await ext.refresh();
      await ext.refresh();
    } finally {
      sub.dispose();
    }
    const after = await clusterRow(ext, 'rows-2');
    assert.equal(after, before, 'same object');
    const kidsAfter = (await ext.views.clusters.getChildren(after)) ?? [];
    assert.equal(kidsAfter.length, 2);
    kidsAfter.forEach((k, i) => assert.equal(k, kidsBefore[i], `node ${i + 1}: same object`));
    assert.deepEqual(events, [], 'nothing changed, so no change event');
  });

  test('while a create is followed, change events name the rows that changed', async () => {
    const events: Array<ClusterNode | ClusterNode[] | undefined | null | void> = [];
    const sub = ext.views.clusters.onDidChangeTreeData!((e) => events.push(e));
    let id: string | undefined;
    try {
      ext.setPrompter(
        new ScriptedPrompter(['8xH100', '2', 'rows-new', 'No new key', ACCEPT, 'Off', 'Create cluster']),
      );
      id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
      assert.ok(id);
      const first = await clusterRow(ext, 'rows-new');
      assert.ok(first, 'the new cluster is shown at once');
      assert.match(
        String((await ext.views.clusters.getTreeItem(first)).description),
        /^creating · 8xH100 × 2$/,
      );
      await until('request followed to the end', () => ext.store.clusterOperations.length === 0);
      await ext.refresh();
      const last = await clusterRow(ext, 'rows-new');
      assert.equal(last, first, 'the same element from placeholder to listed cluster');
      assert.equal((await ext.views.clusters.getTreeItem(last)).description, 'running · 8xH100 × 2');
      const named = events.filter((e): e is ClusterNode[] => Array.isArray(e));
      assert.ok(
        named.some((list) => list.includes(first)),
        `an event names the new row: ${JSON.stringify(events.map((e) => (Array.isArray(e) ? e.length : String(e))))}`,
      );
      const unchanged = (await clusterRow(ext, 'rows-1'))!;
      assert.ok(
        named.every((list) => !list.includes(unchanged)),
        'an unchanged cluster is never named',
      );
      const whole = events.filter((e) => !Array.isArray(e)).length;
      // The row appearing redraws the tree; its status changes do not.
      assert.ok(whole <= 2, `${whole} whole-tree redraws of ${events.length} events`);
    } finally {
      sub.dispose();
    }
  });

  test("every cluster picker uses the row's label and description, the id as detail", async () => {
    const node = (await clusterRow(ext, 'rows-1'))!;
    const item = await ext.views.clusters.getTreeItem(node);
    const p = new RecordingPrompter();
    ext.setPrompter(p);
    await vscode.commands.executeCommand('tensorpool.editCluster');
    await vscode.commands.executeCommand('tensorpool.destroyCluster');
    await vscode.commands.executeCommand('tensorpool.copyClusterId');
    await vscode.commands.executeCommand('tensorpool.openSshTerminal');
    assert.equal(p.picks.length, 4, p.picks.map((o) => o.placeholder).join(', '));
    for (const pick of p.picks) {
      const entry = pick.items.find((i) => i.label === 'rows-1');
      assert.ok(entry, `rows-1 in "${pick.placeholder}"`);
      assert.deepEqual(
        [entry.label, entry.description, entry.detail],
        [text(item.label), item.description, node.cluster.id],
        String(pick.placeholder),
      );
    }
  });

  test("a rename says so in one short sentence; the service's text and the edit are logged", async () => {
    const node = (await clusterRow(ext, 'rows-2'))!;
    const mark = infos.length;
    ext.setPrompter(new ScriptedPrompter(['rows-2b', ACCEPT, 'Apply changes']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.editCluster', node), true);
    assert.deepEqual(infos.slice(mark), ['Renamed rows-2 to rows-2b.']);
    const line = ext.testing.logTail.find((l) => l.includes(`Cluster edit accepted: ${node.cluster.id}`));
    assert.ok(line, ext.testing.logTail.slice(-10).join('\n'));
    assert.match(line, /^\[info\]/);
    assert.match(line, /renamed from 'rows-2' to 'rows-2b'/);
  });

  test('bucket create and delete are logged at info', async () => {
    ext.setPrompter(new ScriptedPrompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
    ext.setPrompter(new ScriptedPrompter(['rows-bucket']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.createBucket'), 'rows-bucket');
    ext.setPrompter(new ScriptedPrompter(['Delete']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.deleteBucket', 'rows-bucket'), true);
    const tail = ext.testing.logTail;
    for (const line of [
      '[info] Object storage enabled',
      '[info] Bucket rows-bucket created.',
      '[info] Bucket rows-bucket deleted.',
    ])
      assert.ok(
        tail.some((l) => l.startsWith(line)),
        `${line} in\n${tail.slice(-10).join('\n')}`,
      );
    ext.setPrompter(new ScriptedPrompter(['Disable']));
    await vscode.commands.executeCommand('tensorpool.disableObjectStorage');
  });
});
