// Clusters through the real workbench: create a cluster by typing through the wizard, watch it go from
// provisioning to running, rename it, and try to destroy it while it is protected.
import * as assert from 'node:assert/strict';
import type { UiTest } from './types';
import { signedIn } from './given';

const NAME = 'ui-train';
const RENAMED = 'ui-train-2';

export const tests: UiTest[] = [
  {
    name: 'creates a cluster by typing through the wizard',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      await workbench.runCommand('TensorPool: Create Cluster…');
      await workbench.waitForQuickInput(/GPU instance type/);
      await workbench.pickQuickItem('2xH100');
      await workbench.waitForQuickInput(/Number of nodes/);
      await workbench.replaceQuickInputText('0');
      await workbench.page
        .locator('.quick-input-widget .quick-input-message', { hasText: /at least 1/ })
        .first()
        .waitFor({ timeout: 10_000 });
      log(`validation while typing: "${await workbench.quickInputMessage()}"`);
      log(`screenshot ${await workbench.screenshot('10-wizard-validation')}`);
      await workbench.replaceQuickInputText('2');
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Cluster name/);
      await workbench.replaceQuickInputText(NAME);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/SSH public key|No ~\/\.ssh/);
      await workbench.pickQuickItem('No new key');
      await workbench.waitForQuickInput(/Container image/);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Deletion protection/);
      await workbench.pickQuickItem('On', 'On');
      await workbench.waitForQuickInput(/Review and create/);
      const summary = (await workbench.page.locator('.quick-input-list').first().innerText()).replace(
        /\s+/g,
        ' ',
      );
      log(`summary: ${summary.slice(0, 200)}`);
      assert.match(summary, /2xH100 × 2 nodes/);
      log(`screenshot ${await workbench.screenshot('11-wizard-summary')}`);
      await workbench.enterInQuickInput();
    },
  },
  {
    name: 'the new cluster shows as provisioning, then running',
    async run({ workbench, log }) {
      const row = workbench.sidebarRows().filter({ hasText: NAME }).first();
      await row.waitFor({ timeout: 15_000 });
      const first = (await row.innerText()).replace(/\s+/g, ' ');
      log(`first row: ${first}`);
      assert.match(first, /creating|PENDING|PROCESSING|PROVISIONING/i);
      log(`screenshot ${await workbench.screenshot('12-cluster-provisioning')}`);
      await workbench
        .sidebarRows()
        .filter({ hasText: new RegExp(`${NAME}.*running`) })
        .first()
        .waitFor({ timeout: 30_000 });
      const message = await workbench.notification(new RegExp(`Cluster ${NAME} is ready`));
      log(`notification: "${message}"`);
      log(`screenshot ${await workbench.screenshot('13-cluster-running')}`);
    },
  },
  {
    name: 'renames the cluster with the edit wizard',
    async run({ workbench, log }) {
      await workbench.runCommand('TensorPool: Edit Cluster…');
      await workbench.waitForQuickInput(/Which cluster/);
      await workbench.pickQuickItem(NAME);
      await workbench.waitForQuickInput(/Name for/);
      await workbench.replaceQuickInputText(RENAMED);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Deletion protection/);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Apply: rename/);
      log(`screenshot ${await workbench.screenshot('14-edit-summary')}`);
      await workbench.enterInQuickInput();
      await workbench.sidebarRows().filter({ hasText: RENAMED }).first().waitFor({ timeout: 15_000 });
      log(`screenshot ${await workbench.screenshot('15-renamed')}`);
    },
  },
  {
    name: 'destroying a protected cluster explains the rule and sends nothing',
    async run({ workbench, engine, log }) {
      await workbench.runCommand('TensorPool: Destroy Cluster…');
      await workbench.waitForQuickInput(/Destroy which cluster/);
      await workbench.pickQuickItem(RENAMED);
      const box = await workbench.dialog(/deletion protection on/);
      const text = (await box.innerText()).replace(/\s+/g, ' ');
      log(`dialog: ${text.slice(0, 200)}`);
      assert.match(text, /Turn Off Protection and Destroy/);
      log(`screenshot ${await workbench.screenshot('16-destroy-protected')}`);
      await workbench.page.keyboard.press('Escape');
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
      const list = (await engine.get('/cluster/list')) as {
        clusters: Array<{ name: string; status: string }>;
      };
      assert.ok(
        list.clusters.some((c) => c.name === RENAMED && c.status === 'RUNNING'),
        'still running',
      );
    },
  },
];
