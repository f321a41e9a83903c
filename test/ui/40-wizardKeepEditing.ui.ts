// Escape in the create wizard, keyboard only: the question that follows keeps editing on Enter, the box
// then holds exactly what was typed, and discarding takes picking "Discard".
import * as assert from 'node:assert/strict';
import type { UiTest } from './types';
import { signedIn } from './given';

export const tests: UiTest[] = [
  {
    name: 'Escape then Enter in the create wizard keeps the typed node count; Discard is explicit',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, engine, log } = ctx;
      const { page } = workbench;
      const clustersBefore = ((await engine.get('/cluster/list')) as { clusters: unknown[] }).clusters.length;
      await workbench.runCommand('TensorPool: Create Cluster…');
      await workbench.waitForQuickInput(/GPU instance type/);
      await workbench.pickQuickItem('1xH100');
      await workbench.waitForQuickInput(/Number of nodes/);
      const input = page.locator('.quick-input-widget input').first();
      assert.equal(await input.inputValue(), '1', 'the default before typing');
      await workbench.replaceQuickInputText('2');
      await page.keyboard.press('Escape');

      await workbench.waitForQuickInput(/Discard the cluster/);
      const focused = page.locator('.quick-input-list .monaco-list-row.focused').first();
      await focused.waitFor({ timeout: 10_000 });
      const rows = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) =>
        t.replace(/\s+/g, ' ').trim(),
      );
      log(`question rows: ${JSON.stringify(rows)}; focused: "${(await focused.innerText()).trim()}"`);
      assert.equal(rows.length, 2, 'keep editing and discard, nothing else');
      assert.match(await focused.innerText(), /Keep editing/);
      log(`screenshot ${await workbench.screenshot('40-wizard-escape-question')}`);
      await workbench.enterInQuickInput();

      await workbench.waitForQuickInput(/Number of nodes/);
      assert.equal(
        await input.inputValue(),
        '2',
        'the box shows what was typed, not the last confirmed value',
      );
      log(`node count after keep editing: "${await input.inputValue()}"`);
      log(`screenshot ${await workbench.screenshot('41-wizard-kept-typed-value')}`);

      // Leaving for good: Escape asks again, and only picking Discard closes the wizard.
      await page.keyboard.press('Escape');
      await workbench.waitForQuickInput(/Discard the cluster/);
      await workbench.pickQuickItem('Discard');
      await workbench.quickInput().first().waitFor({ state: 'hidden', timeout: 10_000 });
      const clustersAfter = ((await engine.get('/cluster/list')) as { clusters: unknown[] }).clusters.length;
      assert.equal(clustersAfter, clustersBefore, 'nothing was created');
    },
  },
];
