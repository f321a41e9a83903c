// Prices and burn rate from the engine's quote routes: the create wizards' summaries show the hourly price
// of the choice (fetched while answering), a running cluster's tooltip its price, time running and an
// estimated cost so far, the account tooltip and the Clusters view the burn rate and the runway for a
// seeded balance, and the status bar warns when the runway drops under the setting. With the quote routes
// gone (404) or failing (500), nothing price-related appears and nothing breaks.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ACCEPT, RecordingPrompter } from '../fixtures/scriptedPrompter';
import { engine } from './helpers';
import { until } from './nodes';
import { createAnswers, untilRunning } from './gpuHelpers';
import { accountIs, api, control, signIn } from './control';

suite('Prices, burn rate and runway', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;

  const tooltipText = () => {
    const t = ext.testing.statusBar.tooltip;
    // appendText escapes Markdown and writes spaces as &nbsp;: read it as the user does.
    const text = typeof t === 'string' ? t : (t?.value ?? '');
    return text.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
  };

  /** Create a cluster through the wizard; returns its id and what the summary showed (rows as they came). */
  async function create(type: string, name: string): Promise<{ id: string; prompter: RecordingPrompter }> {
    const prompter = new RecordingPrompter(createAnswers(type, name, 'tp_cost_key.pub'));
    ext.setPrompter(prompter);
    const id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    ext.setPrompter(undefined);
    assert.ok(id);
    await untilRunning(ext, id, name);
    return { id, prompter };
  }

  async function clusterTooltip(id: string): Promise<string> {
    const rows = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
    const row = rows.find((r) => r.kind === 'cluster' && r.cluster.id === id)!;
    const item = await ext.views.clusters.getTreeItem(row);
    const resolved = await ext.views.clusters.resolveTreeItem!(item, row, undefined!);
    return (resolved!.tooltip as vscode.MarkdownString).value;
  }

  const summaries = (p: RecordingPrompter) =>
    p.picks.filter((rows) => /Create (cluster|volume)/.test(rows[0]?.label ?? '')).map((rows) => rows[0]);

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200, balanceUsd: 100 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-cost-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    execFileSync('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-f',
      path.join(home, '.ssh', 'tp_cost_key'),
    ]);
    ext.testing.configure({ home: () => home, isTrusted: () => true });
  });
  suiteTeardown(async () => {
    ext.setPrompter(undefined);
    ext.testing.configure({});
    await vscode.workspace.getConfiguration('tensorpool').update('lowRunwayWarning', undefined, true);
    await control.config({ quotes: true });
    await control.clearFaults();
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('no quote route (404): no price in the summary, the tooltip, the account or the view', async () => {
    await control.config({ quotes: false });
    const { id, prompter } = await create('1xL40S', 'no-quote');
    await prompter.settled(); // the price the summary asked for was answered: 404
    for (const row of summaries(prompter)) assert.doesNotMatch(row.description ?? '', /\$/);
    // The running cluster's price was asked when the list first showed it running (before create() returned);
    // the account check sent after it has its answers in by the time it settles.
    await ext.testing.initializeAccount();
    assert.doesNotMatch(await clusterTooltip(id), /Price|Cost so far|\/h/);
    assert.doesNotMatch(tooltipText(), /Burn rate|Runway/);
    assert.equal(ext.testing.gpu.clustersView.description, undefined);
    await control.config({ quotes: true });
  });

  test('a failing quote (500) shows no price either', async () => {
    await control.fault({ path: '/cluster/quote', times: -1, status: 500 });
    const prompter = new RecordingPrompter([
      '2xB200',
      ACCEPT,
      'x',
      'tp_cost_key.pub',
      'Only for this cluster',
      ACCEPT,
      'Off',
      '<escape>',
      'Discard',
    ]);
    ext.setPrompter(prompter);
    await vscode.commands.executeCommand('tensorpool.createCluster').then(undefined, () => undefined);
    ext.setPrompter(undefined);
    await prompter.settled(); // the price the summary asked for was answered: 500
    assert.ok(summaries(prompter).length >= 1, 'the summary was shown');
    for (const row of summaries(prompter)) assert.doesNotMatch(row.description ?? '', /\$/);
    await control.clearFaults();
  });

  test('the wizard summary, the tooltip, the burn rate and the runway with prices', async () => {
    const quote = (await (
      await fetch(`${engine.url}/cluster/quote?instance_type=1xH100&num_nodes=1`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { hourly_rate: number };
    const rate = `$${quote.hourly_rate.toFixed(2)}/h`;
    const { id, prompter } = await create('1xH100', 'priced');
    await until(
      async () => summaries(prompter).some((r) => r.description?.includes(rate)),
      'price in summary',
    );
    assert.match(
      summaries(prompter).find((r) => r.description?.includes(rate))!.description!,
      /^1xH100 × 1 node · /,
    );

    await until(async () => (await clusterTooltip(id)).includes(rate), 'price in the tooltip');
    const tip = await clusterTooltip(id);
    assert.match(tip, /- Running for: \d+ min \(since it was created\)/);
    assert.match(tip, /- Cost so far: \$\d+\.\d+ \(an estimate: price × time\)/);

    // The burn counts every running cluster with a price (the L40S one has none: "at least").
    await ext.testing.initializeAccount();
    await until(async () => /Burn rate/.test(tooltipText()), 'burn rate in the account tooltip');
    const hours = Math.round(100 / quote.hourly_rate);
    assert.match(tooltipText(), new RegExp(`Burn rate: at least \\${rate}`));
    // The balance (GET /org) arrives after the account check.
    await until(async () => /Runway/.test(tooltipText()), 'runway in the account tooltip');
    assert.match(tooltipText(), new RegExp(`Runway: about ${hours} h at this rate`));
    assert.match(
      String(ext.testing.gpu.clustersView.description),
      new RegExp(`about ${hours} h at this rate$`),
    );
    assert.equal(ext.testing.statusBar.backgroundColor, undefined, 'no warning at 100 USD');

    // Under the runway setting: the existing warning shows.
    await vscode.workspace.getConfiguration('tensorpool').update('lowRunwayWarning', hours + 5, true);
    await until(async () => ext.testing.statusBar.backgroundColor !== undefined, 'runway warning');
    assert.match(tooltipText(), /below your warning level of \d+ h/);
    assert.match(ext.testing.statusBar.text, /^\$\(warning\) /);
  });

  test('the volume wizard shows the storage price of the size typed', async () => {
    const quote = (await (
      await fetch(`${engine.url}/storage/quote?size_gb=100`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { hourly_rate: number };
    const prompter = new RecordingPrompter(['100', ACCEPT, 'Off', '<escape>', 'Discard']);
    ext.setPrompter(prompter);
    await vscode.commands.executeCommand('tensorpool.createVolume').then(undefined, () => undefined);
    ext.setPrompter(undefined);
    const money = quote.hourly_rate < 0.1 ? quote.hourly_rate.toFixed(4) : quote.hourly_rate.toFixed(2);
    await until(
      async () => summaries(prompter).some((r) => r.description?.includes(`$${money}/h`)),
      'storage price',
    );
  });
});
