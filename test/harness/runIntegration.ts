// The integration suite: the extension's mocha tests (test/integration) run inside VS Code's real Node
// extension host, served by code-server, once per VS Code version, against a fresh local engine.
//
// usage: node out/test/harness/runIntegration.js [--vscode 1.100,1.139]
//   Each version runs the suite in a trusted folder, then untrusted*.test.ts in a folder in Restricted Mode
//   (skipped when TENSORPOOL_TEST_FILES or TENSORPOOL_TEST_GREP picks a subset, unless the files name
//   `untrusted`; TENSORPOOL_TEST_FILES=untrusted runs that pass alone).
//   env VSCODE_TARGETS (same as --vscode), KEEP_STATE=1 (keep the scratch folders), DEBUG_CONSOLE=1
//   (print the browser console as it comes).
// Needs `npm run build` first (dist/ and out/). Ends with `N passed, N failed`; exit 0 only if all passed.
//
// How it works: the Node extension host starts only when a workbench connects, so Chromium opens the
// workbench with a payload naming the extension (this repository) and the test module
// (out/test/integration/index.js). When the module's run() settles, the workbench calls
// window.codeAutomationExit(code), which Playwright exposes to us. The host's stdout goes nowhere, so
// the test module writes its results to the file named by TENSORPOOL_TEST_RESULTS.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchChromium, openWorkbench, plainConsoleText } from './browser';
import { startCodeServer, newRunDir } from './codeServer';
import { startLocalEngine } from './engine';
import { startUserKey } from './userKey';
import { ensureInstalled } from './install';
import { noteFailure, part, runSuite, type Own, type SuiteContext } from './suite';
import { selectTargets, type Target } from './targets';
import { REPO, log, summaryLine, timed } from './util';
import { INTEGRATION_GROUPS } from '../integration/groups';

/** What test/integration/index.ts writes to $TENSORPOOL_TEST_RESULTS. */
export interface IntegrationResults {
  vscode: string;
  node: string;
  passed: number;
  failed: number;
  tests: Array<{ title: string; state: 'passed' | 'failed'; ms?: number; error?: string }>;
  /** Each top-level suite's wall time, in run order. */
  suites?: Array<{ title: string; ms: number }>;
}

/** What the untrusted folder's settings say tensorpool.apiUrl is (nothing listens there). */
export const UNTRUSTED_FOLDER_API_URL = 'http://127.0.0.1:9';

const DEFAULT_TESTS_MODULE = path.join(REPO, 'out', 'test', 'integration', 'index.js');
/** One VS Code version's whole mocha run; a hung workbench or extension host fails after this. The suite
 *  against real nodes (jobs, connect, GPU telemetry, ports, metrics) takes 3 to 5 minutes a version on 2 cores. */
const DEFAULT_TIMEOUT_MS = 600_000;

export interface HostRunOptions {
  /** The test module (exports run()) the extension host loads; default: the integration suite. */
  readonly testsModule?: string;
  /** A word for logs and scratch-folder names. */
  readonly label?: string;
  /** More environment for the extension host (it inherits code-server's). */
  readonly env?: Record<string, string>;
  readonly timeoutMs?: number;
  /** Open the workspace in Restricted Mode (Workspace Trust on, folder not trusted): the test module
   *  then runs only the untrusted-workspace tests (index.ts, TENSORPOOL_TEST_WORKSPACE). */
  readonly untrusted?: boolean;
  /** Other extensions (.vsix) installed beside ours (the bench's reference extension). */
  readonly vsix?: readonly string[];
}

/**
 * Run a mocha module inside the real extension host of one VS Code version against a fresh local
 * engine, print its tests, add them to the tally and return what the module wrote to its results
 * file (other suites, e.g. the benchmarks and the reliability suite, add fields of their own).
 */
