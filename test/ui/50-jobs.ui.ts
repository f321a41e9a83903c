// A job through the real workbench: a new job file from the template, its "Run on Cluster…" CodeLens
// clicked, the cluster picked and the wizard answered in the quick input, the upload command allowed in
// the consent dialog, the job's log lines read from its terminal, and its row in the Jobs view reaching
// "completed". The engine's job timing is shortened for these tests and put back after them.
import * as assert from 'node:assert/strict';
import type { LocalEngine } from '../harness/engine';
import type { UiContext, UiTest } from './types';

const CLUSTER = 'llm-train-8xh100';
const FILE = 'job.tp.toml';
/** Short jobs: two lines per command of the template (`pip install …`, `python main.py`). */
const FAST_JOBS = { pendingMs: 300, lineMs: 150, lines: 2 };
const COMMANDS = ['pip install -r requirements.txt', 'python main.py'];

async function engineConfig(engine: LocalEngine, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${engine.url}/_engine/config`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `engine config: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** The job timing before these tests changed it (restored by the last test, whatever happened). */
let savedJobs: unknown;
/** The job id, read from the terminal's log lines. */
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
    async run({ workbench, engine, log }) {
      savedJobs = (await engineConfig(engine)).jobs;
      await engineConfig(engine, { jobs: FAST_JOBS });
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
    name: 'clicking the lens runs the wizard: pick the cluster, keep it, run, allow the upload',
    async run({ workbench, log }) {
      await workbench.page.locator('.codelens-decoration a', { hasText: 'Run on Cluster…' }).first().click();
      await workbench.waitForQuickInput(`Cluster to run ${FILE} on`);
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
      await workbench.page.keyboard.press('Enter');
      await workbench.waitForQuickInput(/Review and run/);
      const summary = (await workbench.page.locator('.quick-input-list').first().innerText()).replace(
        /\s+/g,
        ' ',
      );
      log(`summary: ${summary.slice(0, 200)}`);
      assert.match(summary, new RegExp(`${FILE} on ${CLUSTER}`));
      assert.match(summary, /keeps running after the job ends/);
      log(`screenshot ${await workbench.screenshot('52-job-wizard-summary')}`);
      await workbench.page.keyboard.press('Enter');

      const box = await workbench.dialog(/asks to run a command/);
      const text = (await box.innerText()).replace(/\s+/g, ' ');
      log(`consent: ${text.slice(0, 240)}`);
      assert.match(text, /\.tp-upload-marker/, 'the dialog shows the command');
      log(`screenshot ${await workbench.screenshot('53-job-consent')}`);
      await box
        .locator('.monaco-button', { hasText: /^\s*Run\s*$/ })
        .first()
        .click();
      await box.waitFor({ state: 'hidden', timeout: 10_000 });
    },
  },
  {
    name: "the job's log lines appear in its terminal",
    async run(ctx) {
      const { workbench, log } = ctx;
      const last = `${COMMANDS[1]}: line ${FAST_JOBS.lines} of ${FAST_JOBS.lines}`;
      const deadline = Date.now() + 30_000;
      let text = '';
      while (!text.includes(last)) {
        assert.ok(Date.now() < deadline, `the last log line never showed; terminal:\n${text}`);
        await workbench.page.waitForTimeout(1000);
        text = await terminalText(ctx);
      }
      const lines = text.split('\n').map((l) => l.trim());
      log(`terminal:\n         ${lines.filter(Boolean).slice(0, 14).join('\n         ')}`);
      jobId = /\[(job_[A-Za-z0-9_-]+)\]/.exec(text)?.[1] ?? '';
      assert.ok(jobId, 'the log lines name the job');
      for (const command of COMMANDS) {
        assert.ok(text.includes(`$ ${command}`), `the terminal shows "$ ${command}"`);
        for (let k = 1; k <= FAST_JOBS.lines; k++)
          assert.ok(
            text.includes(`[${jobId}] ${command}: line ${k} of ${FAST_JOBS.lines}`),
            `line ${k} of ${command}`,
          );
      }
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
        if (savedJobs !== undefined) await engineConfig(engine, { jobs: savedJobs });
      }
    },
  },
];
