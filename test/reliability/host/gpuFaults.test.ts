// GPU telemetry and prices under faults, in the real extension host: the Clusters view's telemetry over the
// real OpenSSH client to one of the engine's real nodes (sshd down, the connection dropped mid-stream,
// nvidia-smi hanging or printing garbage), and the price routes (a quote failing, the balance missing).
// Each test checks what the user sees (the node row's words and tooltip, no price, no runway), that nothing
// threw unhandled, that no request that changes something was sent, and that no ssh is left after the
// collapse. Every ssh child the extension starts meanwhile is read from /proc (argv and environment) and
// searched for the API token and the storage secret key, as is the log.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import type { ClusterNode } from '../../../src/vscode/clusters/clustersTree';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { processesIn, realCluster, type RealCluster } from '../../integration/realCluster';
import { faultSubject, type GpuFaultKind } from '../catalogue';
import { ledger } from '../ledger';
import { freshAccount, mutations } from './common';
import { hostSecrets, registerSecret, scanForSecrets } from './secretScan';
import * as spy from './spy';
import { clusterRows, control, engineApi, hideViews, sleep, until, type Row } from './util';

suite('Reliability: GPU telemetry and prices under faults', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let node: RealCluster;
  let smi: string;
  let original: string;
  /** Per test: the most ssh processes seen at once, the pids already searched. */
  let most = 0;
  const searched = new Set<string>();
  let poll: ReturnType<typeof setInterval> | undefined;
  let marks: { problems: number; mutations: number };

  /** The extension's telemetry ssh processes (their known_hosts is under our scratch home). */
  function sshProcs(): Array<{ pid: string; text: string }> {
    const out: Array<{ pid: string; text: string }> = [];
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        if (path.basename(argv[0] ?? '') !== 'ssh' || !argv.some((a) => a.includes(home))) continue;
        out.push({ pid, text: `${argv.join(' ')}\n${fs.readFileSync(`/proc/${pid}/environ`, 'utf8')}` });
      } catch {
        // gone meanwhile
      }
    }
    return out;
  }

  const sampler = () => ext.testing.gpu.sampler;
  const telemetry = () => sampler().get(node.instanceId);
  const clock = (t: number) => new Date(t).toLocaleTimeString(vscode.env.language);

  /** The node's row as VS Code renders it (the first child of the cluster's row). */
  async function row(): Promise<Row<ClusterNode>> {
    const cluster = (await clusterRows(ext)).find(
      (r) => r.node.kind === 'cluster' && r.node.cluster.id === node.id,
    );
    assert.ok(cluster, 'the cluster row');
    const [first] = await clusterRows(ext, cluster.node);
    assert.equal(first?.node.kind, 'instance');
    return first;
  }
  const nodeRow = async () => (await row()).node;
  const description = async () => (await row()).description;
  const showing = (re: RegExp, what: string, ms = 25_000) =>
    until(what, async () => re.test(await description()), ms, 200);

  async function expand(): Promise<void> {
    await vscode.commands.executeCommand('tensorpool.clusters.focus');
    const cluster = (await clusterRows(ext)).find(
      (r) => r.node.kind === 'cluster' && r.node.cluster.id === node.id,
    )!;
    // The view may not have drawn the row yet just after it was focused ("Data tree node not found"): try
    // again, as a user would look before clicking.
    await until(
      'the cluster row revealed and expanded',
      async () => {
        try {
          await ext.testing.gpu.clustersView.reveal(cluster.node, {
            expand: true,
            focus: false,
            select: false,
          });
          return true;
        } catch {
          return false;
        }
      },
      10_000,
      200,
    );
  }
  async function collapse(): Promise<void> {
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await until('0 ssh processes after the collapse', () => sshProcs().length === 0, 15_000, 100);
    assert.equal(telemetry(), undefined, 'nothing kept for a node nobody looks at');
  }
  function writeLoad(load: unknown): void {
    fs.mkdirSync(path.join(node.nodeDir, 'gpu'), { recursive: true });
    fs.writeFileSync(path.join(node.nodeDir, 'gpu', 'load.json'), JSON.stringify(load));
  }
  const FIGURES = /^1×H100 · 87% · 40\/80 GB$/;

  suiteSetup(async () => {
    ext = await freshAccount();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-rel-gpu-'));
    ext.testing.configure({ home: () => home, isTrusted: () => true });
    ext.testing.gpu.setViewInterval(1000); // 2 s in use: staleness (3 intervals) shows in 3 s
    // A storage secret key in the extension's hands: it must not reach any ssh process either.
    ext.setPrompter(new ScriptedPrompter(['Enable']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.enableObjectStorage'), true);
    ext.setPrompter(undefined);
    const creds = await engineApi<{ secret_access_key: string }>('GET', '/object-storage/credentials');
    registerSecret('the storage secret access key', creds.body.secret_access_key);
    node = await realCluster('gpu-faults');
    smi = path.join(node.nodeDir, 'bin', 'nvidia-smi');
    original = fs.readFileSync(smi, 'utf8');
    writeLoad({ utilization: [87], memoryUsedMiB: [40960] });
    await ext.refresh();
  });
  setup(async () => {
    most = 0;
    marks = { problems: spy.problems.length, mutations: (await mutations()).length };
    const secrets = await hostSecrets();
    poll = setInterval(() => {
      const procs = sshProcs();
      most = Math.max(most, procs.length);
      for (const p of procs.filter((q) => !searched.has(q.pid))) {
        searched.add(p.pid);
        ledger.searched(`gpu: ssh ${p.pid} argv and environment`, scanForSecrets(p.text, secrets));
      }
    }, 100);
  });
  teardown(async () => {
    clearInterval(poll);
    fs.writeFileSync(smi, original);
    await control.clearFaults();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.actions.treeView.tensorpool.clusters.collapseAll');
    await hideViews();
    ext.testing.gpu.setViewInterval(0);
    ext.testing.configure({});
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** Today's checks after each fault: nothing unhandled, nothing changed on the service, the log clean. */
  async function todaysChecks(): Promise<void> {
    const ours = spy.problems.slice(marks.problems).filter((p) => p.ours);
    assert.deepEqual(ours, [], 'nothing unhandled');
    assert.deepEqual((await mutations()).slice(marks.mutations), [], 'no request that changes something');
    const findings = scanForSecrets(ext.testing.logTail.join('\n'), await hostSecrets());
    ledger.searched('gpu: the log', findings);
    assert.deepEqual(findings, []);
  }
  const cover = (kind: GpuFaultKind, title: string, fn: () => Promise<void>) =>
    ledger.cover(test(title, fn), faultSubject(kind));

  cover(
    'gpu-smi-garbage',
    'nvidia-smi printing garbage: stray lines skipped, pure garbage shown as the node’s words',
    async () => {
      await expand();
      await showing(FIGURES, 'the stand-in’s figures');
      // Junk around the real output: the figures stay right.
      fs.writeFileSync(
        smi,
        `#!/bin/sh\necho '%%junk%% 1, 2, three'\n${original.split('\n').find((l) => l.startsWith('exec'))}\n`,
      );
      const samples = sampler().counts.samples;
      await until('samples of the junky output', () => sampler().counts.samples >= samples + 2, 20_000, 100);
      assert.match(await description(), FIGURES);
      // Only garbage: its words are the node's state, and no GPU rows that would look current.
      fs.writeFileSync(smi, '#!/bin/sh\necho "%%garbage%% no rows here"\nexit 3\n');
      await showing(/^%%garbage%% no rows here$/, 'the garbage as the node’s state');
      assert.equal((await clusterRows(ext, await nodeRow())).length, 0, 'no GPU rows');
      fs.writeFileSync(smi, original);
      await showing(FIGURES, 'figures again');
      assert.equal(most, 1, 'one ssh throughout');
      await collapse();
      await todaysChecks();
    },
  );

  cover(
    'gpu-smi-hang',
    'nvidia-smi hanging: stale with its last sample’s time, no new connection; the collapse ends the ssh',
    async () => {
      await expand();
      await showing(FIGURES, 'figures');
      const connections = sampler().counts.connections;
      fs.writeFileSync(smi, '#!/bin/sh\nexec sleep 600\n');
      await showing(/ · stale, as of /, 'stale', 30_000);
      const t = telemetry()!;
      assert.ok(t.stale && t.time);
      assert.equal(await description(), `1×H100 · 87% · 40/80 GB · stale, as of ${clock(t.time)}`);
      const r = await row();
      assert.equal((r.item.iconPath as vscode.ThemeIcon).id, 'history');
      assert.match(r.tooltip, /\(stale: the node stopped answering\)/);
      assert.equal(sampler().counts.connections, connections, 'the hang is not met with new connections');
      assert.equal(most, 1);
      await collapse();
      // The hung stand-in is ours: end it (a real hung nvidia-smi stays the node's own business).
      for (const pid of processesIn(node.nodeDir)) {
        try {
          const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          if (argv.join(' ') === 'sleep 600') process.kill(pid);
        } catch {
          // gone
        }
      }
      await todaysChecks();
    },
  );

  cover(
    'gpu-drop-mid-stream',
    'the connection dropped mid-stream: stale with its time, then one new connection and fresh figures',
    async () => {
      await expand();
      await showing(FIGURES, 'figures');
      const connections = sampler().counts.connections;
      await control.setNodes({ drop: node.instanceId });
      await until('the drop seen', () => telemetry()?.unreachable !== undefined, 15_000, 100);
      const t = telemetry()!;
      assert.equal(await description(), `1×H100 · 87% · 40/80 GB · stale, as of ${clock(t.time!)}`);
      assert.match((await row()).tooltip, /\(stale: the node stopped answering\)/);
      // Reading figures changes nothing: the sampler connects again (once), and the row is fresh.
      await showing(FIGURES, 'fresh figures after the reconnect', 30_000);
      assert.equal(sampler().counts.connections, connections + 1, 'exactly one new connection');
      assert.equal(most, 1, 'never two at once');
      await collapse();
      await todaysChecks();
    },
  );

  cover(
    'gpu-unreachable',
    'the node unreachable: "not answering" with ssh’s words, no GPU rows; no retry after the collapse',
    async () => {
      await control.setNodes({ down: node.instanceId });
      await expand();
      await showing(/^not answering: .*Connection refused/, '"not answering" with ssh’s words');
      assert.match((await row()).tooltip, /Not answering: .*Connection refused/);
      assert.equal((await clusterRows(ext, await nodeRow())).length, 0, 'no GPU rows');
      assert.ok(most <= 1, `at most one ssh at a time (${most})`);
      await collapse();
      const connections = sampler().counts.connections;
      await sleep(11_000); // longer than the sampler's retry wait
      assert.equal(sampler().counts.connections, connections, 'no retry once nobody looks');
      assert.equal(sshProcs().length, 0);
      await todaysChecks();
    },
  );

  cover(
    'gpu-login-refused',
    'a node refusing the login: shown as refused with Add SSH Key…, tried once over 25 s, again only when keys change',
    async () => {
      // A cluster created with another key only (as a new user's first cluster without one of their keys):
      // its sshd answers and refuses the user's key.
      const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-rel-otherkey-'));
      execFileSync('ssh-keygen', [
        '-q',
        '-t',
        'ed25519',
        '-N',
        '',
        '-f',
        path.join(keyDir, 'id'),
        '-C',
        'other',
      ]);
      const other = fs.readFileSync(path.join(keyDir, 'id.pub'), 'utf8').trim();
      const ownCluster = node;
      node = await realCluster(`gpu-refused-${Date.now()}`, [other]);
      marks.mutations = (await mutations()).length; // the test's own create is not the extension's
      try {
        await ext.refresh();
        const connections = sampler().counts.connections;
        await expand();
        await showing(/^login refused: the node does not accept your SSH key$/, 'the refusal as such');
        const r = await row();
        // The node's words, escaped for Markdown (read back without the escapes).
        assert.match(
          r.tooltip.replace(/\\(.)/g, '$1'),
          /refused the login: .*Permission denied \(publickey\)/,
        );
        assert.match(r.tooltip, /Add SSH Key…/);
        assert.match(String(r.item.contextValue), /\bkeyRefused\b/, 'the row’s menu offers Add SSH Key…');
        assert.doesNotMatch(r.description, /not answering/);
        // Before: one login every 10 s for as long as the row stayed expanded (3 in 25 s), at any interval.
        await sleep(25_000);
        assert.equal(sampler().counts.connections - connections, 1, 'one login attempt in 25 s');
        // Looked at again with the same keys: still no new attempt.
        await collapse();
        await expand();
        await showing(/^login refused/, 'still shown as refused');
        await sleep(3000);
        assert.equal(sampler().counts.connections - connections, 1, 'not tried again by a new look');
        // The keys changed: tried once more (still refused).
        ext.testing.gpu.sampler.keysChanged();
        await until('one more attempt', () => sampler().counts.connections - connections === 2, 15_000, 100);
        await sleep(3000);
        assert.equal(sampler().counts.connections - connections, 2);
        await collapse();
        await todaysChecks();
      } finally {
        node = ownCluster;
        fs.rmSync(keyDir, { recursive: true, force: true });
      }
    },
  );
});