export async function runInHost(
  target: Target,
  ctx: SuiteContext,
  own: Own,
  options: HostRunOptions = {},
): Promise<(IntegrationResults & Record<string, unknown>) | undefined> {
  const label = options.label ?? 'integration tests';
  const TESTS_MODULE = options.testsModule ?? DEFAULT_TESTS_MODULE;
  const PER_TARGET_TIMEOUT_MS = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  log(`--- ${label} on VS Code ${target.name} (code-server ${target.codeServer}) ---`);
  const runDir = newRunDir(`${label.split(' ')[0]}-${target.name}`);
  ctx.markers.push(runDir);
  const resultsFile = path.join(runDir, 'results.json');
  const engine = await startLocalEngine();
  own(engine.stop);
  ctx.markers.push(engine.token, engine.dataDir);
  log(`VS Code ${target.name}: engine on ${engine.url}`);
  // The user's own key, in an agent: what the jobs' rsync over ssh logs in with (harness/userKey.ts).
  const userKey = await startUserKey(runDir);
  own(userKey.stop);
  const server = await timed(`VS Code ${target.name}: code-server start`, () =>
    startCodeServer(target, {
      runDir,
      // The extension host inherits code-server's environment: this is how tests find the engine.
      env: {
        TENSORPOOL_TEST_ENGINE_URL: engine.url,
        TENSORPOOL_TEST_TOKEN: engine.token,
        TENSORPOOL_TEST_READONLY_TOKEN: engine.readonlyToken,
        TENSORPOOL_TEST_RESULTS: resultsFile,
        ...userKey.env,
        ...(options.untrusted ? { TENSORPOOL_TEST_WORKSPACE: 'untrusted' } : {}),
        ...options.env,
      },
      // tensorpool.apiUrl is machine-scoped: this machine's settings, which tests change and clear with
      // ConfigurationTarget.Global (TENSORPOOL_ENGINE applies when it is unset).
      machineSettings: { 'tensorpool.apiUrl': engine.url },
      vsix: options.vsix ? [...options.vsix] : undefined,
      // In Restricted Mode the folder names another URL, which must be ignored.
      ...(options.untrusted
        ? { untrusted: true, workspaceSettings: { 'tensorpool.apiUrl': UNTRUSTED_FOLDER_API_URL } }
        : {}),
    }),
  );
  own(server.stop);
  const browser = await timed(`VS Code ${target.name}: chromium launch`, () => launchChromium(runDir));
  own(browser.close);
  const consoleLines: string[] = [];
  browser.page.on('console', (message) => {
    const line = `[browser ${message.type()}] ${plainConsoleText(message.text())}`.slice(0, 500);
    consoleLines.push(line);
    if (process.env.DEBUG_CONSOLE) console.log(`  ${line}`);
  });
  const exitCode = new Promise<number>((resolve) => {
    void browser.page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
  });
  const started = Date.now();
  await openWorkbench(browser, server, { extensionDevelopmentPath: REPO, extensionTestsPath: TESTS_MODULE });
  const outcome = await Promise.race([
    exitCode,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), PER_TARGET_TIMEOUT_MS)),
  ]);
  log(
    `VS Code ${target.name}: workbench finished the tests in ${((Date.now() - started) / 1000).toFixed(1)} s: ${outcome === 'timeout' ? `TIMEOUT after ${PER_TARGET_TIMEOUT_MS / 1000} s` : `codeAutomationExit(${outcome})`}`,
  );

  let passed = 0;
  let failed = 0;
  let results: (IntegrationResults & Record<string, unknown>) | undefined;
  if (fs.existsSync(resultsFile)) {
    results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as IntegrationResults &
      Record<string, unknown>;
    log(`${label}: extension host: VS Code ${results.vscode}, Node ${results.node}`);
    for (const t of results.tests) {
      console.log(`  ${t.state === 'passed' ? 'ok  ' : 'FAIL'} ${t.title}`);
      if (t.error) console.log(`       ${t.error.split('\n').slice(0, 8).join('\n       ')}`);
      if (t.state !== 'passed') noteFailure(ctx, `VS Code ${target.name}, ${label}`, t.title, t.error);
    }
    passed = results.passed;
    failed = results.failed;
    const slowest = [...(results.suites ?? [])].sort((a, b) => b.ms - a.ms).slice(0, 8);
    if (slowest.length > 0)
      log(
        `VS Code ${target.name}: slowest suites: ${slowest.map((x) => `${x.title} ${(x.ms / 1000).toFixed(1)} s`).join('; ')}`,
      );
    const slowTests = results.tests
      .filter((t) => t.ms !== undefined)
      .sort((a, b) => b.ms! - a.ms!)
      .slice(0, 8);
    if (slowTests.length > 0)
      log(
        `VS Code ${target.name}: slowest tests: ${slowTests.map((t) => `${t.title} ${(t.ms! / 1000).toFixed(1)} s`).join('; ')}`,
      );
  } else {
    console.log('  no results file: the test module did not run (see the console and code-server log below)');
  }
  // A timeout, or a failing exit code without a failed test (the module crashed before or after the
  // tests), counts as one more failure.
  if (outcome === 'timeout' || (outcome !== 0 && failed === 0)) failed++;
  if (failed > 0) {
    console.log(`  --- browser console (last 60 lines) ---\n  ${consoleLines.slice(-60).join('\n  ')}`);
    console.log(`  --- code-server log (tail) ---\n${fs.readFileSync(server.logFile, 'utf8').slice(-3000)}`);
  }
  console.log(`VS Code ${target.name}: ${summaryLine(passed, failed)}`);
  ctx.tally.passed += passed;
  ctx.tally.failed += failed;
  return results;
}

