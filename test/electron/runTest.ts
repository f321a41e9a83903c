// The integration suite in VS Code desktop (Electron) through @vscode/test-electron, for machines that
// can download VS Code from update.code.visualstudio.com. Where they cannot (the CI machines), this
// fails at once with ENOTFOUND: `npm test` uses code-server instead (test/harness/runIntegration.ts).
//
// usage: npm run test:electron            env VSCODE_VERSION (default: 1.100.3, the lowest supported;
//                                          "stable" for the newest)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { newRunDir } from '../harness/codeServer';
import { startLocalEngine } from '../harness/engine';
import { runSuite } from '../harness/suite';
import { CACHE, REPO, log, summaryLine } from '../harness/util';
import type { IntegrationResults } from '../harness/runIntegration';

runSuite('electron', async (ctx) => {
  ctx.watchdog.arm(10 * 60_000, 'the Electron integration run (download included)');
  const runDir = newRunDir('electron');
  ctx.markers.push(runDir);
  const engine = await startLocalEngine();
  const userData = path.join(runDir, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'tensorpool.apiUrl': engine.url }, null, 2),
  );
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(workspace);
  const resultsFile = path.join(runDir, 'results.json');
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? '1.100.3',
      cachePath: path.join(CACHE, 'vscode-test'),
      extensionDevelopmentPath: REPO,
      extensionTestsPath: path.join(REPO, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace,
        '--user-data-dir',
        userData,
        '--extensions-dir',
        path.join(runDir, 'extensions'),
        '--disable-workspace-trust',
      ],
      extensionTestsEnv: {
        TENSORPOOL_TEST_ENGINE_URL: engine.url,
        TENSORPOOL_TEST_TOKEN: engine.token,
        TENSORPOOL_TEST_READONLY_TOKEN: engine.readonlyToken,
        TENSORPOOL_TEST_RESULTS: resultsFile,
      },
    });
  } catch (err) {
    log(`VS Code desktop run failed: ${(err as Error)?.message ?? err}`);
  }
  if (fs.existsSync(resultsFile)) {
    const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as IntegrationResults;
    for (const t of results.tests)
      console.log(
        `  ${t.state === 'passed' ? 'ok  ' : 'FAIL'} ${t.title}${t.error ? `\n       ${t.error.split('\n')[0]}` : ''}`,
      );
    console.log(`VS Code ${results.vscode} (desktop): ${summaryLine(results.passed, results.failed)}`);
    ctx.tally.passed += results.passed;
    ctx.tally.failed += results.failed;
  } else {
    ctx.tally.failed++;
  }
  await engine.stop();
});
