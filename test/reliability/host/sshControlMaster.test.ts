// A user whose ssh config says `ControlMaster auto` (with ControlPersist), and a master connection to the node
// already open, in the real extension host: the extension's tunnel must still be its own ssh (ControlMaster=no,
// ControlPath=none). Otherwise ssh hands the forward to the master: the tunnel's ready line never prints, and
// Stop Forwarding ends a client while the master keeps the forward open. Its ssh gets no credential variable.
// OpenSSH reads the config of the account's home (not $HOME), shared by everything on this machine: the block
// the test adds applies only to the test's own node (`Match exec "test %p = <its port>"`) and is removed after.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import type { ForwardOutcome } from '../../../src/vscode/ports/onUse/portActions';
import type { ClusterNode } from '../../../src/vscode/clusters/clustersTree';
import { realCluster } from '../../integration/realCluster';
import { freshAccount } from './common';
import { clusterRows, sleep } from './util';

type InstanceNode = Extract<ClusterNode, { kind: 'instance' }>;

/** The first line a TCP server on 127.0.0.1:<port> sends (sshd's banner), or the error. */
function banner(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const t = setTimeout(() => (s.destroy(), resolve('timed out')), 5000);
    s.once('data', (d) => (clearTimeout(t), s.destroy(), resolve(String(d).trim())));
    s.once('error', (e) => (clearTimeout(t), resolve(e.message)));
    s.once('close', () => (clearTimeout(t), resolve('closed')));
  });
}

/** The ssh whose command line forwards 127.0.0.1:<local>. */
function tunnelPid(local: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)ssh$/.test(argv[0]) && argv.some((a) => a.startsWith(`127.0.0.1:${local}:`)))
        return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

suite("Reliability: a user's ssh config with ControlMaster auto", () => {
  let ext: TensorPoolExtensionApi;
  let node: InstanceNode;
  let scratch: string;
  let port: number;
  let login: string;
  const config = path.join(os.userInfo().homedir, '.ssh', 'config');
  let before: string | undefined;
  const block = () =>
    `\n# tensorpool reliability test (sshControlMaster.test.ts)\nMatch exec "test %p = ${port}"\n`;
  const control = () => path.join(scratch, '%C');
  const ssh = (args: string[]) =>
    spawnSync('ssh', ['-p', String(port), '-o', 'BatchMode=yes', ...args, login], {
      timeout: 20_000,
      encoding: 'utf8',
    });

  suiteSetup(async function () {
    this.timeout(120_000);
    ext = await freshAccount();
    const c = await realCluster('rel-control-master');
    await ext.refresh();
    const clusterRow = (await clusterRows(ext)).find(
      (r) => r.node.kind === 'cluster' && r.node.cluster.id === c.id,
    );
    assert.ok(clusterRow, 'the cluster is listed');
    node = (await clusterRows(ext, clusterRow.node)).find((r) => r.node.kind === 'instance')!
      .node as InstanceNode;
    port = node.instance.sshPort!;
    login = `${node.instance.sshUser}@${node.instance.ip}`;
    // Short: a unix socket's path has a small limit (code-server's TMPDIR is too deep for it).
    scratch = mkdtempSync('/tmp/tpcm-');
    before = existsSync(config) ? readFileSync(config, 'utf8') : undefined;
    mkdirSync(path.dirname(config), { recursive: true, mode: 0o700 });
    writeFileSync(
      config,
      `${before ?? ''}${block()}  ControlMaster auto\n  ControlPath ${control()}\n  ControlPersist 120\n`,
      { mode: 0o600 },
    );
    // The user's master connection, open before the forward (its key is the agent's, as the extension's is).
    const master = ssh([
      '-f',
      '-N',
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'LogLevel=ERROR',
    ]);
    assert.equal(master.status, 0, master.stderr);
    const check = ssh(['-O', 'check']);
    assert.equal(check.status, 0, `the master runs: ${check.stderr}`);
  });
  suiteTeardown(() => {
    if (port) ssh(['-O', 'exit']);
    if (before === undefined) rmSync(config, { force: true });
    else writeFileSync(config, before);
    rmSync(scratch, { recursive: true, force: true });
  });

  const saved = { ...process.env };
  setup(() => Object.assign(process.env, { TENSORPOOL_KEY: 'tp-env-key', MY_TOKEN: 'tp-env-token' }));
  teardown(() => {
    for (const k of ['TENSORPOOL_KEY', 'MY_TOKEN'])
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  });

  test('the tunnel is its own connection: it says it is ready, serves, and Stop Forwarding removes the forward', async () => {
    // The node's own sshd port, forwarded: its banner proves the tunnel reaches the node.
    const r = await vscode.commands.executeCommand<ForwardOutcome>(
      'tensorpool.forwardPort',
      node,
      String(port),
    );
    assert.ok(
      r.ok,
      `the tunnel never said it was ready: ${JSON.stringify(r)} ${ext.testing.logTail.slice(-4).join(' | ')}`,
    );
    assert.match(await banner(r.local), /^SSH-2\.0-/);
    // The tunnel's ssh got no credential variable the extension host has (set for this test).
    const tunnel = tunnelPid(r.local);
    assert.ok(tunnel, 'the tunnel ssh is found');
    const environ = readFileSync(`/proc/${tunnel}/environ`, 'utf8').split('\0');
    assert.ok(environ.some((v) => v.startsWith('PATH=')));
    assert.deepEqual(
      environ.filter((v) => /^(TENSORPOOL_|MY_TOKEN)/.test(v)),
      [],
      'no credential variable',
    );
    const row = (await clusterRows(ext, node)).find((x) => x.node.kind === 'portForward');
    assert.ok(row, 'the forward is listed');
    assert.equal(await vscode.commands.executeCommand('tensorpool.stopForwarding', row.node), true);
    let after = '';
    for (let i = 0; i < 50 && !/ECONNREFUSED/.test(after); i++) {
      await sleep(100);
      after = await banner(r.local);
    }
    assert.match(after, /ECONNREFUSED/, 'nothing listens on the local port after Stop Forwarding');
    assert.equal(ssh(['-O', 'check']).status, 0, "the user's master connection is left alone");
  });
});
