// Open SSH Terminal on a demo cluster's node, in the real workbench: the node is the engine's sshd on
// 127.0.0.1 and the terminal's ssh (the service's command, which the ssh-command policy accepts) logs in with
// the user's key (the harness's agent; the key saved on the profile, which the demo clusters follow). The
// test types a command in the terminal and reads its output and its effect in the node's folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineCall } from './engineCall';
import type { UiContext, UiTest } from './types';
import { signedIn } from './given';

const CLUSTER = 'llm-train-8xh100';

async function terminalText({ workbench }: UiContext): Promise<string> {
  const rows = workbench.page.locator('.terminal-wrapper.active .xterm-rows');
  await rows.first().waitFor({ timeout: 10_000 });
  return (await rows.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
}

async function waitForText(
  ctx: UiContext,
  pattern: RegExp,
  what: string,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (!pattern.test(text)) {
    assert.ok(Date.now() < deadline, `${what} never showed; terminal:\n${text}`);
    await ctx.workbench.page.waitForTimeout(500);
    text = await terminalText(ctx).catch(() => '');
  }
  return text;
}

export const tests: UiTest[] = [
  {
    name: "Open SSH Terminal on a demo node logs in: the node's prompt, a command typed there runs on the node",
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, engine, userKey, log } = ctx;
      const added = await engineCall(engine, 'POST', '/user/ssh-key/add', {
        public_key: userKey.publicKey,
        name: 'ui-ssh-terminal-key',
      });
      try {
        await workbench.runCommand('TensorPool: Open SSH Terminal');
        await workbench.waitForQuickInput(/Connect to a Cluster|Which cluster/i);
        await workbench.pickQuickItem(CLUSTER);
        // The demo's training cluster has two nodes: the first.
        await workbench.waitForQuickInput(/Which node\?/);
        await workbench.enterInQuickInput();
        const prompt = await waitForText(ctx, /[#$]\s*$/m, "the node's prompt");
        log(
          `prompt: ${prompt
            .split('\n')
            .filter((l) => l.trim())
            .slice(-1)[0]
            ?.trim()}`,
        );
        await workbench.page.locator('.terminal-wrapper.active .xterm').first().click();
        await workbench.page.keyboard.type('echo on-node-$TP_NODE && touch ui-was-here');
        await workbench.page.keyboard.press('Enter');
        const text = await waitForText(ctx, /on-node-i-[0-9a-f]+/, 'the output of the typed command');
        const instance = /on-node-(i-[0-9a-f]+)/.exec(text)![1];
        log(`ran on ${instance}`);
        const made = path.join(engine.dataDir, 'nodes', instance, 'home', 'ui-was-here');
        assert.ok(fs.existsSync(made), `the command's effect is in the node's folder (${made})`);
        log(`screenshot ${await workbench.screenshot('56-ssh-terminal-on-node')}`);
        await workbench.page.keyboard.type('exit');
        await workbench.page.keyboard.press('Enter');
      } finally {
        await engineCall(engine, 'DELETE', `/user/ssh-key/remove/${added.key_id}`).catch(() => undefined);
      }
    },
  },
];
