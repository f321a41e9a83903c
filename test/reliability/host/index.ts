// The reliability suite's test module for VS Code's real extension host (run by test/reliability/run.ts
// through the harness's runInHost). Same contract as test/integration/index.ts: VS Code calls run();
// results go to $TENSORPOOL_TEST_RESULTS, here with the suite's figures (fault kinds, bad inputs,
// secrets found, duplicate creates) added under `figures`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { settingsLoaded } from '../../integration/helpers';
import { hostFiles } from '../hostFiles';
import { ledger } from '../ledger';
import { suiteTimes } from '../../shared/suiteTimes';
import { hostSecrets, scanForSecrets } from './secretScan';
import * as spy from './spy';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  ms?: number;
  error?: string;
}

/** For working on one file: TENSORPOOL_RELIABILITY_FILES=faults,unhandled (run.ts --files faults,unhandled). */
const ONLY = process.env.TENSORPOOL_RELIABILITY_FILES?.split(',')
  .map((f) => f.trim())
  .filter(Boolean);

export async function run(): Promise<void> {
  spy.install();
  await settingsLoaded();
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  if (process.env.TENSORPOOL_RELIABILITY_GREP) mocha.grep(process.env.TENSORPOOL_RELIABILITY_GREP);
  // run.ts gives each of the hosts it runs side by side its group (../hostFiles.ts).
  const group = process.env.TENSORPOOL_RELIABILITY_GROUP;
  for (const f of ONLY ?? hostFiles(group === undefined ? undefined : Number(group)))
    mocha.addFile(path.join(__dirname, `${f}.test.js`));
  const tests: TestResult[] = [];
  let suites: { title: string; ms: number }[] = [];
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve);
    suites = suiteTimes(runner);
    runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed', ms: test.duration }));
    runner.on('fail', (test, err: Error) =>
      tests.push({ title: test.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }),
    );
  });
  let failed = failures;
  const figures = ledger.figures();
  const results = {
    vscode: vscode.version,
    node: process.version,
    passed: 0,
    failed: 0,
    tests,
    suites,
    figures,
  };
  // The results themselves are output too: nothing secret may be in them (test titles, errors, figures).
  const findings = scanForSecrets(JSON.stringify(results), await hostSecrets());
  if (findings.length) {
    failed++;
    figures.secretsFound += findings.length;
    figures.secretFindings.push(...findings.map((f) => `results JSON: ${f}`));
    for (const t of tests) t.error = t.error ? '[withheld: the results contained a secret]' : undefined;
    tests.push({ title: 'the results JSON contains no secret', state: 'failed', error: findings.join('\n') });
  }
  figures.placesSearched++;
  results.passed = tests.filter((t) => t.state === 'passed').length;
  results.failed = failed;
  const resultsFile = process.env.TENSORPOOL_TEST_RESULTS;
  if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  if (failed > 0) throw new Error(`${failed} reliability test(s) failed in the extension host`);
}
