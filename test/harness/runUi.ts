// The UI suite: the packaged extension (.vsix, built by `vsce package`) installed into code-server, the
// real workbench driven in headless Chromium by the flows in test/ui/*.ui.ts, once per VS Code version.
// Screenshots of every checked screen go to test-results/vscode-<version>/ (plus failure-*.png).
//
// usage: node out/test/harness/runUi.js [--vscode 1.100,1.139]   (env as for runIntegration.js)
// Ends with `N passed, N failed`; exit 0 only if all passed.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiTest } from '../ui/types';
import { Workbench } from '../ui/workbench';
import { launchChromium, plainConsoleText, workbenchUrl } from './browser';
import { newRunDir, startCodeServer } from './codeServer';
import { PSEUDO_LOCALE, installPseudoLocale, pseudoBundles, type PseudoBundles } from './pseudoLocale';
import { PseudoText } from '../ui/pseudoCheck';
import { startLocalEngine } from './engine';
import { startUserKey } from './userKey';
import { ensureInstalled } from './install';
import { part, runSuite, type Own, type SuiteContext } from './suite';
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

/** Every flow in name order; env TENSORPOOL_TEST_FILES=10,50 (file name prefixes) runs a subset, any subset
 *  (each file sets up what it needs: test/ui/given.ts). */
function loadTests(): UiTest[] {
  const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
  const files = fs
    .readdirSync(UI_DIR)
    .filter((f) => f.endsWith('.ui.js') && (only.length === 0 || only.some((o) => f.startsWith(o))))
    .sort();
  return files.flatMap((f) => (require(path.join(UI_DIR, f)) as { tests: UiTest[] }).tests);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms / 1000} s`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The pseudo-localised window's flows (test/ui/pseudo.flow.ts), unless TENSORPOOL_TEST_FILES leaves them out
 *  (they run when it is unset or names `pseudo`). */
function loadPseudoTests(): UiTest[] {
  const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
  if (only.length > 0 && !only.includes('pseudo')) return [];
  return (require(path.join(UI_DIR, 'pseudo.flow.js')) as { tests: UiTest[] }).tests;
}

async function runOn(
  target: Target,
  tests: UiTest[],
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
  const consoleErrors: string[] = [];
  browser.page.on('console', (message) => {
    const line = plainConsoleText(message.text()).slice(0, 400);
    if (process.env.DEBUG_CONSOLE) console.log(`  [browser ${message.type()}] ${line}`);
    if (message.type() === 'error') consoleErrors.push(line);
  });
  await browser.page.goto(workbenchUrl(server), { waitUntil: 'domcontentloaded', timeout: 60_000 });
  const workbench = new Workbench(browser.page, shotsDir);

  let passed = 0;
  let failed = 0;
  for (const test of tests) {
    const started = Date.now();
    const lines: string[] = [];
    try {
      await withTimeout(
        test.run({
          workbench,
          engine,
          workspace: server.workspace,
          home: server.home,
          userKey,
          vscode: target.name,
          log: (m) => lines.push(m),
          pseudo: pseudo && new PseudoText(pseudo),
        }),
        PER_TEST_TIMEOUT_MS,
        test.name,
      );
      passed++;
      console.log(`  ok   ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      for (const line of lines) console.log(`       ${line}`);
    } catch (err) {
      failed++;
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
  if (failed > 0 && consoleErrors.length > 0)
    console.log(`  --- browser console errors (last 20) ---\n  ${consoleErrors.slice(-20).join('\n  ')}`);
  console.log(
    `VS Code ${target.name}: ${summaryLine(passed, failed)} (screenshots in ${path.relative(REPO, shotsDir)}/)`,
  );
  ctx.tally.passed += passed;
  ctx.tally.failed += failed;
}

if (require.main === module) {
  runSuite('ui', async (ctx) => {
    const targets = selectTargets();
    ctx.watchdog.arm(15 * 60_000, 'installing');
    await ensureInstalled(targets);
    ctx.watchdog.arm(15 * 60_000, 'the UI suite');
    await timed('vsce package', packageExtension);
    const tests = loadTests();
    const pseudoTests = loadPseudoTests();
    const pseudo =
      pseudoTests.length > 0 ? await timed('pseudo-localised bundles', pseudoBundles) : undefined;
    for (const target of targets) {
      if (tests.length > 0)
        await part(ctx, `VS Code ${target.name}`, (own) => runOn(target, tests, ctx, own));
      if (pseudo)
        await part(ctx, `VS Code ${target.name} (${PSEUDO_LOCALE})`, (own) =>
          runOn(target, pseudoTests, ctx, own, pseudo),
        );
    }
  });
}
