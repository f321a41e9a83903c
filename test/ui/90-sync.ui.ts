// Sync Folder to Node through the real workbench: a cluster whose node accepts the user's key (the agent's),
// a project folder in the workspace, Sync Folder to Node… from the folder's context menu in the Explorer (the
// cluster picked, the folder on the node accepted), the status bar turning to "synced" with the file on the
// node; then the file edited and saved in an editor, and its new content on the node; then Pull from Node…
// (a pick of several files, all ticked) brings two files made on the node. The sync is stopped and the
// cluster removed at the end.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineCall } from './engineCall';
import { signedIn } from './given';
import type { UiContext, UiTest } from './types';

const NAME = 'ui-sync';
const PROJECT = 'ui-sync-project';
let clusterId = '';
let nodeHome = '';

async function until(what: string, check: () => boolean | Promise<boolean>, ctx: UiContext, ms = 30_000) {
  for (const end = Date.now() + ms; !(await check());) {
    assert.ok(Date.now() < end, `timed out waiting for ${what}`);
    await ctx.workbench.page.waitForTimeout(200);
  }
}

const onNode = (file: string) => fs.readFileSync(path.join(nodeHome, PROJECT, file), 'utf8');

export const tests: UiTest[] = [
  {
    name: 'a running cluster that accepts the user’s key, and a project folder',
    async run(ctx: UiContext) {
      await signedIn(ctx);
      const { engine, workbench } = ctx;
      await engineCall(engine, 'POST', '/cluster/create', {
        instance_type: '1xH100',
        tp_cluster_name: NAME,
        public_keys: [ctx.userKey.publicKey],
        save_keys: false,
      });
      await until(
        'the cluster and its node',
        async () => {
          const list = (await engine.get('/cluster/list')) as {
            clusters?: Array<{ id: string; name?: string; status?: string }>;
          };
          const c = list.clusters?.find((x) => x.name === NAME);
          const nodes = (await engine.get('/_engine/nodes')) as {
            nodes: Array<{ cluster_id: string; state: string; dir: string }>;
          };
          const n = c && nodes.nodes.find((x) => x.cluster_id === c.id && x.state === 'up');
          if (c?.status !== 'RUNNING' || !n) return false;
          clusterId = c.id;
          nodeHome = path.join(n.dir, 'home');
          return true;
        },
        ctx,
        60_000,
      );
      await workbench.runCommand('TensorPool: Refresh', { exact: true });
      fs.mkdirSync(path.join(ctx.workspace, PROJECT, 'src'), { recursive: true });
      fs.writeFileSync(path.join(ctx.workspace, PROJECT, 'src', 'hello.py'), 'print("v1")\n');
      fs.writeFileSync(path.join(ctx.workspace, PROJECT, 'debug.log'), 'left out\n');
      fs.writeFileSync(path.join(ctx.workspace, PROJECT, '.gitignore'), '*.log\n');
    },
  },
  {
    name: 'Sync Folder to Node… from the Explorer: the status bar says synced and the files are on the node',
    async run(ctx: UiContext) {
      const { workbench, log } = ctx;
      const page = workbench.page;
      await workbench.runCommand('View: Show Explorer');
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: PROJECT }).first();
      await row.waitFor({ timeout: 20_000 });
      await row.click({ button: 'right' });
      const item = page
        .locator('.monaco-menu .action-item', { hasText: /^\s*Sync Folder to Node…\s*$/ })
        .first();
      await item.hover();
      await page
        .locator('.monaco-menu .action-item.focused', { hasText: 'Sync Folder to Node' })
        .first()
        .waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      await workbench.waitForQuickInput(/Sync Folder to Node|Which cluster/);
      await workbench.pickQuickItem(NAME);
      await workbench.waitForQuickInput(/The folder on node 1/);
      await workbench.enterInQuickInput();
      const text = await workbench.statusBarItem(/node 1 · synced/, 30_000);
      log(`status bar: ${text}`);
      assert.ok(!/not watching/.test(text), 'watching once synced');
      assert.equal(onNode('src/hello.py'), 'print("v1")\n');
      assert.ok(!fs.existsSync(path.join(nodeHome, PROJECT, 'debug.log')), 'the ignored file stays here');
      log(`screenshot ${await workbench.screenshot('90-sync-synced')}`);
    },
  },
  {
    name: 'a file saved in the editor reaches the node, and the status bar says synced again',
    async run(ctx: UiContext) {
      const { workbench, log } = ctx;
      const page = workbench.page;
      try {
        await page.keyboard.press('Control+P');
        await workbench.waitForQuickInput(/./);
        // Into the box's own input: the focus can stay on a terminal an earlier flow left focused. The file's
        // absolute path: Quick Open looks that up itself, while a name goes through its search, whose cache
        // may not have seen a file written outside the editor yet.
        await page
          .locator('.quick-input-widget input')
          .fill(path.join(ctx.workspace, PROJECT, 'src', 'hello.py'));
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.py' }).first().waitFor();
        await page.keyboard.press('Enter');
        const editor = page.locator('.editor-instance .monaco-editor .view-lines').first();
        await editor.waitFor({ timeout: 15_000 });
        await editor.click();
        await page.keyboard.press('Control+A');
        await page.keyboard.type('print("v2")');
        await page.keyboard.press('Control+S');
        await until(
          'the saved file on the node',
          () => onNode('src/hello.py').startsWith('print("v2")'),
          ctx,
        );
        const text = await workbench.statusBarItem(/node 1 · synced/, 15_000);
        log(`status bar after the save: ${text}`);
        // Pull from Node…: a pick of several files, every one ticked; Enter brings them all here.
        fs.mkdirSync(path.join(nodeHome, PROJECT, 'out'), { recursive: true });
        fs.writeFileSync(path.join(nodeHome, PROJECT, 'out', 'a.txt'), 'result a\n');
        fs.writeFileSync(path.join(nodeHome, PROJECT, 'out', 'b.txt'), 'result b\n');
        await workbench.runCommand('TensorPool: Pull from Node…', { exact: true });
        await workbench.waitForQuickInput(/Pull from node 1: 2 files/);
        const rows = page.locator('.quick-input-list .monaco-list-row');
        await rows.first().waitFor({ timeout: 10_000 });
        assert.equal(await rows.count(), 2, 'the two new files on the node');
        log(`screenshot ${await workbench.screenshot('90-sync-pull')}`);
        // The box's text input (a pick of several rows also has its "select all" checkbox).
        await page.locator('.quick-input-widget input:not([type="checkbox"])').first().press('Enter');
        const here = (f: string) => path.join(ctx.workspace, PROJECT, 'out', f);
        await until(
          'both files pulled',
          () => fs.existsSync(here('a.txt')) && fs.existsSync(here('b.txt')),
          ctx,
        );
        assert.equal(fs.readFileSync(here('b.txt'), 'utf8'), 'result b\n');
      } finally {
        await workbench.runCommand('TensorPool: Stop Folder Sync');
        if (clusterId) await engineCall(ctx.engine, 'DELETE', `/cluster/${clusterId}`).catch(() => undefined);
      }
    },
  },
];
