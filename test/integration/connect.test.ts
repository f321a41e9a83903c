// From a running cluster to a Remote-SSH window or an SSH terminal. The window opener and
// the Remote-SSH check are injected (a test cannot open a second window or install an extension
// offline); the ssh config is written for real, in a scratch home folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { engine } from './helpers';
import { accountIs, api, control, signIn, sleep } from './control';
import { until } from '../shared/wait';

/** The engine's nodes log in as its own OS user (a real sshd on this machine). */
const NODE_USER = os.userInfo().username;
const NODE_HOME = NODE_USER === 'root' ? '/root' : `/home/${NODE_USER}`;

const USER_CONFIG = '# my settings\nHost github.com\n    User git\n\nHost *\n    ServerAliveInterval 30\n';

async function createRunning(name: string, nodes: number): Promise<string> {
  const res = await fetch(`${engine.url}/cluster/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ instance_type: '1xH100', num_nodes: nodes, tp_cluster_name: name }),
  });
  assert.equal(res.status, 202);
  const { cluster_id } = (await res.json()) as { cluster_id: string };
  for (let i = 0; i < 100; i++) {
    const info = (await (
      await fetch(`${engine.url}/cluster/info/${cluster_id}`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { status?: string };
    if (info.status === 'RUNNING') return cluster_id;
    await sleep(100);
  }
  throw new Error(`${name} did not become RUNNING`);
}

async function clusterNode(
  ext: TensorPoolExtensionApi,
  name: string,
): Promise<Extract<ClusterNode, { kind: 'cluster' }>> {
  await ext.refresh();
  const nodes = (await ext.views.clusters.getChildren(undefined)) as ClusterNode[];
  const found = nodes.find((n) => n.kind === 'cluster' && n.cluster.name === name);
  assert.ok(found && found.kind === 'cluster', `${name} in the tree`);
  return found;
}

suite('Connect: Remote-SSH window, SSH terminal, ssh config', () => {
  let ext: TensorPoolExtensionApi;
  let home: string;
  let opened: vscode.Uri[];
  let remoteSsh = true;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    fs.writeFileSync(path.join(home, '.ssh', 'config'), USER_CONFIG, { mode: 0o644 });
    ext.testing.configure({
      home: () => home,
      opener: async (uri) => {
        opened.push(uri);
      },
      hasRemoteSsh: () => remoteSsh,
    });
    await createRunning('gpu-box', 2);
  });
  setup(() => {
    opened = [];
    remoteSsh = true;
  });
  teardown(() => ext.setPrompter(undefined));
  suiteTeardown(async () => {
    ext.testing.configure({});
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sshConfigMode', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('open in a new window: asks once for the Include line, writes our host entries, opens the right URI', async () => {
    const node = await clusterNode(ext, 'gpu-box');
    const [, second] = (await ext.views.clusters.getChildren(node)) as ClusterNode[];
    const p = new ScriptedPrompter(['Add Include Line']);
    ext.setPrompter(p);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('tensorpool.openInRemoteSsh', second);
    assert.equal(opened.length, 1);
    assert.equal(opened[0].toString(), `vscode-remote://ssh-remote%2Btp-gpu-box-2${NODE_HOME}`);
    assert.equal(uri?.authority, 'ssh-remote+tp-gpu-box-2');
    assert.match(p.shown[0].message ?? '', /Include ~\/\.ssh\/tensorpool\/config/);
    const own = fs.readFileSync(path.join(home, '.ssh', 'tensorpool', 'config'), 'utf8');
    const { ip, sshPort } = (second as { instance: { ip: string; sshPort: number } }).instance;
    assert.match(
      own,
      new RegExp(
        `Host tp-gpu-box-2\\n\\s+HostName ${ip.replace(/\./g, '\\.')}\\n\\s+User ${NODE_USER}\\n\\s+Port ${sshPort}\\n`,
      ),
    );
    assert.match(
      own,
      new RegExp(`UserKnownHostsFile ${path.join(home, '.ssh', 'tensorpool', 'known_hosts')}\\n`),
    );
    assert.match(own, /Host tp-gpu-box-1\n/);
    const userConfig = fs.readFileSync(path.join(home, '.ssh', 'config'), 'utf8');
    assert.equal(
      userConfig,
      `Include ~/.ssh/tensorpool/config\n${USER_CONFIG}`,
      'only the Include line was added, at the top',
    );
    assert.equal(fs.statSync(path.join(home, '.ssh', 'config')).mode & 0o777, 0o644, 'mode kept');
    assert.equal(
      fs.statSync(path.join(home, '.ssh', 'tensorpool', 'config')).mode & 0o777,
      0o600,
      'new file is 0600',
    );
  });

  test('the second time nothing is asked and the file is rewritten in place', async () => {
    const node = await clusterNode(ext, 'gpu-box');
    const before = fs.readFileSync(path.join(home, '.ssh', 'tensorpool', 'config'), 'utf8');
    const p = new ScriptedPrompter(['Node 1']);
    ext.setPrompter(p);
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', node);
    assert.equal(opened[0]?.authority, 'ssh-remote+tp-gpu-box-1');
    assert.ok(!p.shown.some((s) => s.kind === 'confirm'));
    assert.equal(fs.readFileSync(path.join(home, '.ssh', 'tensorpool', 'config'), 'utf8'), before);
  });

  test('without Remote-SSH: offers to install it or to open a terminal instead', async () => {
    remoteSsh = false;
    const node = await clusterNode(ext, 'gpu-box');
    const [first] = (await ext.views.clusters.getChildren(node)) as ClusterNode[];
    const p = new ScriptedPrompter(['Open SSH Terminal Instead']);
    ext.setPrompter(p);
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', first);
    assert.deepEqual(p.shown[0].items, ['Install Remote-SSH', 'Open SSH Terminal Instead']);
    assert.equal(opened.length, 0);
    const terminal = vscode.window.terminals.find((t) => t.name === 'TensorPool: gpu-box (node 1)');
    assert.ok(terminal, vscode.window.terminals.map((t) => t.name).join(', '));
    terminal.dispose();
  });

  test("the SSH terminal runs the ssh the extension builds to the node the service's command names", async () => {
    const node = await clusterNode(ext, 'gpu-box');
    const [first] = (await ext.views.clusters.getChildren(node)) as Array<
      Extract<ClusterNode, { kind: 'instance' }>
    >;
    const { command } = (await (
      await fetch(`${engine.url}/ssh/${first.instance.id}?system=linux`, {
        headers: { authorization: `Bearer ${engine.token}` },
      })
    ).json()) as { command: string };
    const terminal = await vscode.commands.executeCommand<vscode.Terminal>(
      'tensorpool.openSshTerminal',
      first,
    );
    assert.ok(terminal);
    const opts = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(terminal.name, 'TensorPool: gpu-box (node 1)');
    const port = String(first.instance.sshPort);
    const built = [
      'ssh',
      '-p',
      port,
      '-o',
      `UserKnownHostsFile=${path.join(home, '.ssh', 'tensorpool', 'known_hosts')}`,
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `HostKeyAlias=tp-gpu-box-1.${node.cluster.id}`,
      `${NODE_USER}@${first.instance.ip}`,
    ];
    assert.deepEqual([opts.shellPath, ...(opts.shellArgs as string[])], built);
    // The same node, port and user as the service's command (which skips host key checks).
    assert.ok(command.split(' ').includes(`${NODE_USER}@${first.instance.ip}`), command);
    assert.match(command, new RegExp(`-p ${port}\\b`));
    terminal.dispose();
    const copied = await vscode.commands.executeCommand<string>('tensorpool.copySshCommand', first);
    assert.equal(copied, built.join(' '));
    assert.equal(await vscode.env.clipboard.readText(), copied);
  });

  test("Copy SSH Command: when the service's command is refused, copies the ssh it built and says so", async () => {
    const node = await clusterNode(ext, 'gpu-box');
    const [first] = (await ext.views.clusters.getChildren(node)) as Array<
      Extract<ClusterNode, { kind: 'instance' }>
    >;
    const hostile = `ssh -o ProxyCommand="sh -c 'touch /tmp/x'" ubuntu@${first.instance.ip}`;
    await control.fault({ method: 'GET', path: '/ssh/*', times: 1, status: 200, body: { command: hostile } });
    const w = vscode.window as unknown as Record<string, unknown>;
    const original = vscode.window.setStatusBarMessage;
    const status: string[] = [];
    w.setStatusBarMessage = (text: string, ...rest: unknown[]) => {
      status.push(text);
      return (original as (...a: unknown[]) => vscode.Disposable).call(vscode.window, text, ...rest);
    };
    try {
      const copied = await vscode.commands.executeCommand<string>('tensorpool.copySshCommand', first);
      assert.match(
        copied ?? '',
        new RegExp(
          `^ssh -p ${first.instance.sshPort} .*HostKeyAlias=tp-gpu-box-1\\.\\S+ ${NODE_USER}@${first.instance.ip}$`,
        ),
      );
      assert.equal(await vscode.env.clipboard.readText(), copied);
      assert.equal(status.length, 1);
      assert.match(status[0], /Copied the SSH command TensorPool built from the node's address: ssh -p /);
      assert.ok(ext.testing.logTail.some((l) => /was not used: it sets ProxyCommand/.test(l)));
    } finally {
      w.setStatusBarMessage = original;
      await control.clearFaults();
    }
  });

  test('an address that is not a host name never reaches the ssh config or a Remote-SSH authority', async () => {
    const node = await clusterNode(ext, 'gpu-box');
    const [first] = (await ext.views.clusters.getChildren(node)) as Array<
      Extract<ClusterNode, { kind: 'instance' }>
    >;
    const own = path.join(home, '.ssh', 'tensorpool', 'config');
    const before = fs.readFileSync(own, 'utf8');
    for (const ip of ['-oProxyCommand=touch', 'h1/evil', 'h1 -F x']) {
      const bad = { ...first, instance: { ...first.instance, ip } };
      const logMark = ext.testing.logTail.length;
      assert.equal(await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', bad), undefined);
      assert.ok(ext.testing.logTail.slice(logMark).some((l) => /is not a host name; not connecting/.test(l)));
    }
    assert.equal(opened.length, 0);
    assert.equal(fs.readFileSync(own, 'utf8'), before, 'the ssh config is unchanged');
  });

  test('a cluster destroyed elsewhere: its hosts go after the next full list; the others stay', async () => {
    const id = await createRunning('elsewhere', 1);
    const node = await clusterNode(ext, 'elsewhere');
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', node);
    const own = () => fs.readFileSync(path.join(home, '.ssh', 'tensorpool', 'config'), 'utf8');
    assert.match(own(), /Host tp-elsewhere-1\n/);
    // Destroyed from the command line (straight to the service), not through this window.
    const res = await fetch(`${engine.url}/cluster/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${engine.token}` },
    });
    assert.ok(res.ok, `DELETE ${res.status}`);
    // A text-only answer and an error are not complete lists: nothing is removed on them.
    await until(
      'gone at the service',
      async () => {
        const r = await fetch(`${engine.url}/cluster/list`, {
          headers: { authorization: `Bearer ${engine.token}` },
        });
        return !JSON.stringify(await r.json()).includes(id);
      },
      20_000,
    );
    for (const fault of [
      { status: 200, body: { message: 'See the dashboard.' } },
      { status: 500, body: { detail: 'boom' } },
    ]) {
      await control.fault({ method: 'GET', path: '/cluster/list', times: -1, ...fault });
      await ext.refresh();
      await sleep(1500);
      assert.match(own(), /Host tp-elsewhere-1\n/, `kept after ${JSON.stringify(fault)}`);
      await control.clearFaults();
    }
    await until(
      'gone from the list',
      async () => {
        await ext.refresh();
        return !ext.testing.clusters.clusters.some((c) => c.id === id);
      },
      20_000,
    );
    await until('its hosts removed', () => !own().includes('tp-elsewhere-1'), 10_000);
    assert.match(own(), /Host tp-gpu-box-1\n[\s\S]*Host tp-gpu-box-2\n/, 'the other cluster’s hosts stay');
    // The line is written once the file's replacement is done, which this test can see a moment before.
    await until(
      'the removal logged',
      () => ext.testing.logTail.some((l) => l.includes(`Removed the SSH hosts of ${id}`)),
      5000,
    );
  });

  test('block mode: a marked block at the end of ~/.ssh/config; a malformed block is refused and nothing changes', async () => {
    await vscode.workspace
      .getConfiguration('tensorpool')
      .update('sshConfigMode', 'block', vscode.ConfigurationTarget.Global);
    await createRunning('blocky', 1);
    const node = await clusterNode(ext, 'blocky');
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', node);
    assert.equal(opened[0]?.authority, 'ssh-remote+tp-blocky-1');
    const text = fs.readFileSync(path.join(home, '.ssh', 'config'), 'utf8');
    assert.ok(text.startsWith(`Include ~/.ssh/tensorpool/config\n${USER_CONFIG}`), 'foreign content kept');
    assert.match(text, /# >>> tensorpool[^\n]*\n[\s\S]*Host tp-blocky-1[\s\S]*# <<< tensorpool <<<\n?$/);
    const broken = `${text}\n# >>> tensorpool (managed by the TensorPool VS Code extension; do not edit) >>>\n`;
    fs.writeFileSync(path.join(home, '.ssh', 'config'), broken);
    opened = [];
    await vscode.commands.executeCommand('tensorpool.openInRemoteSsh', node);
    assert.equal(opened.length, 0, 'did not connect with a config we could not update');
    assert.equal(fs.readFileSync(path.join(home, '.ssh', 'config'), 'utf8'), broken, 'file untouched');
    fs.writeFileSync(path.join(home, '.ssh', 'config'), text);
  });

  test('destroying a cluster removes its hosts', async () => {
    const node = await clusterNode(ext, 'blocky');
    ext.setPrompter(new ScriptedPrompter(['blocky']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', node), true);
    const config = () => fs.readFileSync(path.join(home, '.ssh', 'config'), 'utf8');
    await until('the destroy followed to its end', () => ext.store.clusterOperations.length === 0, 10_000);
    await until('its hosts removed', () => !config().includes('tp-blocky-1'), 10_000);
    const text = config();
    assert.ok(text.startsWith(`Include ~/.ssh/tensorpool/config\n${USER_CONFIG}`));
  });
});
