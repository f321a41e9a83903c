// Show Metrics through the real workbench: the sample project (copied into the workspace by 50-jobs, or here; its
// real program, samples/training-job/train.js, prints Hugging Face style dicts and `step=… loss=… lr=…` lines)
// is run for longer from a job file of its own on the demo cluster; its terminal shows the lines, TensorPool:
// Show Metrics from the palette (the job's terminal is the active one) opens the panel, and inside the
// webview's frame the loss chart is drawn (a canvas of a real size) and grows while the job runs (the
// latest-values table's point count). Screenshot for the README.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator } from '../harness/playwright';
import { engineCall } from './engineCall';
import type { UiContext, UiTest } from './types';
import { sampleProject, signedIn } from './given';

const CLUSTER = 'llm-train-8xh100';
const FILE = 'metrics.tp.toml';
/** 200 steps of 150 ms: half a minute of metric lines. */
const JOB_FILE = 'commands = ["node train.js --steps 200 --step-ms 150"]\n';

/** The metrics page: the webview's outer frame, then its active inner frame. */
function metricsPage({ workbench }: UiContext): FrameLocator {
  return workbench.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/** The points shown for loss, from the page's latest-values table. */
async function lossPoints(page: FrameLocator): Promise<number> {
  const row = page.locator('.table tr', { hasText: 'loss (step)' }).first();
  const cells = await row.locator('td').allInnerTexts();
  return Number(cells.at(-1));
}

export const tests: UiTest[] = [
  {
    name: 'Show Metrics on a running job draws its loss chart, which grows',
    async run(ctx) {
      await signedIn(ctx);
      const folder = sampleProject(ctx);
      const { workbench, engine, userKey, log } = ctx;
      fs.writeFileSync(path.join(folder, FILE), JOB_FILE);
      // The user's key on their profile, which the demo clusters follow (as 50-jobs.ui.ts does).
      const added = await engineCall(engine, 'POST', '/user/ssh-key/add', {
        public_key: userKey.publicKey,
        name: 'ui-test-metrics-key',
      });
      const keyId = String(added.key_id ?? '');
      try {
        await workbench.page.keyboard.press('Control+P');
        const quick = workbench.page.locator('.quick-input-widget input');
        await quick.waitFor({ state: 'visible', timeout: 10_000 });
        await quick.fill(`training-job/${FILE}`);
        await workbench.page
          .locator('.quick-input-list .monaco-list-row', { hasText: FILE })
          .first()
          .waitFor({ timeout: 15_000 });
        await workbench.enterInQuickInput();
        await workbench.page
          .locator('.tabs-container .tab', { hasText: FILE })
          .first()
          .waitFor({ timeout: 15_000 });
        await workbench.page
          .locator('.codelens-decoration a', { hasText: 'Run on Cluster…' })
          .first()
          .click();
        await workbench.waitForQuickInput(`Cluster to run ${FILE} on`);
        await workbench.replaceQuickInputText(CLUSTER);
        await workbench.page
          .locator('.quick-input-list .monaco-list-row .label-name', {
            hasText: new RegExp(`^\\s*${CLUSTER}\\s*$`),
          })
          .first()
          .click();
        await workbench.waitForQuickInput(/keep the cluster or destroy it/);
        await workbench.page
          .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Keep the cluster' })
          .first()
          .waitFor({ timeout: 10_000 });
        await workbench.enterInQuickInput();
        await workbench.waitForQuickInput(/Review and run/);
        await workbench.enterInQuickInput();
        const box = await workbench.dialog(/asks to run a command/);
        await box
          .locator('.monaco-button', { hasText: /^\s*Run\s*$/ })
          .first()
          .click();
        await box.waitFor({ state: 'hidden', timeout: 10_000 });
        // The job's terminal shows metric lines: it is the active terminal.
        await workbench.page
          .locator('.terminal-wrapper.active .xterm-rows', { hasText: /step=\d+ loss=/ })
          .first()
          .waitFor({ timeout: 30_000 });

        await workbench.runCommand('TensorPool: Show Metrics');
        const page = metricsPage(ctx);
        const chart = page.locator('section.chart', { hasText: 'loss' }).first();
        await chart.waitFor({ timeout: 30_000 });
        const size = await chart
          .locator('canvas')
          .first()
          .evaluate((c: { width: number; height: number }) => ({ width: c.width, height: c.height }));
        log(`loss canvas: ${size.width}×${size.height}`);
        assert.ok(size.width > 100 && size.height > 100, `a drawn canvas: ${JSON.stringify(size)}`);
        const legend = (await chart.locator('.u-legend').first().innerText()).replace(/\s+/g, ' ');
        log(`legend: ${legend}`);
        assert.match(legend, /step/);
        const first = await lossPoints(page);
        log(`loss points: ${first}`);
        assert.ok(first > 0, 'some loss points');
        const deadline = Date.now() + 30_000;
        let later = first;
        while (later <= first) {
          assert.ok(Date.now() < deadline, `the loss chart did not grow from ${first} points`);
          await workbench.page.waitForTimeout(1000);
          later = await lossPoints(page);
        }
        log(`loss points later: ${later}`);
        const table = (await page.locator('.table table').first().innerText()).replace(/\s+/g, ' ');
        log(`table: ${table.slice(0, 240)}`);
        assert.match(table, /loss \(step\)/);
        assert.match(table, /lr \(step\)/);
        log(`screenshot ${await workbench.screenshot('56-metrics-panel')}`);
      } finally {
        fs.rmSync(path.join(folder, FILE), { force: true });
        if (keyId) await engineCall(engine, 'DELETE', `/user/ssh-key/remove/${keyId}`).catch(() => undefined);
      }
    },
  },
];
