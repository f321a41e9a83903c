// A job through the real workbench, run for real: a new job file from the template shows its "Run on
// Cluster…" CodeLens; then the sample project (samples/training-job, as in `npm run demo`) is run on a
// demo cluster: its lens clicked, the cluster picked and the wizard answered in the quick input, the
// upload (a real rsync over ssh, with the user's key saved on the profile so the demo cluster's node accepts
// it) allowed in the consent dialog, the program's real output lines read from its terminal, and its row in
// the Jobs view reaching "completed". The key is removed again at the end.
import * as assert from 'node:assert/strict';
import { engineCall } from './engineCall';
import type { UiContext, UiTest } from './types';
import { sampleProject, signedIn } from './given';

const CLUSTER = 'llm-train-8xh100';
const FILE = 'job.tp.toml';
const SAMPLE = 'train.tp.toml';

/** The saved key's id (removed by the last test, whatever happened). */
let keyId = '';
/** The job id, from the engine's job list once the push returned. */
let jobId = '';

/** The text the terminal panel shows, read from xterm's rows (the UI harness turns GPU rendering off, so
 *  xterm renders to the DOM rather than to a canvas). */
async function terminalText({ workbench }: UiContext): Promise<string> {
  const rows = workbench.page.locator('.terminal-wrapper.active .xterm-rows');
  await rows.first().waitFor({ timeout: 10_000 });
  return (await rows.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
}

export const tests: UiTest[] = [
  {
    name: 'a new job file shows "Run on Cluster…" at its top',
    async run(ctx) {
      await signedIn(ctx);
      const { workbench, log } = ctx;
      await workbench.showSections('Clusters', 'Jobs');
      await workbench.runCommand('TensorPool: New Job File');
      await workbench.page
        .locator('.tabs-container .tab', { hasText: FILE })
        .first()
        .waitFor({ timeout: 15_000 });
      const lens = workbench.page.locator('.codelens-decoration a', { hasText: 'Run on Cluster…' }).first();
      await lens.waitFor({ timeout: 15_000 });
      log(`lens: "${(await lens.innerText()).trim()}"`);
      log(`screenshot ${await workbench.screenshot('50-job-file-codelens')}`);
    },
  },
  {
    name: "the sample project's lens runs the wizard: pick the cluster, keep it, run, allow the real upload",
    async run(ctx) {
      const { workbench, engine, userKey, log } = ctx;
      // The sample project in the workspace, and the user's key on their profile (the demo clusters follow it).
      sampleProject(ctx);
      const added = await engineCall(engine, 'POST', '/user/ssh-key/add', {
        public_key: userKey.publicKey,
        name: 'ui-test-key',
      });
      keyId = String(added.key_id ?? '');
      // This module stays loaded from one VS Code version's run to the next: the job is the one this run adds.
      jobId = '';
      const before = new Set(
        ((await engine.get('/job/list')) as { jobs?: Array<{ job_id?: string }> }).jobs?.map((j) => j.job_id),
      );
      await workbench.page.keyboard.press('Control+P');
      const quick = workbench.page.locator('.quick-input-widget input');
      await quick.waitFor({ state: 'visible', timeout: 10_000 });
      await quick.fill(`training-job/${SAMPLE}`);
      await workbench.page
        .locator('.quick-input-list .monaco-list-row', { hasText: SAMPLE })
        .first()
        .waitFor({ timeout: 15_000 });
      await workbench.enterInQuickInput();
      await workbench.page
        .locator('.tabs-container .tab', { hasText: SAMPLE })
        .first()
        .waitFor({ timeout: 15_000 });
      const lens = workbench.page.locator('.codelens-decoration a', { hasText: 'Run on Cluster…' }).first();
      await lens.waitFor({ timeout: 15_000 });
      await lens.click();
      await workbench.waitForQuickInput(`Cluster to run ${SAMPLE} on`);
      log(`screenshot ${await workbench.screenshot('51-job-wizard-cluster')}`);
      // Typed to filter, then clicked: the row "Use cluster ID …" for the typed text may hold the focus.
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
      const summary = (await workbench.page.locator('.quick-input-list').first().innerText()).replace(
        /\s+/g,
        ' ',
      );
      log(`summary: ${summary.slice(0, 200)}`);
      assert.match(summary, new RegExp(`${SAMPLE} on ${CLUSTER}`));
      assert.match(summary, /keeps running after the job ends/);
      log(`screenshot ${await workbench.screenshot('52-job-wizard-summary')}`);
      await workbench.enterInQuickInput();

      const box = await workbench.dialog(/asks to run a command/);
      const text = (await box.innerText()).replace(/\s+/g, ' ');
      log(`consent: ${text.slice(0, 240)}`);
      // The service's rsync with the extension's own ssh as its remote shell.
      assert.match(
        text,
        /rsync -az .*-e "ssh -p \d+ .*ControlMaster=no/,
        'the dialog shows the upload that runs',
      );
      log(`screenshot ${await workbench.screenshot('53-job-consent')}`);
      await box
        .locator('.monaco-button', { hasText: /^\s*Run\s*$/ })
        .first()
        .click();
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
      const deadline = Date.now() + 20_000;
      while (!jobId) {
        assert.ok(Date.now() < deadline, 'the job never appeared in the engine');
        const listed = (await engine.get('/job/list')) as {
          jobs?: Array<{ job_id?: string; created_at?: string }>;
        };
        const newest = [...(listed.jobs ?? [])]
          .filter((j) => !before.has(j.job_id))
          .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)))[0];
        jobId = newest?.job_id ?? '';
        if (!jobId) await workbench.page.waitForTimeout(500);
      }
      log(`job ${jobId}`);
    },
  },
  {
    name: "the program's real output lines appear in the job's terminal",
    async run(ctx) {
      const { workbench, log } = ctx;
      const last = 'saved checkpoints/model-final.ckpt';
      const deadline = Date.now() + 60_000;
      let text = '';
      while (!text.includes(last)) {
        assert.ok(Date.now() < deadline, `the last output line never showed; terminal:\n${text}`);
        await workbench.page.waitForTimeout(1000);
        text = await terminalText(ctx);
      }
      const lines = text.split('\n').map((l) => l.trim());
      log(`terminal:\n         ${lines.filter(Boolean).slice(0, 16).join('\n         ')}`);
      // The terminal's visible rows (the start may have scrolled away): the program's own last lines.
      assert.match(text, /\{'loss': \d+\.\d+, 'learning_rate': [\d.e+-]+, 'epoch': \d+\.\d+\}/);
      assert.match(text, /step=\d+ loss=\d+\.\d+ lr=[\d.e+-]+/);
      assert.match(text, /train: 100%\|█+\| 30\/30/, 'its stderr too');
      log(`screenshot ${await workbench.screenshot('54-job-terminal-logs')}`);
    },
  },
  {
    name: 'the job reaches "completed" in the Jobs view',
    async run({ workbench, engine, log }) {
      try {
        assert.ok(jobId, 'a job was submitted (previous test)');
        await workbench.showSections('Jobs');
        const row = workbench
          .sidebarRows()
          .filter({ hasText: new RegExp(`${jobId}.*completed`) })
          .first();
        await row.waitFor({ timeout: 30_000 });
        const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
        log(`row: ${text}`);
        assert.match(text, /completed/);
        const listed = (await engine.get('/job/list')) as {
          jobs?: Array<{ job_id?: string; status?: string }>;
        };
        const job = listed.jobs?.find((j) => j.job_id === jobId);
        assert.equal(job?.status, 'completed', `the engine's job: ${JSON.stringify(job)}`);
        log(`notification: "${await workbench.notification(new RegExp(`\\(${jobId}\\) completed`))}"`);
        log(`screenshot ${await workbench.screenshot('55-jobs-view-completed')}`);
      } finally {
        if (keyId) await engineCall(engine, 'DELETE', `/user/ssh-key/remove/${keyId}`).catch(() => undefined);
      }
    },
  },
];
