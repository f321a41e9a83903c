// Signing out ends the forwarded ports: the rows that list them go with the cluster list, so a tunnel left
// running would be an ssh process nobody can see or stop. Real nodes (the engine's sshd) and the real ssh.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { accountIs, api, control, signIn } from './control';
import { signedInWithScratchHome, until } from './nodes';
import { nodeCluster, nodeServer, sshOnNode, sshProcesses, type ForwardResult } from './portsHelpers';

suite('Ports on a node: signing out', function () {
  this.timeout(120_000);
  let ext: TensorPoolExtensionApi;
  let home: string;

  suiteSetup(async () => {
    ext = await api();
    home = await signedInWithScratchHome(ext, 'tp-ports-signout-', 'tp_node_key');
  });
  suiteTeardown(async () => {
    ext.testing.configure({});
    if (ext.store.account.kind !== 'signedIn') assert.equal((await signIn()).ok, true);
    await control.reset('none');
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('signing out stops every forward and its ssh; signing in again starts none', async () => {
    const { node, real } = await nodeCluster(ext, 'ports-signout');
    const server = await nodeServer(
      (c) => sshOnNode(real, path.join(home, '.ssh', 'tp_node_key'), c),
      `'hi'`,
    );
    try {
      const r = await vscode.commands.executeCommand<ForwardResult>(
        'tensorpool.forwardPort',
        node,
        String(server.port),
      );
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(sshProcesses(home).length, 1, 'one tunnel');
      await vscode.commands.executeCommand('tensorpool.signOut');
      await accountIs(ext, 'signedOut');
      await until(async () => sshProcesses(home).length === 0, 'the tunnel ended with the sign-out', 15_000);
      assert.ok(ext.testing.logTail.some((l) => /Closed 1 forwarded port\(s\): signed out\./.test(l)));
      assert.equal((await signIn()).ok, true);
      await accountIs(ext, 'signedIn');
      await ext.refresh();
      assert.deepEqual(sshProcesses(home), [], 'nothing started again');
    } finally {
      await server.stop();
    }
  });
});
