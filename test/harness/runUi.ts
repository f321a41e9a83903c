// The UI suite: the packaged extension (.vsix, built by `vsce package`) installed into code-server, the
// real workbench driven in headless Chromium by the flows in test/ui/*.ui.ts, once per VS Code version.
// Screenshots of every checked screen go to test-results/vscode-<version>/ (plus failure-*.png). A flow (a
// test file) that fails is run once more from its first test in a fresh window: a pass then counts, and is
// reported as flaky by name (the run's line, test-results/tests-ui.json, `npm run report`).
//
// Two or more versions run side by side, each in a process of its own (./uiParts.ts).
//
// usage: node out/test/harness/runUi.js [--vscode 1.100,1.139]   (env as for runIntegration.js)
// Ends with `N passed, N failed`; exit 0 only if all passed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext, UiTest } from '../ui/types';
import { Workbench } from '../ui/workbench';
import { launchChromium, plainConsoleText, workbenchUrl, type Browser } from './browser';
import { newRunDir, startCodeServer, type CodeServer } from './codeServer';
import type { Page } from './playwright';
import { PSEUDO_LOCALE, installPseudoLocale, pseudoBundles, type PseudoBundles } from './pseudoLocale';
import { PseudoText } from '../ui/pseudoCheck';
import { startLocalEngine } from './engine';
import { startUserKey } from './userKey';
import { ensureInstalled } from './install';
import { part as runPart, runSuite, type Own, type SuiteContext } from './suite';
import { partOfSuite, readPseudo, runParts, writePartResult } from './uiParts';
import { selectTargets, type Target } from './targets';
import { REPO, RESULTS, log, summaryLine, timed } from './util';

const VSIX = path.join(REPO, 'out', 'ui', 'tensorpool-vscode.vsix');
const UI_DIR = path.join(REPO, 'out', 'test', 'ui');
const PER_TEST_TIMEOUT_MS = 90_000;

