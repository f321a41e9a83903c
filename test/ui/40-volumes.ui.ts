// Storage volumes through the real workbench: create a volume by typing through the wizard, attach it to
// the (2-node) cluster made by 20-clusters (or by given.ts when it runs alone) after the restart warning,
// and see the volume under the cluster in the Clusters section, with its mount path.
import * as assert from 'node:assert/strict';
import type { UiTest } from './types';
import { runningCluster } from './given';

const VOLUME = 'ui-data';
const CLUSTER = 'ui-train-2';

export const tests: UiTest[] = [
  {
    name: 'creates a volume by typing through the wizard',
    async run(ctx) {
      await runningCluster(ctx, { name: CLUSTER, instanceType: '2xH100', nodes: 2 });
      const { workbench, log } = ctx;
      await workbench.page
        .locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: 'Volumes' })
        .first()
        .waitFor({ timeout: 15_000 });
      await workbench.showSections('Clusters', 'Volumes');
      await workbench.runCommand('TensorPool: Create Volume…');
      await workbench.waitForQuickInput(/Size in GB/);
      await workbench.replaceQuickInputText('0');
      await workbench.page
        .locator('.quick-input-widget .quick-input-message', { hasText: /at least 1 GB/ })
        .first()
        .waitFor({ timeout: 10_000 });
      log(`validation while typing: "${await workbench.quickInputMessage()}"`);
      log(`screenshot ${await workbench.screenshot('40-volume-size-validation')}`);
      await workbench.replaceQuickInputText('250');
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Name \(optional/);
      await workbench.replaceQuickInputText(VOLUME);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Deletion protection/);
      await workbench.enterInQuickInput();
      await workbench.waitForQuickInput(/Review and create/);
      const summary = (await workbench.page.locator('.quick-input-list').first().innerText()).replace(
        /\s+/g,
        ' ',
      );
      log(`summary: ${summary.slice(0, 200)}`);
      assert.match(summary, /250 GB/);
      log(`screenshot ${await workbench.screenshot('41-volume-summary')}`);
      await workbench.enterInQuickInput();
      await workbench.sidebarRows().filter({ hasText: VOLUME }).first().waitFor({ timeout: 15_000 });
      const message = await workbench.notification(new RegExp(`Volume ${VOLUME} is ready`), 30_000);
      log(`notification: "${message}"`);
      await workbench
        .sidebarRows()
        .filter({ hasText: new RegExp(`${VOLUME}.*250 GB.*READY`) })
        .first()
        .waitFor({ timeout: 15_000 });
      log(`screenshot ${await workbench.screenshot('42-volume-ready')}`);
    },
  },
  {
    name: 'attaches the volume to the cluster after the restart warning; the cluster shows it as a child',
    async run({ workbench, engine, log }) {
      await workbench.runCommand('TensorPool: Attach Volume to Cluster…');
      await workbench.waitForQuickInput(/Attach which volume/);
      await workbench.pickQuickItem(VOLUME);
      await workbench.waitForQuickInput(/Which cluster/);
      await workbench.pickQuickItem(CLUSTER);
      const box = await workbench.dialog(/restarts every node/);
      log(`dialog: ${(await box.innerText()).replace(/\s+/g, ' ').slice(0, 200)}`);
      log(`screenshot ${await workbench.screenshot('43-attach-warning')}`);
      await workbench.clickDialogButton(box, 'Attach and Restart Nodes');
      const message = await workbench.notification(/is attached/, 30_000);
      log(`notification: "${message}"`);
      const list = (await engine.get('/cluster/list')) as {
        clusters: Array<{ name: string; attached_volumes: Array<{ name: string; mount_path: string }> }>;
      };
      const cluster = list.clusters.find((c) => c.name === CLUSTER);
      assert.equal(cluster?.attached_volumes[0]?.name, VOLUME);
      // Expand the cluster in the Clusters section: the volume is a child, with its mount path.
      await workbench.page.keyboard.press('Escape');
      const clusterRow = workbench
        .sidebarRows()
        .filter({ hasText: new RegExp(`^\\s*${CLUSTER}`) })
        .first();
      // expandRow leaves the row alone if an earlier test left it expanded.
      const child = await workbench.expandRow(clusterRow, new RegExp(`${VOLUME}\\s*/mnt/vol-`));
      const text = (await child.innerText()).replace(/\s+/g, ' ');
      log(`cluster child: ${text}`);
      assert.match(text, new RegExp(`/mnt/${'vol-'}`));
      log(`screenshot ${await workbench.screenshot('44-cluster-volume-child')}`);
    },
  },
];
