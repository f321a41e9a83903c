// Object storage through the real workbench: enable it from the tree, copy the endpoint, the section.
import * as assert from 'node:assert/strict';
import type { UiTest } from './types';
import { signedIn } from './given';

export const tests: UiTest[] = [
  {
    name: 'enables object storage from the tree after confirming',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      await workbench.page
        .locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: 'Object Storage' })
        .first()
        .waitFor({ timeout: 15_000 });
      await workbench.showSections('Object Storage');
      await workbench.clickRowAction('Object storage is not enabled', 'Enable Object Storage');
      const box = await workbench.dialog(/organisation-wide/);
      log(`screenshot ${await workbench.screenshot('20-enable-confirm')}`);
      await workbench.clickDialogButton(box, 'Enable');
      await workbench.sidebarRows().filter({ hasText: 'Endpoint' }).first().waitFor({ timeout: 15_000 });
      const rows = await workbench.waitForRows([
        'Object storage',
        'Endpoint',
        'Region',
        'Key ID',
        'Secret key',
        'Buckets',
      ]);
      log(`rows: ${JSON.stringify(rows.filter((r) => !/xh100|xh200|xb200|ui-train/i.test(r)))}`);
      const secretRow = rows.find((r) => r.startsWith('Secret key')) ?? '';
      assert.match(secretRow, /••••/);
      assert.ok(
        rows.some((r) => /^Object storage\s*ACTIVE$/.test(r)),
        'status shown verbatim',
      );
    },
  },
  {
    name: 'copies the endpoint with the inline action',
    async run({ workbench, engine, log }) {
      await workbench.clickRowAction('Endpoint', 'Copy Value');
      const confirmation = await workbench.statusBarItem(/Copied the object-storage endpoint/);
      log(`status bar: "${confirmation}"`);
      const creds = (await engine.get('/object-storage/credentials')) as { endpoint: string };
      const row = (await workbench.sidebarRows().filter({ hasText: 'Endpoint' }).first().innerText()).replace(
        /\s+/g,
        ' ',
      );
      // The row shows the host (short enough for the side bar); the copy action copies the full URL.
      assert.ok(row.includes(new URL(creds.endpoint).host), `${row} shows ${creds.endpoint}`);
      log(`screenshot ${await workbench.screenshot('21-object-storage-section')}`);
    },
  },
];
