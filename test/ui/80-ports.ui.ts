// Ports on a node through the real workbench: a cluster created with a key of its own (made for this test
// and removed after), a small HTTP server started on its node over ssh, Forward Port… from the palette with
// the node's port typed into the quick pick, Open in Browser from the notification, and the page's text read
// inside the Simple Browser's frame; then Stop Forwarding on the port's row under the node, and no ssh left.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { createOwnKeyCluster, type EngineNode } from './ownKeyCluster';
import type { UiContext, UiTest } from './types';
import { signedIn } from './given';

const NAME = 'ui-ports';
/** This test's key, in the extension host's (throwaway) HOME, where the create wizard lists ~/.ssh keys. */
let KEY = '';

let node: EngineNode | undefined;
let serverPort = 0;
let serverPid = 0;

function onNode(n: EngineNode, command: string): Promise<string> {
  const args = ['-p', String(n.port), '-i', KEY, '-o', 'BatchMode=yes', '-o', 'StrictHostKeyChecking=no'];
  args.push('-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', `${n.user}@${n.host}`, command);
  return new Promise((resolve, reject) =>
    execFile('ssh', args, { timeout: 20_000 }, (err, stdout) =>
      err ? reject(new Error(err.message)) : resolve(stdout),
    ),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The tunnels (ssh -N) logging in with this test's key. */
function tunnels(): number {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const argv = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
        // A tunnel is `ssh -N -L …`; the GPU telemetry's session to the same node (the cluster row is
        // expanded) uses the same key but no -N.
        return /(^|\/)ssh$/.test(argv[0]) && argv.includes(KEY) && argv.includes('-N');
      } catch {
        return false;
      }
    }).length;
}

async function cleanUp(): Promise<void> {
  if (node && serverPid) await onNode(node, `kill ${serverPid} 2>/dev/null; true`).catch(() => undefined);
  if (!KEY) return;
  fs.rmSync(KEY, { force: true });
  fs.rmSync(`${KEY}.pub`, { force: true });
}

export const tests: UiTest[] = [
  {
    name: 'a cluster with its own key, and a small web server on its node',
    async run(ctx: UiContext) {
      await signedIn(ctx);
      const made = await createOwnKeyCluster(ctx, {
        name: NAME,
        instanceType: '1xH100',
        keyName: 'tp_ui_ports_key',
      });
      KEY = made.key;
      node = made.node;
      serverPort = await freePort();
      const js = `require('http').createServer((q,s)=>s.end('hello from '+process.env.TP_NODE)).listen(${serverPort},'127.0.0.1')`;
      serverPid = Number((await onNode(node, `nohup node -e "${js}" >/dev/null 2>&1 & echo $!`)).trim());
      assert.ok(serverPid > 0);
      ctx.log(`node ${node.instance_id} serves on ${serverPort} (pid ${serverPid})`);
    },
  },
  {
    name: 'Forward Port… from the palette, then Open in Browser shows the node’s page in the Simple Browser',
    async run({ workbench, log }: UiContext) {
      try {
        await workbench.runCommand('TensorPool: Forward Port…');
        await workbench.waitForQuickInput(/Which cluster/);
        await workbench.pickQuickItem(NAME);
        await workbench.waitForQuickInput(/The port on the node/);
        await workbench.replaceQuickInputText(String(serverPort));
        await workbench.enterInQuickInput();
        const message = await workbench.notification(/is at http:\/\/127\.0\.0\.1:\d+/, 30_000);
        log(`notification: ${message}`);
        const local = /127\.0\.0\.1:(\d+)/.exec(message)![1];
        await workbench.page
          .locator('.notifications-toasts .notification-list-item')
          .filter({ hasText: /is at http/ })
          .first()
          .locator('.monaco-button', { hasText: 'Open in Browser' })
          .first()
          .click();
        let text = '';
        for (let i = 0; i < 100 && !text.includes('hello from'); i++) {
          for (const frame of workbench.page.frames().filter((f) => f.url().includes(`/proxy/${local}/`)))
            text = await frame
              .locator('body')
              .innerText({ timeout: 1_000 })
              .catch(() => text);
          if (!text.includes('hello from')) await workbench.page.waitForTimeout(200);
        }
        assert.equal(text.trim(), `hello from ${node!.instance_id}`, 'the page inside the Simple Browser');
        log(`Simple Browser shows: ${text.trim()}`);
        log(`screenshot ${await workbench.screenshot('80-ports-simple-browser')}`);
        assert.equal(tunnels(), 1, 'one ssh for the tunnel');

        await workbench.showSections('Clusters');
        const nodeRow = await workbench.expandRow(
          workbench.sidebarRows().filter({ hasText: NAME }).first(),
          /Node 1|node 1/,
        );
        await workbench.expandRow(nodeRow, `127.0.0.1:${local}`);
        // The node's first GPU sample adds its GPU row, which redraws the node row, and VS Code forgets the
        // rows under a row it redraws until it has asked for them again (a click meanwhile reaches the command
        // without its row). After that the node row stays as it is while a port is forwarded under it.
        await workbench.expandRow(nodeRow, /GPU 0/);
        log(`screenshot ${await workbench.screenshot('81-ports-forward-row')}`);
        await workbench.clickRowAction(`127.0.0.1:${local}`, 'Stop Forwarding');
        for (let i = 0; i < 50 && tunnels() > 0; i++) await workbench.page.waitForTimeout(200);
        // The click reached the command with its row: it did not ask which port (its palette picker).
        assert.equal(await workbench.quickInput().first().isVisible(), false, 'no "Which forwarded port?"');
        assert.equal(tunnels(), 0, 'Stop Forwarding ended the ssh');
      } finally {
        await cleanUp();
      }
    },
  },
];
