// `npm run report`: writes the figures tables in CONTRIBUTING.md from what the suites wrote to test-results/:
//   bench.json           (npm run bench)             between <!-- figures:bench:start --> and :end -->
//   reliability.json     (npm run test:reliability)  between <!-- figures:reliability:start --> and :end -->
//   tests-<suite>.json   (every suite, see harness/counts.ts) between <!-- figures:tests:start --> and :end -->
//   bench.json again, its headline rows (every row with a limit or target, without its parts) in README.md,
//                                                     between <!-- figures:headline:start --> and :end -->
// A section whose JSON is missing is left as it is (and said so); the script fails only when CONTRIBUTING.md
// lacks a marker pair. Run it after the suites; `.ci/run` runs it after `npm run bench`.
//
// usage: node out/test/report.js [--check]   (--check: exit 1 if CONTRIBUTING.md is not up to date, write nothing)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countsFile, type SuiteCounts } from './harness/counts';
import { REPO, RESULTS } from './harness/util';

const FIGURES_DOC = path.join(REPO, 'CONTRIBUTING.md');
const README = path.join(REPO, 'README.md');
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

function benchSection(r: BenchReport): string {
  const m = r.machine;
  return [
    `Latest run: ${day(r.date)}, ${r.durationS.toFixed(0)} s on ${m.cpus} CPUs (${m.model ?? 'unknown'}, ` +
      `${m.memoryGB} GB, ${m.platform}, Node ${m.node}): ${r.met} budgets met, ${r.broken} broken. Medians:`,
    '',
    table(
      ['Budget', 'Where', 'Median', 'Limit', 'Verdict'],
      r.rows.map((row) => [
        // An indented budget is a part of the row above it (the parts of activation, of the time to first
        // tree, of the VSIX; the soak's other checks).
        row.budget.startsWith(' ') ? `↳ ${row.budget.trim()}` : row.budget,
        row.where,
        figure(row.median, row.unit),
        row.limit === '-' ? '' : row.limit,
        row.verdict === 'info' ? '' : row.verdict,
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
    `From the latest \`npm run bench\` (${day(r.date)}, ${r.machine.cpus} CPUs; medians; every row and how each ` +
      'is measured: [CONTRIBUTING.md](CONTRIBUTING.md#performance)):',
    '',
    table(
      ['Figure', 'Where', 'Median', 'Limit or target', 'Verdict'],
      rows.map((row) => [
        row.budget,
        row.where,
        figure(row.median, row.unit),
        row.limit,
        row.verdict === 'info' ? '' : row.verdict,
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

/** Replace what lies between the section's markers; undefined when the markers are missing. */
function replaceSection(text: string, name: string, body: string): string | undefined {
  const start = `<!-- figures:${name}:start -->`;
  const end = `<!-- figures:${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return undefined;
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}

type Section = [name: string, body: string | undefined, source: string];

/** Write the sections into one document: ok is false when a section's markers are missing, stale when it changed. */
function writeDoc(file: string, sections: Section[], check: boolean): { ok: boolean; stale: boolean } {
  const doc = path.basename(file);
  const before = fs.readFileSync(file, 'utf8');
  let text = before;
  let ok = true;
  for (const [name, body, source] of sections) {
    if (body === undefined) {
      console.log(`report: ${name}: no ${source}; the section is left as it is`);
      continue;
    }
    const next = replaceSection(text, name, body);
    if (next === undefined) {
      console.error(`report: ${doc} has no <!-- figures:${name}:start --> ... :end --> markers`);
      ok = false;
      continue;
    }
    text = next;
    console.log(`report: ${name}: written from ${source}`);
  }
  const stale = text !== before;
  if (check) {
    if (stale) console.error(`report: ${doc} is not up to date with test-results/ (npm run report)`);
  } else {
    if (stale) fs.writeFileSync(file, text);
    console.log(stale ? `report: ${doc} updated` : `report: ${doc} was up to date`);
  }
  return { ok, stale };
}

function main(): number {
  const check = process.argv.includes('--check');
  const bench = readJson<BenchReport>(path.join(RESULTS, 'bench.json'));
  const reliability = readJson<ReliabilityReport>(path.join(RESULTS, 'reliability.json'));
  const counts = SUITES.map((s) => readJson<SuiteCounts>(countsFile(s))).filter(
    (c): c is SuiteCounts => c !== undefined,
  );
  const benchSource = 'test-results/bench.json (npm run bench)';
  const results = [
    writeDoc(
      FIGURES_DOC,
      [
        ['bench', bench && benchSection(bench), benchSource],
        [
          'reliability',
          reliability && reliabilitySection(reliability),
          'test-results/reliability.json (npm run test:reliability)',
        ],
        ['tests', counts.length ? testsSection(counts) : undefined, 'test-results/tests-*.json (the suites)'],
      ],
      check,
    ),
    writeDoc(README, [['headline', bench && headlineSection(bench), benchSource]], check),
  ];
  if (results.some((r) => !r.ok)) return 1;
  return check && results.some((r) => r.stale) ? 1 : 0;
}

process.exit(main());
