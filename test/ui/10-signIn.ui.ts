// First flows through the real workbench: open the TensorPool view, sign in from the command palette by
// typing the token, read the notification, see the engine's clusters in the tree.
import * as assert from 'node:assert/strict';
import type { UiTest } from './types';

async function engineClusterNames(ctx: Parameters<UiTest['run']>[0]): Promise<string[]> {
  const body = (await ctx.engine.get('/cluster/list')) as {
    clusters?: Array<{ name?: string; id?: string }>;
  };
  assert.ok(
    Array.isArray(body.clusters) && body.clusters.length > 0,
    'the engine holds no clusters (expected its demo data)',
  );
  return body.clusters.map((c) => String(c.name ?? c.id));
}

export const tests: UiTest[] = [
  {
    name: 'opens the TensorPool view from the activity bar',
    async run({ workbench, log }) {
      await workbench.ready('TensorPool');
      await workbench.openViewContainer('TensorPool', 'Clusters');
      // Signed out: the view's welcome content offers to sign in.
      await workbench.page
        .locator('[id="workbench.parts.sidebar"] .welcome-view-content', { hasText: 'Sign In' })
        .first()
        .waitFor({ timeout: 15_000 });
      log(`screenshot ${await workbench.screenshot('01-view-signed-out')}`);
    },
  },
  {
    name: 'signs in from the command palette by typing the token',
    async run({ workbench, engine, log }) {
      await workbench.runCommand('TensorPool: Sign In');
      // A wrong token first: the server's refusal shows in the box, and what was typed stays.
      await workbench.typeIntoInputBox(/API token/i, 'tp_wrong_token_12345');
      await workbench.enterInQuickInput();
      await workbench.page
        .locator('.quick-input-widget .quick-input-message', { hasText: /rejected/i })
        .first()
        .waitFor({ timeout: 15_000 });
      const kept = await workbench.page.locator('.quick-input-widget input').first().inputValue();
      assert.equal(kept, 'tp_wrong_token_12345', 'the typed token is kept after a refusal');
      log(`refused: "${await workbench.quickInputMessage()}"`);
      log(`screenshot ${await workbench.screenshot('02a-sign-in-wrong-token')}`);
      await workbench.replaceQuickInputText(engine.token);
      log(`screenshot ${await workbench.screenshot('02-sign-in-input-box')}`);
      await workbench.acceptInput();
      const message = await workbench.notification(/Signed in to TensorPool/);
      log(`notification: "${message}"`);
      await workbench.page.waitForTimeout(300); // let the toast finish fading in for the screenshot
      log(`screenshot ${await workbench.screenshot('03-signed-in-notification')}`);
      const status = await workbench.statusBarItem(/tensorpool\.local/);
      log(`status bar: "${status}"`);
      assert.match(status, /dev1@tensorpool\.local/);
    },
  },
  {
    name: "the tree shows the local engine's clusters",
    async run(ctx) {
      const names = await engineClusterNames(ctx);
      const rows = await ctx.workbench.waitForRows(names);
      ctx.log(`tree rows: ${JSON.stringify(rows)}`);
      for (const name of names)
        assert.ok(
          rows.some((r) => r.includes(name)),
          `no tree row for ${name}`,
        );
      ctx.log(`screenshot ${await ctx.workbench.screenshot('04-tree-with-clusters')}`);
    },
  },
];