if (require.main === module) {
  runSuite('integration', async (ctx) => {
    const targets = selectTargets();
    ctx.watchdog.arm(15 * 60_000, 'installing');
    await ensureInstalled(targets);
    ctx.watchdog.arm(25 * 60_000, 'the integration suite');
    // TENSORPOOL_TEST_FILES=untrusted runs the Restricted Mode pass alone; another subset skips it.
    const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
    const subset = only.length > 0 || Boolean(process.env.TENSORPOOL_TEST_GREP);
    // A whole run: each version's files in groups, one host each, side by side (test/integration/groups.ts).
    const groups: Array<number | undefined> =
      subset || process.env.TENSORPOOL_SERIAL ? [undefined] : [...Array(INTEGRATION_GROUPS).keys()];
    const runVersion = async (target: Target) => {
      if (only.length === 0 || only.some((o) => !o.startsWith('untrusted')))
        await Promise.all(
          groups.map((group) => {
            const which = group === undefined ? '' : ` (group ${group + 1} of ${groups.length})`;
            return part(ctx, `VS Code ${target.name}${which}`, async (own) => {
              await runInHost(target, ctx, own, {
                label: `integration tests${which}`,
                env: group === undefined ? {} : { TENSORPOOL_TEST_GROUP: String(group) },
              });
            });
          }),
        );
      if (!subset || only.some((o) => o.startsWith('untrusted')))
        await part(ctx, `VS Code ${target.name}, untrusted workspace`, async (own) => {
          await runInHost(target, ctx, own, { label: 'untrusted workspace tests', untrusted: true });
        });
    };
    // The versions run side by side: each has its own engine, nodes, code-server, browser, home and
    // scratch folder, and a host's tests keep the cores busy about a third of its time (mostly they
    // wait on real timers: sampling intervals, ssh, quiet windows), so the hosts at once take little more
    // wall time than one. TENSORPOOL_SERIAL=1 runs the versions one after the other, each in one host (one
    // version's log at a time).
    if (process.env.TENSORPOOL_SERIAL) for (const target of targets) await runVersion(target);
    else await Promise.all(targets.map(runVersion));
  });
}
