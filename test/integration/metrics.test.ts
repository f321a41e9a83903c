// Show Metrics in the real extension host: a real job on a real node whose program prints metric lines
// (engine/metricLines.ts's style "kv", four lines in five; the fifth is plain) is run and followed; its
// metrics reach the panel's data while it streams (the right series,
// the right x values, in order), the page draws a chart per series, and once the job ends the panel holds
// exactly what the log printed. A finished job nobody followed gets its chart from its full log, read
// once. Export CSV writes where the (seamed) save dialog said, and the file reads back as the same points.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isMetricStep, metricLine, metricValues } from '../../engine/metricLines';
import type { TensorPoolExtensionApi } from '../../src/extension';
import { CSV_HEADER, parseCsv } from '../../src/model/metrics';
import type { MetricsPanelState } from '../../src/vscode/jobs/onUse/metricsPanel';
import { ScriptedPrompter } from '../fixtures/scriptedPrompter';
import { accountIs, api, control, signIn, sleep } from './control';
import { realCluster } from './realCluster';

const LINES = 60;
const JOB_FILE = `commands = ["node train.js"]\n`;
/** The job's program: LINES lines, one every 60 ms. */
const TRAIN_JS = `const lines = ${JSON.stringify(
  Array.from({ length: LINES }, (_, i) => metricLine('kv', i + 1) ?? `line ${i + 1} of ${LINES}`),
)};
let i = 0;
const t = setInterval(() => { console.log(lines[i++]); if (i === lines.length) clearInterval(t); }, 60);
`;
const STEPS = Array.from({ length: LINES }, (_, i) => i + 1).filter(isMetricStep);
/** A two-rank job (torchrun's `[rankN]:` prefixes): RANK_STEPS steps, each printed by rank 0 and rank 1. */
const RANK_STEPS = 12;
const rankLoss = (rank: number, k: number) => Number(((2 + rank) / k).toFixed(4));
const RANKS_JS = `const lines = ${JSON.stringify(
  Array.from({ length: RANK_STEPS }, (_, i) =>
    [0, 1].map((r) => `[rank${r}]:step ${i + 1} | loss ${rankLoss(r, i + 1)} | lr 3.00e-04`),
  ).flat(),
)};
let i = 0;
const t = setInterval(() => { console.log(lines[i++]); if (i === lines.length) clearInterval(t); }, 20);
`;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for: ${what}`);
    await sleep(100);
  }
}

/** The series of `name` must be the job's steps 1.. in order with the values the log printed. */
function assertSeries(state: MetricsPanelState, name: 'loss' | 'acc' | 'lr', upTo = STEPS.length): void {
  const s = state.series.find((x) => x.name === name);
  assert.ok(s, `a ${name} series in ${JSON.stringify(state.series.map((x) => x.name))}`);
  assert.equal(s.xKey, 'step');
  assert.deepEqual(s.xs, STEPS.slice(0, s.xs.length), `${name}: x values are the steps, in order`);
  assert.deepEqual(
    s.ys,
    STEPS.slice(0, s.ys.length).map((k) => metricValues(k)[name]),
    `${name}: the printed values`,
  );
  assert.ok(s.xs.length <= upTo);
}

suite('Show Metrics: live charts from a job log, a finished job, Export CSV', () => {
  let ext: TensorPoolExtensionApi;
  let folder: string;
  let jobFile: vscode.Uri;
  let clusterLabel: string;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'tp-metrics-'));

  const runJob = async (file = jobFile): Promise<string> => {
    ext.setPrompter(new ScriptedPrompter([clusterLabel, 'Keep the cluster', 'Run job', 'Run']));
    const out = await vscode.commands.executeCommand<{ kind: string; jobId?: string }>(
      'tensorpool.runJobFile',
      file,
    );
    assert.equal(out.kind, 'submitted', JSON.stringify(out));
    return out.jobId ?? '';
  };
  const panel = async (jobId: string) => (await ext.testing.metrics(jobId))?.state();
  const statusOf = async (id: string) => {
    await ext.testing.jobs.refresh();
    return ext.testing.jobs.find(id)?.status;
  };
  const listens = async (jobId: string) =>
    (await control.log()).filter(
      (e) => (e as { ws?: string }).ws === 'upgrade' && e.path === `/job/listen/${jobId}`,
    ).length;

  suiteSetup(async () => {
    ext = await api();
    await control.reset('none');
    assert.equal((await signIn()).ok, true);
    await accountIs(ext, 'signedIn');
    clusterLabel = (await realCluster('metrics-itest')).name;
    await ext.refresh();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the harness opens a workspace folder');
    folder = path.join(root, 'metrics-itest');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'train.tp.toml'), JOB_FILE);
    writeFileSync(path.join(folder, 'train.js'), TRAIN_JS);
    writeFileSync(path.join(folder, 'ranks.tp.toml'), `commands = ["node ranks.js"]\n`);
    writeFileSync(path.join(folder, 'ranks.js'), RANKS_JS);
    jobFile = vscode.Uri.file(path.join(folder, 'train.tp.toml'));
  });
  suiteTeardown(async () => {
    ext.setPrompter(undefined);
    ext.testing.configure({});
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const t of vscode.window.terminals) if (t.name.startsWith('TensorPool job')) t.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  let live = '';

  test('a running job: its metrics reach the panel as they stream, a chart drawn per series', async () => {
    live = await runJob();
    const opened = await vscode.commands.executeCommand<MetricsPanelState>('tensorpool.showMetrics', live);
    assert.equal(opened.jobId, live);
    // Part of the log, while the job still runs.
    let midway: MetricsPanelState | undefined;
    await until('some metric points while the job runs', async () => {
      midway = await panel(live);
      const n = midway?.series.find((s) => s.name === 'loss')?.xs.length ?? 0;
      return n >= 5 && n < STEPS.length;
    });
    assert.ok(midway);
    assert.equal(midway.state, 'live');
    for (const name of ['loss', 'acc', 'lr'] as const) assertSeries(midway, name);
    await until('the page drew the loss chart', async () => {
      const d = (await panel(live))?.drawn ?? [];
      return d.length === 3 && d.every((c) => c.points > 0 && c.width > 0 && c.height > 0);
    });
    const firstDrawn = (await panel(live))?.drawn[0].points ?? 0;
    // To its end: every metric line, nothing else.
    await until('the job ended', async () => (await panel(live))?.state === 'ended', 60_000);
    // The panel hands the page what changed at most every so often: it holds the last lines soon after.
    await until('the panel holds every point', async () =>
      ((await panel(live))?.series ?? []).every((x) => x.xs.length === STEPS.length),
    );
    const end = await panel(live);
    assert.ok(end);
    assert.deepEqual(
      end.series.map((s) => [s.name, s.xKey, s.xs.length]),
      [
        ['loss', 'step', STEPS.length],
        ['lr', 'step', STEPS.length],
        ['acc', 'step', STEPS.length],
      ],
    );
    for (const name of ['loss', 'acc', 'lr'] as const) assertSeries(end, name);
    await until('the page drew every point', async () =>
      ((await panel(live))?.drawn ?? []).every((c) => c.points === STEPS.length),
    );
    assert.ok(firstDrawn < STEPS.length, 'the chart grew while the job ran');
  });

  test("Export CSV writes where the user chose, and reads back as the panel's points", async () => {
    const target = path.join(tmp, 'out', 'metrics.csv');
    mkdirSync(path.dirname(target), { recursive: true });
    ext.testing.configure({ saveDialog: async () => vscode.Uri.file(target) });
    const written = await (await ext.testing.metrics(live))?.export();
    assert.equal(written, target);
    const rows = parseCsv(readFileSync(target, 'utf8'));
    assert.ok(rows);
    assert.deepEqual(rows[0], [...CSV_HEADER]);
    const state = await panel(live);
    assert.ok(state);
    const expected = state.series.flatMap((s) =>
      s.xs.map((x, i) => [s.name, s.xKey, String(x), String(s.ys[i])]),
    );
    assert.deepEqual(rows.slice(1), expected);
    assert.equal(rows.length - 1, 3 * STEPS.length);
    // Nothing else in the folder (the temporary file of the atomic write is gone).
    assert.deepEqual(
      (await vscode.workspace.fs.readDirectory(vscode.Uri.file(path.dirname(target)))).map(([n]) => n),
      ['metrics.csv'],
    );
    // A dismissed dialog writes nothing.
    ext.testing.configure({ saveDialog: async () => undefined });
    assert.equal(await (await ext.testing.metrics(live))?.export(), undefined);
  });

  test('a finished job nobody followed: the chart is its full log, read once', async () => {
    const jobId = await runJob();
    // Stop following at once (close its terminal): the job goes on, nobody reads its log.
    await until('its terminal', () => vscode.window.terminals.some((t) => t.name.includes(jobId)));
    for (const t of vscode.window.terminals) if (t.name.includes(jobId)) t.dispose();
    await until('the job completed', async () => (await statusOf(jobId)) === 'completed', 60_000);
    const before = await listens(jobId);
    await vscode.commands.executeCommand('tensorpool.showMetrics', jobId);
    await until('the whole log read and on the page', async () => {
      const p = await panel(jobId);
      return (
        p?.state === 'ended' &&
        p.series.length === 3 &&
        p.drawn.length === 3 &&
        p.drawn.every((c) => c.points === STEPS.length)
      );
    });
    const state = await panel(jobId);
    assert.ok(state);
    for (const name of ['loss', 'acc', 'lr'] as const) {
      assertSeries(state, name);
      assert.equal(state.series.find((s) => s.name === name)?.xs.length, STEPS.length);
    }
    assert.equal((await listens(jobId)) - before, 1, 'one listen for the metrics');
    // Closed and opened again: the kept chart, no second read.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await until('the panel closed', async () => (await panel(jobId)) === undefined);
    await vscode.commands.executeCommand('tensorpool.showMetrics', jobId);
    await until('the page loaded again', async () => ((await panel(jobId))?.series.length ?? 0) > 0);
    const again = await panel(jobId);
    assert.equal(again?.state, 'ended');
    assert.equal(again?.series.find((s) => s.name === 'loss')?.xs.length, STEPS.length);
    assert.equal((await listens(jobId)) - before, 1, 'the log was read once');
  });

  test('with tensorpool.jobMetrics off, a followed log is not read for metrics; Show Metrics reads it then', async () => {
    const config = vscode.workspace.getConfiguration('tensorpool');
    await config.update('jobMetrics', false, vscode.ConfigurationTarget.Global);
    try {
      const jobId = await runJob();
      await until('the job completed', async () => (await statusOf(jobId)) === 'completed', 60_000);
      await until('its follower ended', () => ext.testing.terminalText().includes(`(${jobId}) completed.`));
      const before = await listens(jobId);
      const shown = await vscode.commands.executeCommand<MetricsPanelState>('tensorpool.showMetrics', jobId);
      assert.equal(shown.state, 'reading', 'nothing was kept from following: the log is read now');
      await until('the whole log read and on the page', async () => {
        const p = await panel(jobId);
        return p?.state === 'ended' && p.series.find((x) => x.name === 'loss')?.xs.length === STEPS.length;
      });
      assert.equal((await listens(jobId)) - before, 1);
    } finally {
      await config.update('jobMetrics', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test("several ranks in one log: rank 0's charts first, another rank's on request", async () => {
    const jobId = await runJob(vscode.Uri.file(path.join(folder, 'ranks.tp.toml')));
    await vscode.commands.executeCommand('tensorpool.showMetrics', jobId);
    const steps = Array.from({ length: RANK_STEPS }, (_, i) => i + 1);
    await until('the whole log on the page, rank 0 shown', async () => {
      const p = await panel(jobId);
      return (
        p?.state === 'ended' &&
        p.series.find((x) => x.name === 'loss')?.xs.length === RANK_STEPS &&
        p.drawn.length === 2 &&
        p.drawn.every((c) => c.points === RANK_STEPS)
      );
    });
    const first = await panel(jobId);
    assert.ok(first);
    assert.equal(first.rank, 0);
    assert.deepEqual(first.ranks, [0, 1]);
    assert.deepEqual(
      first.series.map((x) => [x.name, x.xKey]),
      [
        ['loss', 'step'],
        ['lr', 'step'],
      ],
    );
    assert.deepEqual(first.series[0].xs, steps);
    assert.deepEqual(
      first.series[0].ys,
      steps.map((k) => rankLoss(0, k)),
    );
    (await ext.testing.metrics(jobId))?.showRank(1);
    await until("rank 1's charts on the page", async () => {
      const p = await panel(jobId);
      return (
        p?.rank === 1 &&
        p.series.some((x) => x.name === 'rank1/loss') &&
        p.drawn.length === 2 &&
        p.drawn.every((c) => c.points === RANK_STEPS)
      );
    });
    const second = await panel(jobId);
    assert.ok(second);
    assert.deepEqual(
      second.series.map((x) => x.name),
      ['rank1/loss', 'rank1/lr'],
    );
    assert.deepEqual(
      second.series[0].ys,
      steps.map((k) => rankLoss(1, k)),
    );
    // Export CSV still writes every rank's series
    const target = path.join(tmp, 'ranks.csv');
    ext.testing.configure({ saveDialog: async () => vscode.Uri.file(target) });
    assert.equal(await (await ext.testing.metrics(jobId))?.export(), target);
    const names = new Set((parseCsv(readFileSync(target, 'utf8')) ?? []).slice(1).map((r) => r[0]));
    assert.deepEqual([...names].sort(), ['loss', 'lr', 'rank1/loss', 'rank1/lr']);
    ext.testing.configure({});
  });
});
