// How many tests a suite ran, written to test-results/tests-<suite>.json at the end of every run, for
// `npm run report` (the test-count table in test-results/figures.md). Mocha suites in plain Node write it
// through resultsReporter.ts, the harness suites (integration, UI, reliability) through runSuite().
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESULTS } from './util';

export interface SuiteCounts {
  suite: string;
  date: string;
  passed: number;
  failed: number;
  pending: number;
  seconds: number;
  /** The command-line options of the run (a partial run, e.g. one VS Code version, says so here). */
  options: string;
}

export function countsFile(suite: string): string {
  return path.join(RESULTS, `tests-${suite}.json`);
}

export function writeCounts(counts: Omit<SuiteCounts, 'date'>): void {
  fs.mkdirSync(RESULTS, { recursive: true });
  const record: SuiteCounts = { ...counts, date: new Date().toISOString() };
  fs.writeFileSync(countsFile(counts.suite), JSON.stringify(record, null, 2) + '\n');
}
