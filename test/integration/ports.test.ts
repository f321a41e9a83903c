// Ports on a node against the engine's real nodes (OpenSSH sshd on 127.0.0.1) and the real ssh client:
// Forward Port gives a local URL that serves the node's own HTTP server (a real GET through the real
// tunnel), lists it under the node, opens it in the browser through asExternalUri, and Stop ends its ssh
// (counted from /proc); a taken local port and a closed remote port are told and leave nothing; a local port
// another program binds before ssh listens is replaced once; a dropped
// tunnel reconnects; Open Jupyter reads the token from the node (a stand-in `jupyter` in the node's bin/)
// and opens the browser signed in while no log line, state or command line shows the token; destroying
// the cluster closes its tunnels.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import type { ClusterNode } from '../../src/vscode/clusters/clustersTree';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn } from './control';
import { until, type EngineNode, type InstanceNode } from './nodes';
import {
  freePort,
  httpGet,
  nodeCluster,
  nodeServer,
  sshOnNode,
  sshProcesses,
  type ForwardResult,
} from './portsHelpers';

type ForwardRow = Extract<ClusterNode, { kind: 'portForward' }>;

suite('Ports on a node (real ssh tunnels)', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;
  let clusterId: string;
  let node: InstanceNode;
  let real: EngineNode;
  const browsed: { uri: vscode.Uri; where: string }[] = [];
  const stops: (() => Promise<void>)[] = [];
  let seams: Parameters<TensorPoolExtensionApi['testing']['configure']>[0];
  const key = () => path.join(home, '.ssh', 'tp_node_key');
  const ours = () => sshProcesses(home);
  const logged = (re: RegExp, from: number) => ext.testing.logTail.slice(from).some((l) => re.test(l));
  /** A forward that failed, with the extension's last log lines (ssh's own words are there). */
  const failedForward = (r: ForwardResult) =>
    `${JSON.stringify(r)}; the log ends: ${ext.testing.logTail.slice(-6).join(' | ')}`;
  const forward = (target: unknown, port: string) =>
    vscode.commands.executeCommand<ForwardResult>('tensorpool.forwardPort', target, port);

  async function forwardRows(): Promise<ForwardRow[]> {
    return ((await ext.views.clusters.getChildren(node)) ?? []) as ForwardRow[];
  }

  /** Run a command on the node as the test's own ssh (the key the cluster was created with). */
  const onNode = (command: string) => sshOnNode(real, key(), command);

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    await control.config({ pendingMs: 100, processingMs: 200 });
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ports-home-'));
    fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tp-ports', '-f', key()]);
    seams = {
      home: () => home,
      isTrusted: () => true,
      browse: async (uri, where) => {
        browsed.push({ uri, where });
      },
    };
    ext.testing.configure(seams);
    ({ clusterId, node, real } = await nodeCluster(ext, 'ports'));
    assert.equal(node.instance.sshPort, real.port);
  });
  teardown(async () => {
    ext.setPrompter(undefined);
    for (const stop of stops.splice(0)) await stop();
    for (const row of await forwardRows().catch(() => []))
      await vscode.commands.executeCommand('tensorpool.stopForwarding', row);
    await until(async () => ours().length === 0, 'no ssh left', 15_000).catch(() => undefined);
    assert.deepEqual(ours(), [], 'no ssh process left behind');
  });
  suiteTeardown(async () => {
    ext.testing.configure({});
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('Forward Port: a local URL serving the node’s page through the real tunnel, listed under the node; Stop ends its ssh', async () => {
    const server = await nodeServer(onNode, `'hello from '+process.env.TP_NODE`);
    stops.push(server.stop);
    const r = await forward(node, String(server.port));
    assert.ok(r.ok, failedForward(r));
    // The node is this machine, so its port is taken here: another local port, and the outcome says so.
    assert.equal(r.same, false);
    assert.notEqual(r.local, server.port);
    assert.equal(r.url, `http://127.0.0.1:${r.local}/`);
    assert.equal(await httpGet(r.url), `hello from ${node.instance.id}`);
    assert.equal(ours().length, 1, 'one ssh for the tunnel');
    assert.deepEqual(await forward(node, String(server.port)), r, 'forwarded again: the same tunnel');
    assert.equal(ours().length, 1, 'still one ssh');
    const [row] = await forwardRows();
    assert.equal(row.kind, 'portForward');
    const item = ext.views.clusters.getTreeItem(row) as vscode.TreeItem;
    assert.equal(item.label, r.url);
    assert.match(String(item.contextValue), /^portForward up/);
    const nodeItem = ext.views.clusters.getTreeItem(node) as vscode.TreeItem;
    assert.equal(nodeItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);

    assert.equal(await vscode.commands.executeCommand('tensorpool.openForwardedPort', row), 'simpleBrowser');
    const opened = browsed.at(-1)!;
    assert.equal(opened.where, 'simpleBrowser');
    assert.match(opened.uri.toString(), new RegExp(String(r.local)), 'the address, through asExternalUri');

    assert.equal(await vscode.commands.executeCommand('tensorpool.stopForwarding', row), true);
    await until(async () => ours().length === 0, 'the tunnel’s ssh ended');
    assert.deepEqual(await forwardRows(), []);
    await assert.rejects(httpGet(r.url), 'nothing serves the local port any more');
  });

  test('a local port in use (asked for exactly) and a node port nothing listens on are told, and leave nothing', async () => {
    const server = await nodeServer(onNode, `'up'`);
    stops.push(server.stop);
    const holder = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    stops.push(async () => void holder.close());
    const taken = (holder.address() as net.AddressInfo).port;
    const from = ext.testing.logTail.length;
    const r = await forward(node, `${taken}:${server.port}`);
    assert.deepEqual(r, { ok: false, reason: 'taken' });
    assert.ok(logged(new RegExp(`Local port ${taken} is already in use`), from));

    const closed = await freePort();
    const c = await forward(node, String(closed));
    assert.deepEqual(c, { ok: false, reason: 'closed' });
    assert.ok(logged(new RegExp(`Nothing listens on port ${closed} on node 1`), from));
    assert.deepEqual(await forwardRows(), []);
    assert.deepEqual(ours(), []);

    const typo = await forward(node, '70000');
    assert.deepEqual(typo, { ok: false, reason: 'cancelled' }, 'refused before anything runs');
  });

  test('a local port another program binds after it was chosen, before ssh listens: another free port, once', async () => {
    const server = await nodeServer(onNode, `'second try'`);
    stops.push(server.stop);
    const holder = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    stops.push(async () => void holder.close());
    const held = (holder.address() as net.AddressInfo).port;
    // The first free port handed out is the one held (as if bound by another program just after the check).
    const handedOut: number[] = [];
    ext.testing.configure({
      ...seams,
      freePort: async () => {
        const port = handedOut.length === 0 ? held : await freePort();
        handedOut.push(port);
        return port;
      },
    });
    stops.push(async () => ext.testing.configure(seams));
    const from = ext.testing.logTail.length;
    const r = await forward(node, String(server.port));
    assert.ok(r.ok, failedForward(r));
    assert.equal(handedOut.length, 2, 'one more port after the real ssh could not listen');
    assert.equal(r.local, handedOut[1]);
    assert.equal(await httpGet(r.url), 'second try');
    assert.ok(logged(new RegExp(`Local port ${held} was taken before the tunnel could listen`), from));
    assert.equal(ours().length, 1, 'the failed ssh is gone; one tunnel runs');
  });

  test('a tunnel that drops is marked so and Reconnect brings it back on the same local port', async () => {
    const server = await nodeServer(onNode, `'again'`);
    stops.push(server.stop);
    const r = await forward(node, String(server.port));
    assert.ok(r.ok);
    const [pid] = ours().map((p) => p.pid);
    process.kill(pid, 'SIGKILL');
    await until(async () => (await forwardRows())[0]?.forward.state === 'dropped', 'marked dropped');
    const [row] = await forwardRows();
    assert.match(String((ext.views.clusters.getTreeItem(row) as vscode.TreeItem).contextValue), /dropped/);
    assert.equal(await vscode.commands.executeCommand('tensorpool.reconnectForward', row), true);
    const [again] = await forwardRows();
    assert.equal(again.forward.state, 'up');
    assert.equal(again.forward.local, r.local);
    assert.equal(await httpGet(r.url), 'again');
  });

  test('Open Jupyter reads the token on the node and opens the browser signed in; the token is nowhere else', async () => {
    const token = crypto.randomBytes(24).toString('hex');
    // A tiny server that wants the token, and a stand-in `jupyter` (first on the node's PATH) listing it.
    const server = await nodeServer(
      onNode,
      `(new URL(q.url,'http://x').searchParams.get('token')==='${token}'?'signed in to '+q.url.split('?')[0]:(s.statusCode=403,'no token'))`,
    );
    stops.push(server.stop);
    const bin = path.join(real.dir, 'bin', 'jupyter');
    fs.writeFileSync(
      bin,
      `#!/bin/sh\n[ "$1 $2 $3" = "server list --json" ] || exit 2\necho '[W] a warning line'\n` +
        `echo '{"base_url": "/", "port": ${server.port}, "token": "${token}", "url": "http://127.0.0.1:${server.port}/"}'\n`,
      { mode: 0o755 },
    );
    stops.push(async () => fs.rmSync(bin, { force: true }));
    const from = ext.testing.logTail.length;
    const r = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openJupyter', node);
    assert.ok(r.ok, failedForward(r));
    assert.equal(
      await httpGet(r.url).catch((e: Error) => e.message),
      'HTTP 403',
      'the plain address is not signed in',
    );
    const opened = browsed.at(-1)!.uri.toString(true);
    const direct = new URL(opened);
    // assert.ok, not equal: a failure must not print the token.
    assert.ok(
      direct.searchParams.get('token') === token,
      `the browser gets the token in the URL: ${opened.split(token).join('<token>')}`,
    );
    assert.equal(await httpGet(`${r.url}lab?token=${token}`), 'signed in to /lab');
    assert.equal(await httpGet(opened), 'signed in to /lab', 'the address the browser got, as it is');
    const everywhere = [
      ext.testing.logTail.slice(from).join('\n'),
      JSON.stringify(ext.testing.globalState()),
      JSON.stringify(vscode.workspace.getConfiguration('tensorpool')),
      ours()
        .map((p) => p.args)
        .join('\n'),
      JSON.stringify((await forwardRows()).map((f) => ext.views.clusters.getTreeItem(f))),
    ].join('\n');
    assert.ok(
      !everywhere.includes(token),
      'the token is in no log line, state, setting, command line or row',
    );

    // Without Jupyter on the node: how to install it, and nothing started.
    fs.rmSync(bin);
    await vscode.commands.executeCommand('tensorpool.stopForwarding', (await forwardRows())[0]);
    if ((await onNode('command -v jupyter')).code === 0) return; // a real Jupyter on this machine
    const none = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openJupyter', node);
    assert.deepEqual(none, { ok: false, reason: 'closed' });
    assert.ok(logged(/Jupyter is not installed on node 1 .*pip install jupyterlab/, from));
  });

  test('Open Jupyter with no server running starts `jupyter lab` in a terminal on the node and opens it once listed', async () => {
    const token = crypto.randomBytes(24).toString('hex');
    const port = await freePort();
    const dir = real.dir;
    // The stand-in lists nothing until its server listens; `jupyter lab …` (run by the terminal) starts it.
    fs.writeFileSync(
      path.join(dir, 'jserver.js'),
      `require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'jserver.pid'))}, String(process.pid));\n` +
        `require('http').createServer((q,s)=>s.end(q.url.includes('${token}')?'lab up':'no token'))` +
        `.listen(${port},'127.0.0.1',()=>require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'jupyter-up'))},''));\n`,
    );
    const bin = path.join(dir, 'bin', 'jupyter');
    fs.writeFileSync(
      bin,
      `#!/bin/sh\ncase "$1 $2 $3" in\n` +
        `"server list --json") [ -f "$TP_NODE_DIR/jupyter-up" ] && ` +
        `echo '{"base_url": "/", "port": ${port}, "token": "${token}"}'; exit 0;;\n` +
        `"lab --no-browser --ip") exec node "$TP_NODE_DIR/jserver.js";;\nesac\nexit 2\n`,
      { mode: 0o755 },
    );
    stops.push(async () => {
      for (const t of vscode.window.terminals.filter((x) => x.name.startsWith('Jupyter'))) t.dispose();
      const pid = Number(fs.readFileSync(path.join(dir, 'jserver.pid'), 'utf8'));
      await until(async () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 'the terminal’s Jupyter ended with its ssh').catch(() => process.kill(pid, 'SIGKILL'));
      for (const f of [bin, 'jserver.js', 'jserver.pid', 'jupyter-up'])
        fs.rmSync(path.resolve(dir, f), { force: true });
    });
    const prompter = new ScriptedPrompter(['Start in a Terminal']);
    ext.setPrompter(prompter);
    const r = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openJupyter', node);
    assert.ok(r.ok, failedForward(r));
    const asked = prompter.shown.find((x) => x.kind === 'confirm')!;
    assert.match(String(asked.detail), /jupyter lab --no-browser --ip 127\.0\.0\.1 --port 8888/);
    const terminal = vscode.window.terminals.find((x) => x.name.startsWith('Jupyter'));
    assert.ok(terminal, 'a terminal on the node runs it');
    const o = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(o.shellPath, 'ssh');
    assert.deepEqual((o.shellArgs as string[]).slice(-3), [
      '-t',
      `${real.user}@127.0.0.1`,
      'jupyter lab --no-browser --ip 127.0.0.1 --port 8888',
    ]);
    assert.ok(!JSON.stringify(o).includes(token), 'no token in the terminal');
    const opened = browsed.at(-1)!.uri.toString(true);
    assert.equal(await httpGet(opened), 'lab up', 'the browser’s address is signed in');
    assert.ok(!ext.testing.logTail.join('\n').includes(token));
  });

  test('Open TensorBoard with nothing on 6006 and no tensorboard on the node says how to install it', async function () {
    const probe = await onNode(
      `bash -c 'exec 3<>/dev/tcp/127.0.0.1/6006' 2>/dev/null && echo busy; command -v tensorboard`,
    );
    if (probe.stdout.trim()) this.skip(); // something serves 6006 here, or TensorBoard is installed
    const from = ext.testing.logTail.length;
    const r = await vscode.commands.executeCommand<ForwardResult>('tensorpool.openTensorBoard', node);
    assert.deepEqual(r, { ok: false, reason: 'closed' });
    assert.ok(logged(/TensorBoard is not installed on node 1 .*pip install tensorboard/, from));
  });

  test('destroying the cluster closes its tunnels', async () => {
    const server = await nodeServer(onNode, `'bye'`);
    const r = await forward(node, String(server.port));
    assert.ok(r.ok);
    assert.equal(ours().length, 1);
    await server.stop(); // before its node goes (the tunnel stays up without it)
    ext.setPrompter(new ScriptedPrompter(['ports']));
    assert.equal(await vscode.commands.executeCommand('tensorpool.destroyCluster', node.cluster.id), true);
    await until(async () => ours().length === 0, 'the tunnel closed with the cluster', 30_000);
    await until(
      async () => ext.store.clusterOperations.length === 0,
      'the release tracked to its end',
      30_000,
    );
    assert.ok(ext.testing.logTail.some((l) => l.includes(`forwarded port(s) of ${clusterId}`)));
  });
});
