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
  /** Tests that failed, then passed when tried again (the UI suite's flows), by name. */
  flaky?: string[];
}

/** The flaky tests of a suite's recent runs in this clone, newest last (`npm run report` counts them). */
export interface FlakyRun {
  date: string;
  flaky: string[];
}

const KEPT_RUNS = 3;

export function flakyHistoryFile(suite: string): string {
  return path.join(RESULTS, `flaky-${suite}.json`);
}

/** The suite's last runs (at most three) with this one added. Kept in test-results/, so a clean clone
 *  starts with none: the report says how many runs it counted. */
function recordFlaky(suite: string, run: FlakyRun): void {
  const file = flakyHistoryFile(suite);
  let runs: FlakyRun[];
  try {
    runs = JSON.parse(fs.readFileSync(file, 'utf8')) as FlakyRun[];
  } catch {
    runs = [];
  }
  writeAtomically(file, JSON.stringify([...runs, run].slice(-KEPT_RUNS), null, 2) + '\n');
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

export function countsFile(suite: string): string {
  return path.join(RESULTS, `tests-${suite}.json`);
}

export function writeCounts(counts: Omit<SuiteCounts, 'date'>): void {
  fs.mkdirSync(RESULTS, { recursive: true });
  const record: SuiteCounts = { ...counts, date: new Date().toISOString() };
  fs.writeFileSync(countsFile(counts.suite), JSON.stringify(record, null, 2) + '\n');
  if (counts.flaky) recordFlaky(counts.suite, { date: record.date, flaky: counts.flaky });
}