/** `vsce package` (which runs the vscode:prepublish production build first). */
async function packageExtension(): Promise<void> {
  fs.mkdirSync(path.dirname(VSIX), { recursive: true });
  fs.rmSync(VSIX, { force: true });
  const vsce = path.join(REPO, 'node_modules', '.bin', 'vsce');
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const child = spawn(vsce, ['package', '--no-dependencies', '-o', VSIX], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vsce package failed (${code}):\n${output}`)),
    );
  });
}

/** A flow: one test file's tests, which build on each other in one window. */
interface Flow {
  file: string;
  tests: UiTest[];
}

/** Every flow in name order; env TENSORPOOL_TEST_FILES=10,50 (file name prefixes) runs a subset, any subset
 *  (each file sets up what it needs: test/ui/given.ts). */
function loadFlows(): Flow[] {
  const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
  const files = fs
    .readdirSync(UI_DIR)
    .filter((f) => f.endsWith('.ui.js') && (only.length === 0 || only.some((o) => f.startsWith(o))))
    .sort();
  return files.map((f) => ({ file: f, tests: (require(path.join(UI_DIR, f)) as { tests: UiTest[] }).tests }));
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms / 1000} s`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The pseudo-localised window's flow (test/ui/pseudo.flow.ts), unless TENSORPOOL_TEST_FILES leaves it out
 *  (it runs when that is unset or names `pseudo`). */
function loadPseudoFlows(): Flow[] {
  const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
  if (only.length > 0 && !only.includes('pseudo')) return [];
  const file = 'pseudo.flow.js';
  return [{ file, tests: (require(path.join(UI_DIR, file)) as { tests: UiTest[] }).tests }];
}

async function runOn(
  target: Target,
  flows: Flow[],
  ctx: SuiteContext,
  own: Own,
  pseudo?: PseudoBundles,
): Promise<void> {
  const mode = pseudo ? ` in the pseudo-localised display language (${PSEUDO_LOCALE})` : '';
  log(`--- UI tests on VS Code ${target.name} (code-server ${target.codeServer})${mode} ---`);
  const shotsDir = path.join(RESULTS, `vscode-${target.name}`);
  if (!pseudo) fs.rmSync(shotsDir, { recursive: true, force: true });
  const runDir = newRunDir(`ui-${target.name}${pseudo ? '-pseudo' : ''}`);
  ctx.markers.push(runDir);
  const engine = await startLocalEngine();
  own(engine.stop);
  ctx.markers.push(engine.token, engine.dataDir);
  // The user's own key, in an agent: what the jobs' rsync over ssh logs in with (harness/userKey.ts).
  const userKey = await startUserKey(runDir);
  own(userKey.stop);
  const server = await timed('code-server start (with the .vsix installed)', () =>
    startCodeServer(target, {
      runDir,
      vsix: [VSIX],
      env: userKey.env,
      ...(pseudo ? { locale: PSEUDO_LOCALE, afterInstall: (dirs) => installPseudoLocale(dirs, pseudo) } : {}),
      machineSettings: { 'tensorpool.apiUrl': engine.url },
      settings: {
        // The DOM renderer, so the tests can read a terminal's text (WebGL draws on a canvas).
        'terminal.integrated.gpuAcceleration': 'off',
      },
    }),
  );
  own(server.stop);
  const browser = await timed('chromium launch', () => launchChromium(runDir));
  own(browser.close);
  const windows = new Windows(browser, server, shotsDir);
  await windows.open(browser.page);

  const run: FlowRun = {
    engine,
    workspace: server.workspace,
    home: server.home,
    userKey,
    vscode: target.name,
    pseudo: pseudo && new PseudoText(pseudo),
  };
  let passed = 0;
  let failed = 0;
  for (const flow of flows) {
    let outcome = await runFlow(flow, windows, run);
    if (outcome.failed.length > 0) {
      // Tried once more from its first test in a fresh window (a new page: a new extension host). A pass
      // then is reported as flaky, by name; a regression fails twice and counts as failed.
      console.log(`  retry ${flow.file} in a fresh window (failed: ${outcome.failed.join('; ')})`);
      await windows.fresh();
      const first = outcome.failed;
      outcome = await runFlow(flow, windows, run);
      if (outcome.failed.length === 0) {
        for (const name of first)
          ctx.flaky.push(`VS Code ${target.name}${mode ? ` (${PSEUDO_LOCALE})` : ''}: ${name}`);
        console.log(`  FLAKY ${flow.file}: failed, then passed in a fresh window (${first.join('; ')})`);
      }
    }
    passed += outcome.passed;
    failed += outcome.failed.length;
  }
  if (failed > 0 && windows.consoleErrors.length > 0)
    console.log(
      `  --- browser console errors (last 20) ---\n  ${windows.consoleErrors.slice(-20).join('\n  ')}`,
    );
  console.log(
    `VS Code ${target.name}: ${summaryLine(passed, failed)} (screenshots in ${path.relative(REPO, shotsDir)}/)`,
  );
  ctx.tally.passed += passed;
  ctx.tally.failed += failed;
}

/** What every test of a run gets besides its window and log. */
type FlowRun = Omit<UiContext, 'workbench' | 'log'>;

/** The workbench window the flows run in, and a fresh one for a retry. */
class Windows {
  readonly consoleErrors: string[] = [];
  workbench!: Workbench;

  constructor(
    private readonly browser: Browser,
    private readonly server: CodeServer,
    private readonly shotsDir: string,
  ) {}

  async open(page: Page): Promise<void> {
    page.on('console', (message) => {
      const line = plainConsoleText(message.text()).slice(0, 400);
      if (process.env.DEBUG_CONSOLE) console.log(`  [browser ${message.type()}] ${line}`);
      if (message.type() === 'error') this.consoleErrors.push(line);
    });
    await page.goto(workbenchUrl(this.server), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    this.workbench = new Workbench(page, this.shotsDir);
  }

  /** Close the window and open the workspace in a new one. */
  async fresh(): Promise<void> {
    const old = this.workbench.page;
    const page = await this.browser.context.newPage();
    await old.close().catch(() => undefined);
    await this.open(page);
  }
}

/** Run a flow's tests in order in the current window; the names of those that failed. */
async function runFlow(
  flow: Flow,
  windows: Windows,
  run: FlowRun,
): Promise<{ passed: number; failed: string[] }> {
  let passed = 0;
  const failed: string[] = [];
  for (const test of flow.tests) {
    const started = Date.now();
    const lines: string[] = [];
    const { workbench } = windows;
    try {
      await withTimeout(
        test.run({ ...run, workbench, log: (m) => lines.push(m) }),
        PER_TEST_TIMEOUT_MS,
        test.name,
      );
      passed++;
      console.log(`  ok   ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      for (const line of lines) console.log(`       ${line}`);
    } catch (err) {
      failed.push(test.name);
      console.log(`  FAIL ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      for (const line of lines) console.log(`       ${line}`);
      console.log(
        `       ${String((err as Error)?.stack ?? err)
          .split('\n')
          .slice(0, 10)
          .join('\n       ')}`,
      );
      const slug = test.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      const shot = await workbench.screenshot(`failure-${slug}`).catch(() => undefined);
      if (shot) console.log(`       failure screenshot: ${path.relative(REPO, shot)}`);
    }
  }
  return { passed, failed };
}

if (require.main === module) {
  runSuite(
    'ui',
    async (ctx) => {
      const targets = selectTargets();
      ctx.watchdog.arm(15 * 60_000, 'installing');
      await ensureInstalled(targets);
      ctx.watchdog.arm(15 * 60_000, 'the UI suite');
      const part = partOfSuite();
      const flows = loadFlows();
      const pseudoFlows = loadPseudoFlows();
      // The package and the pseudo bundles at once (a process of vsce's, and this one's export of the strings).
      const [, pseudo] = await Promise.all([
        part ? undefined : timed('vsce package', packageExtension),
        pseudoFlows.length === 0
          ? undefined
          : part
            ? part.pseudo
              ? readPseudo(part.pseudo)
              : undefined
            : timed('pseudo-localised bundles', pseudoBundles),
      ]);
      if (!part && targets.length > 1 && process.env.TENSORPOOL_UI_SERIAL !== '1')
        return runParts(targets, ctx, newRunDir('ui-parts'), pseudo);
      for (const target of targets) {
        if (flows.length > 0)
          await runPart(ctx, `VS Code ${target.name}`, (own) => runOn(target, flows, ctx, own));
        if (pseudo)
          await runPart(ctx, `VS Code ${target.name} (${PSEUDO_LOCALE})`, (own) =>
            runOn(target, pseudoFlows, ctx, own, pseudo),
          );
      }
      if (part) writePartResult(part.result, ctx);
    },
    // A part's counts go to the suite that started it (uiParts.ts), which records them.
    { retries: true, recordCounts: partOfSuite() === undefined },
  );
}
