// Connect against the engine's real nodes (OpenSSH sshd on 127.0.0.1, one port and host key each): the
// SSH terminal logs in and what it types lands in the node's folder; the copied command and our ssh
// config entry log in with BatchMode; `ssh -G` shows the entry Remote-SSH would use; a destroyed and
// re-created cluster on the same port logs in with no host-key error while a key changed under a live
// cluster is refused and explained; no accepted key, a node whose server is down and a missing ssh are
// explained. The real ssh client throughout; every ssh the tests or the extension start is counted.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { splitCommand } from '../../src/model/sshCommand';
import { ACCEPT, ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engineNodes, run, until, type InstanceNode } from './nodes';
import { accountIs, api, control, signIn, sleep } from './control';

suite('Connect against real nodes (OpenSSH)', function () {
  this.timeout(90_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  const terminals: vscode.Terminal[] = [];
  const opened: vscode.Uri[] = [];

  const own = () => path.join(home, '.ssh', 'tensorpool', 'config');
  const knownHosts = () => path.join(home, '.ssh', 'tensorpool', 'known_hosts');
  const key = () => path.join(home, '.ssh', 'tp_node_key');

  /** ssh clients this suite or the extension started for its scratch home (the test's own `ssh` runs ended). */
  function sshLeft(): string[] {
    const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
    return ps
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^\d+ ssh\s/.test(l) && l.includes(home));
  }

  async function createCluster(name: string, keyLabel: string): Promise<string> {
    ext.setPrompter(
      new ScriptedPrompter(
        keyLabel === 'No new key'
          ? ['1xH100', ACCEPT, name, keyLabel, ACCEPT, 'Off', 'Create cluster']
          : ['1xH100', ACCEPT, name, keyLabel, 'Only for this cluster', ACCEPT, 'Off', 'Create cluster'],
      ),
    );
    const id = await vscode.commands.executeCommand<string>('tensorpool.createCluster');
    assert.ok(id, 'created');
    await until(
      async () => (await engineNodes()).some((n) => n.cluster_id === id && n.state === 'up'),
      `${name}'s node is up`,
      30_000,
    );
    await until(
      async () => {
        await ext.refresh();
        return ext.testing.clusters.data?.clusters?.find((c) => c.id === id)?.status === 'RUNNING';
      },
      `${name} RUNNING in the list`,
      30_000,
    );
    return id;
  }

  async function firstNode(clusterId: string): Promise<InstanceNode> {
    await ext.refresh();
    const rows = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
    const c = rows.find((r) => r.kind === 'cluster' && r.cluster.id === clusterId);
    assert.ok(c, `${clusterId} in the tree`);
    const [first] = (await ext.views.clusters.getChildren(c)) as InstanceNode[];
    assert.ok(first?.instance.ip, 'the node has an address');
    return first;
  }

  const nodeOf = async (instanceId: string) =>
    (await engineNodes()).find((n) => n.instance_id === instanceId)!;

  async function openTerminal(target: unknown): Promise<vscode.Terminal | undefined> {
    const t = await vscode.commands.executeCommand<vscode.Terminal | undefined>(
      'tensorpool.openSshTerminal',
      target,
    );
    if (t) terminals.push(t);
    return t;
  }

  async function destroy(name: string, target: unknown): Promise<void> {
    ext.setPrompter(new ScriptedPrompter([name]));
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', target), true);
    await until(
      async () => ext.store.clusterOperations.length === 0,
      'the release tracked to its end',
      30_000,
    );
  }

  const logged = (re: RegExp, from: number) => ext.testing.logTail.slice(from).some((l) => re.test(l));

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-nodes-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tp-itest', '-f', key()]);
    ext.testing.configure({
      home: () => home,
      opener: async (uri) => {
        opened.push(uri);
      },
      hasRemoteSsh: () => true,
      isTrusted: () => true,
    });
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    for (const t of terminals.splice(0)) t.dispose();
    await until(async () => sshLeft().length === 0, 'no ssh left', 15_000).catch(() => undefined);
    assert.deepEqual(sshLeft(), [], 'no ssh process left behind');
  });
  suiteTeardown(async () => {
    ext.testing.configure({});
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  let clusterId: string;
  let node: InstanceNode;

  test('a terminal on a node logs in with the key the cluster was created with; what it runs lands in the node’s folder', async () => {
    clusterId = await createCluster('real', 'tp_node_key.pub');
    node = await firstNode(clusterId);
    const real = await nodeOf(node.instance.id);
    assert.equal(node.instance.sshPort, real.port, 'the node’s own port is known');
    assert.equal(node.instance.sshUser, real.user);
    const terminal = await openTerminal(node);
    assert.ok(terminal);
    const o = terminal.creationOptions as vscode.TerminalOptions;
    assert.deepEqual(
      [o.shellPath, ...(o.shellArgs as string[])],
      [
        'ssh',
        '-p',
        String(real.port),
        '-i',
        key(),
        '-o',
        `UserKnownHostsFile=${knownHosts()}`,
        '-o',
        'StrictHostKeyChecking=accept-new',
        '-o',
        `HostKeyAlias=tp-real-1.${clusterId}`,
        `${real.user}@127.0.0.1`,
      ],
    );
    const marker = path.join(real.dir, 'home', 'from-terminal.txt');
    // Typed again until it runs (what is typed before the login is done may be lost). The shell creates the
    // file before echo writes to it, and a later copy of the line empties it again: what counts is a
    // reading with the text in it.
    let typed = '';
    await until(
      async () => {
        terminal.sendText('echo "typed on $TP_NODE" > from-terminal.txt');
        await sleep(700);
        typed = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').trim() : '';
        return typed !== '';
      },
      'the command ran on the node',
      30_000,
    );
    assert.equal(typed, `typed on ${node.instance.id}`);
    assert.match(fs.readFileSync(knownHosts(), 'utf8'), new RegExp(`tp-real-1\\.${clusterId}|^\\|1\\|`, 'm'));
    terminal.sendText('exit');
    await until(async () => terminal.exitStatus !== undefined, 'the login ended', 15_000);
  });

  test('the copied SSH command and `ssh -F <our config> <alias>` log in with BatchMode; ssh -G shows the Remote-SSH entry', async () => {
    const copied = await vscode.commands.executeCommand<string>('tensorpool.copySshCommand', node);
    assert.ok(copied);
    assert.equal(await vscode.env.clipboard.readText(), copied);
    const argv = splitCommand(copied);
    const dest = argv[argv.length - 1];
    const pasted = await run(argv[0], [
      ...argv.slice(1, -1),
      '-o',
      'BatchMode=yes',
      dest,
      'echo "on $TP_NODE"',
    ]);
    assert.equal(pasted.code, 0, pasted.stderr);
    assert.equal(pasted.stdout.trim(), `on ${node.instance.id}`);

    ext.setPrompter(new ScriptedPrompter(['Add Include Line']));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('tensorpool.openInRemoteSsh', node);
    assert.equal(uri?.authority, 'ssh-remote+tp-real-1');
    const real = await nodeOf(node.instance.id);
    const g = await run('ssh', ['-G', '-F', own(), 'tp-real-1']);
    assert.equal(g.code, 0, g.stderr);
    const conf = new Map(g.stdout.split('\n').map((l) => [l.split(' ')[0], l.slice(l.indexOf(' ') + 1)]));
    assert.equal(conf.get('hostname'), '127.0.0.1');
    assert.equal(conf.get('port'), String(real.port));
    assert.equal(conf.get('user'), real.user);
    assert.equal(conf.get('identityfile'), key());
    assert.equal(conf.get('userknownhostsfile'), knownHosts());
    assert.equal(conf.get('stricthostkeychecking'), 'accept-new');
    assert.equal(conf.get('hostkeyalias'), `tp-real-1.${clusterId}`);
    const viaAlias = await run('ssh', [
      '-F',
      own(),
      '-o',
      'BatchMode=yes',
      'tp-real-1',
      'echo "alias $TP_NODE"',
    ]);
    assert.equal(viaAlias.code, 0, viaAlias.stderr);
    assert.equal(viaAlias.stdout.trim(), `alias ${node.instance.id}`);
  });

  test('a host key changed under a live cluster is refused, and the terminal’s failure is explained', async () => {
    const real = await nodeOf(node.instance.id);
    // The engine's control cannot change a live node's key: its sshd reads the key file per connection.
    const hostKey = path.join(real.dir, 'etc', 'ssh_host_ed25519_key');
    fs.rmSync(hostKey);
    fs.rmSync(`${hostKey}.pub`, { force: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
    const refused = await run('ssh', ['-F', own(), '-o', 'BatchMode=yes', 'tp-real-1', 'true']);
    assert.equal(refused.code, 255);
    assert.match(refused.stderr, /REMOTE HOST IDENTIFICATION HAS CHANGED/);
    const mark = ext.testing.logTail.length;
    const terminal = await openTerminal(node);
    assert.ok(terminal);
    await until(
      async () => logged(/its host key is not the one recorded/, mark),
      'the refusal is explained',
      30_000,
    );
    assert.ok(logged(/This is what an attack/, mark));
  });

  test('destroy, then re-create on the same port: logs in again with no host-key error; the old keys are gone', async () => {
    const old = await nodeOf(node.instance.id);
    const before = fs.readFileSync(knownHosts(), 'utf8');
    assert.ok(before.trim().length > 0, 'a key was recorded');
    await destroy('real', clusterId);
    // The host entries go first, then the host keys (connectLogin.ts's removeClusterHosts).
    await until(async () => !fs.readFileSync(own(), 'utf8').includes(clusterId), 'hosts removed', 10_000);
    await until(
      async () => fs.readFileSync(knownHosts(), 'utf8').trim() === '',
      'the destroyed cluster’s host keys dropped',
      10_000,
    );
    await engineNodes({ ports: [old.port] });
    const again = await createCluster('real', 'tp_node_key.pub');
    assert.notEqual(again, clusterId);
    node = await firstNode(again);
    clusterId = again;
    assert.equal((await nodeOf(node.instance.id)).port, old.port, 'the same port');
    const text = await vscode.commands.executeCommand<string | undefined>('tensorpool.copySshCommand', node);
    assert.ok(text);
    const copied = splitCommand(text);
    const r = await run(copied[0], [
      ...copied.slice(1, -1),
      '-o',
      'BatchMode=yes',
      copied[copied.length - 1],
      'true',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /IDENTIFICATION HAS CHANGED/);
    ext.setPrompter(new ScriptedPrompter([]));
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', node);
    const viaAlias = await run('ssh', ['-F', own(), '-o', 'BatchMode=yes', 'tp-real-1', 'true']);
    assert.equal(viaAlias.code, 0, viaAlias.stderr);
  });

  test('no accepted key: the user is told which keys the cluster accepts and how to add one', async () => {
    const id = await createCluster('nokey', 'No new key');
    const target = await firstNode(id);
    const mark = ext.testing.logTail.length;
    assert.ok(await openTerminal(target));
    await until(async () => logged(/accepted none of your SSH keys/, mark), 'explained', 30_000);
    assert.ok(logged(/Add SSH Key/, mark));
  });

  test('the node’s server is down: said so, not a raw ssh error', async () => {
    await engineNodes({ down: node.instance.id });
    const mark = ext.testing.logTail.length;
    assert.ok(await openTerminal(node));
    await until(async () => logged(/does not answer/, mark), 'explained', 30_000);
  });

  test('ssh missing on this computer: no terminal, and what to install', async () => {
    const env = { PATH: path.join(home, 'no-such-bin') };
    ext.testing.configure({
      home: () => home,
      opener: async () => undefined,
      hasRemoteSsh: () => true,
      isTrusted: () => true,
      env: () => env,
    });
    const mark = ext.testing.logTail.length;
    assert.equal(await openTerminal(node), undefined);
    assert.ok(logged(/ssh was not found on this computer\. Install the OpenSSH client/, mark));
  });
});
