// Test module run by VS Code's extension host (the harness passes it as extensionTestsPath). VS Code
// calls run(); resolving means pass, rejecting means fail. The host's stdout is not shown anywhere, so
// the results also go to the JSON file named by TENSORPOOL_TEST_RESULTS, which the harness prints.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { inGroup } from './groups';
import { settingsLoaded } from './helpers';
import { suiteTimes } from '../shared/suiteTimes';

interface TestResult {
  title: string;
  state: 'passed' | 'failed';
  /** How long the test itself took (mocha's duration; hooks not included). */
  ms?: number;
  error?: string;
}

export async function run(): Promise<void> {
  console.log(`[tensorpool tests] user settings waited for: ${await settingsLoaded()} ms`);
  // Every test file of this folder, in name order. Other issues add their own *.test.ts here. While
  // working on one area: env TENSORPOOL_TEST_FILES=jobs,volumes (file name prefixes) and/or
  // TENSORPOOL_TEST_GREP=<title pattern> run a subset (the harness passes its environment through).
  const grep = process.env.TENSORPOOL_TEST_GREP || undefined;
  const only = (process.env.TENSORPOOL_TEST_FILES ?? '').split(',').filter(Boolean);
  // untrusted*.test.ts run only in the harness's Restricted Mode pass, and only they run there.
  const untrusted = process.env.TENSORPOOL_TEST_WORKSPACE === 'untrusted';
  // The harness runs the files in groups, one host each (./groups.ts).
  const group = process.env.TENSORPOOL_TEST_GROUP ? Number(process.env.TENSORPOOL_TEST_GROUP) : undefined;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 30_000, reporter: 'spec', grep });
  for (const file of fs
    .readdirSync(__dirname)
    .filter(
      (f) =>
        f.endsWith('.test.js') &&
        f.startsWith('untrusted') === untrusted &&
        (untrusted || only.length === 0 || only.some((o) => f.startsWith(o))) &&
        (untrusted || group === undefined || inGroup(f, group)),
    )
    .sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  const tests: TestResult[] = [];
  let suites: { title: string; ms: number }[] = [];
  return new Promise<void>((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const resultsFile = process.env.TENSORPOOL_TEST_RESULTS;
      if (resultsFile) {
        const passed = tests.filter((t) => t.state === 'passed').length;
        const results = {
          vscode: vscode.version,
          node: process.version,
          passed,
          failed: failures,
          tests,
          suites,
        };
        fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
      }
      if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    suites = suiteTimes(runner); // each top-level suite's wall time: where the minutes go
    runner.on('pass', (test) => tests.push({ title: test.fullTitle(), state: 'passed', ms: test.duration }));
    // 'fail' also fires for failing hooks, which mocha counts as failures too.
    runner.on('fail', (test, err: Error) =>
      tests.push({ title: test.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }),
    );
  });
}
