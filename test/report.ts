// `npm run report`: one Markdown page of the latest figures, test-results/figures.md, from what the suites
// wrote to test-results/ (nothing committed is rewritten: a developer copies a figure into README.md's
// Performance table or notes/performance.md when it meaningfully changes):
//   bench.json           (npm run bench)             the whole bench table, and its headline rows
//   reliability.json     (npm run test:reliability)  the reliability checks
//   tests-<suite>.json   (every suite, see harness/counts.ts) the test counts
//   flaky-<suite>.json   (the UI suite) the flaky flows of its last three runs in this clone
// A missing JSON file leaves its section out (and says so). `.ci/run` runs it after `npm run bench`.
//
// usage: node out/test/report.js
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countsFile, flakyHistoryFile, type FlakyRun, type SuiteCounts } from './harness/counts';
import { RESULTS } from './harness/util';

const FIGURES = path.join(RESULTS, 'figures.md');
const SUITES = ['unit', 'system', 'integration', 'ui', 'reliability'];

function readJson<T>(file: string): T | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : undefined;
}

/** A markdown table; cells are escaped for pipes. */
function table(header: string[], rows: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

const day = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';

interface BenchRow {
  budget: string;
  where: string;
  unit: string;
  median: number | null;
  limit: string;
  verdict: 'met' | 'BROKEN' | 'info';
  kind: 'count' | 'size' | 'ratio' | 'time' | 'info';
  firstMeasurement?: string;
}
interface BenchReport {
  date: string;
  machine: { cpus: number; model?: string; memoryGB: number; platform: string; node: string };
  durationS: number;
  met: number;
  broken: number;
  rows: BenchRow[];
}

function figure(value: number | null, unit: string): string {
  if (value === null) return 'not measured';
  if (unit === 'x') return `${value.toFixed(2)}x`;
  const digits = unit === 'ms' && value < 10 ? 1 : 0;
  return `${value.toFixed(digits)} ${unit}`;
}

/** The verdict, and whether the row needed a second measurement (test/bench/table.ts). */
const verdict = (row: BenchRow) =>
  row.verdict === 'info'
    ? ''
    : row.firstMeasurement
      ? `${row.verdict} (2nd measurement; the first read ${row.firstMeasurement})`
      : row.verdict;

function benchSection(r: BenchReport): string {
  const m = r.machine;
  return [
    `Latest run: ${day(r.date)}, ${r.durationS.toFixed(0)} s on ${m.cpus} CPUs (${m.model ?? 'unknown'}, ` +
      `${m.memoryGB} GB, ${m.platform}, Node ${m.node}): ${r.met} budgets met, ${r.broken} broken. Medians:`,
    '',
    table(
      ['Budget', 'Where', 'Median', 'Gate', 'Limit', 'Verdict'],
      r.rows.map((row) => [
        // An indented budget is a part of the row above it (the parts of activation, of the time to first
        // tree, of the VSIX; the soak's other checks).
        row.budget.startsWith(' ') ? `↳ ${row.budget.trim()}` : row.budget,
        row.where,
        figure(row.median, row.unit),
        row.kind === 'info' ? '' : row.kind,
        row.limit === '-' ? '' : row.limit,
        verdict(row),
      ]),
    ),
  ].join('\n');
}

/** README's short table: the rows with a limit or a target, not their parts, with a link to the rest. */
function headlineSection(r: BenchReport): string {
  const rows = r.rows.filter(
    (row) =>
      !row.budget.startsWith(' ') && row.limit !== '-' && row.limit !== '' && !row.limit.startsWith('('),
  );
  return [
    `The headline rows (${day(r.date)}, ${r.machine.cpus} CPUs; medians):`,
    '',
    table(
      ['Figure', 'Where', 'Median', 'Gate', 'Limit or aim', 'Verdict'],
      rows.map((row) => [
        row.budget,
        row.where,
        figure(row.median, row.unit),
        row.kind === 'info' ? '' : row.kind,
        row.limit,
        verdict(row),
      ]),
    ),
  ].join('\n');
}

interface ReliabilityReport {
  date: string;
  node: string;
  vscode: string | null;
  timings: { totalMs: number; nodePartMs: number; hostPartMs: number };
  table: Array<{ check: string; result: string; ok: boolean; detail?: string }>;
  tests: Array<{ part: 'node' | 'host'; state: 'passed' | 'failed' }>;
}

function reliabilitySection(r: ReliabilityReport): string {
  const part = (p: string) => r.tests.filter((t) => t.part === p).length;
  const failed = r.tests.filter((t) => t.state === 'failed').length;
  return [
    `Latest run: ${day(r.date)}, ${r.tests.length} tests (Node part ${part('node')} on Node ${r.node}; ` +
      `${r.vscode ? `extension host ${part('host')} on VS Code ${r.vscode}` : 'extension host not run'}), ` +
      `${failed} failed, ${Math.round(r.timings.totalMs / 1000)} s.`,
    '',
    table(
      ['Check', 'Result', 'Notes'],
      r.table.map((row) => [row.check, row.result, `${row.ok ? '' : 'FAILED: '}${row.detail ?? ''}`]),
    ),
  ].join('\n');
}

function testsSection(counts: SuiteCounts[]): string {
  return table(
    ['Suite', 'Passed', 'Failed', 'Skipped', 'Seconds', 'Run', 'Options'],
    counts.map((c) => [
      c.suite,
      String(c.passed),
      String(c.failed),
      String(c.pending),
      c.seconds.toFixed(0),
      day(c.date),
      c.options ? `\`${c.options}\`` : '',
    ]),
  );
}

/** This run's flaky tests by name, and how many there were over the last runs recorded (at most three). */
function flakySection(counts: SuiteCounts[]): string | undefined {
  const lines: string[] = [];
  for (const c of counts) {
    const runs = readJson<FlakyRun[]>(flakyHistoryFile(c.suite));
    if (!c.flaky || !runs) continue;
    const total = runs.reduce((n, r) => n + r.flaky.length, 0);
    lines.push(
      `- ${c.suite}: ${c.flaky.length} flaky in the latest run${c.flaky.length ? `: ${c.flaky.join('; ')}` : ''}; ` +
        `${total} over the last ${runs.length} run${runs.length === 1 ? '' : 's'} recorded in this clone ` +
        `(${runs.map((r) => `${day(r.date)}: ${r.flaky.length}`).join(', ')}).`,
    );
  }
  return lines.length ? lines.join('\n') : undefined;
}

function main(): number {
  const bench = readJson<BenchReport>(path.join(RESULTS, 'bench.json'));
  const reliability = readJson<ReliabilityReport>(path.join(RESULTS, 'reliability.json'));
  const counts = SUITES.map((s) => readJson<SuiteCounts>(countsFile(s))).filter(
    (c): c is SuiteCounts => c !== undefined,
  );
  const sections: Array<[title: string, body: string | undefined, source: string]> = [
    ['Bench: headline', bench && headlineSection(bench), 'test-results/bench.json (npm run bench)'],
    ['Bench: every row', bench && benchSection(bench), 'test-results/bench.json (npm run bench)'],
    [
      'Reliability',
      reliability && reliabilitySection(reliability),
      'test-results/reliability.json (npm run test:reliability)',
    ],
    ['Tests', counts.length ? testsSection(counts) : undefined, 'test-results/tests-*.json (the suites)'],
    [
      'Flaky (failed, then passed in a fresh window)',
      flakySection(counts),
      'test-results/flaky-*.json (the UI suite)',
    ],
  ];
  const parts: string[] = ['# Latest figures', ''];
  for (const [title, body, source] of sections) {
    if (body === undefined) {
      console.log(`report: ${title}: no ${source}; left out`);
      continue;
    }
    parts.push(`## ${title}`, '', body, '');
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(FIGURES, parts.join('\n'));
  console.log(`report: wrote ${path.relative(process.cwd(), FIGURES)}`);
  return 0;
}

process.exit(main());
