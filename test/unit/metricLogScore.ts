// Scores a metric reader over the training-log fixtures (test/fixtures/metricLogs/*.txt, format in its
// README.md): per family, the expected values read with the right name, and the non-metric lines read as
// metrics. Used by metrics-logs.test.ts with the real reader, and with readers that must score worse.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const LOG_DIR = path.join(__dirname, '../../../test/fixtures/metricLogs');

export interface LogLine {
  readonly text: string;
  /** name -> value; undefined: a line that carries no metric. */
  readonly expect?: ReadonlyMap<string, number>;
}

export interface LogFixture {
  readonly family: string;
  readonly sources: readonly string[];
  /** The other `# ` comments (where a source's code was not read, they say so). */
  readonly notes: readonly string[];
  readonly lines: readonly LogLine[];
}

/** What a reader made of a line: its values by name (the x under its key), or undefined for no metric line. */
export type Reader = (line: string) => ReadonlyMap<string, number> | undefined;

export interface Score {
  readonly family: string;
  readonly expected: number;
  readonly read: number;
  readonly noise: number;
  readonly noiseRead: number;
  /** Up to a few misses, for the report (`line: name`). */
  readonly misses: readonly string[];
}

/** `\x1b` and `\r` in a fixture are an escape and a carriage return (a colour, a progress bar's redraw). */
const unescape = (s: string) => s.replace(/\\x1b/g, '\x1b').replace(/\\r/g, '\r');

export function loadFixtures(): LogFixture[] {
  return readdirSync(LOG_DIR)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => {
      const sources: string[] = [];
      const notes: string[] = [];
      const lines: { text: string; expect?: Map<string, number> }[] = [];
      for (const raw of readFileSync(path.join(LOG_DIR, f), 'utf8').split('\n')) {
        if (raw.startsWith('# ')) {
          if (raw.startsWith('# source: ')) sources.push(raw.slice(10));
          else notes.push(raw.slice(2));
        } else if (raw.startsWith('= ')) {
          const last = lines[lines.length - 1];
          if (!last || last.expect)
            throw new Error(`${f}: an expectation with no log line before it: ${raw}`);
          last.expect = new Map(
            raw
              .slice(2)
              .trim()
              .split(/\s+/)
              .map((pair) => {
                const eq = pair.indexOf('=');
                const value = Number(pair.slice(eq + 1));
                if (eq <= 0 || !Number.isFinite(value)) throw new Error(`${f}: not name=number: ${pair}`);
                return [pair.slice(0, eq), value] as const;
              }),
          );
        } else lines.push({ text: unescape(raw) });
      }
      if (lines.length > 0 && lines[lines.length - 1].text === '') lines.pop();
      return { family: f.replace(/\.txt$/, ''), sources, notes, lines };
    });
}

const same = (a: number, b: number) =>
  a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

/** Scores `read` over one fixture, its lines in order; `start` is called first (a reader with state). */
export function score(fixture: LogFixture, read: Reader, start: () => void = () => undefined): Score {
  start();
  let expected = 0;
  let hits = 0;
  let noise = 0;
  let noiseRead = 0;
  const misses: string[] = [];
  for (const line of fixture.lines) {
    const got = read(line.text);
    if (!line.expect) {
      noise++;
      if (got) {
        noiseRead++;
        misses.push(`noise read: ${line.text.trim().slice(0, 80)} -> ${[...got.keys()].join(',')}`);
      }
      continue;
    }
    for (const [name, value] of line.expect) {
      expected++;
      const v = got?.get(name);
      if (v !== undefined && same(v, value)) hits++;
      else misses.push(`${line.text.trim().slice(0, 60)}: ${name} (${v === undefined ? 'none' : v})`);
    }
  }
  return { family: fixture.family, expected, read: hits, noise, noiseRead, misses };
}

export interface Totals {
  readonly recall: number;
  readonly falsePositives: number;
}

export function totals(scores: readonly Score[]): Totals {
  const sum = (f: (s: Score) => number) => scores.reduce((a, s) => a + f(s), 0);
  return {
    recall: sum((s) => s.read) / sum((s) => s.expected),
    falsePositives: sum((s) => s.noiseRead) / sum((s) => s.noise),
  };
}

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);

/** The per-family figures as a table (printed by the test). */
export function report(scores: readonly Score[]): string {
  const rows = scores.map(
    (s) =>
      `  ${s.family.padEnd(18)} values read ${`${s.read}/${s.expected}`.padStart(7)} ${pct(s.read, s.expected).padStart(6)}` +
      `   noise read as metrics ${`${s.noiseRead}/${s.noise}`.padStart(5)}`,
  );
  const t = totals(scores);
  const sum = (f: (s: Score) => number) => scores.reduce((a, s) => a + f(s), 0);
  rows.push(
    `  ${'all'.padEnd(18)} values read ${`${sum((s) => s.read)}/${sum((s) => s.expected)}`.padStart(7)} ${(100 * t.recall).toFixed(1).padStart(5)}%` +
      `   noise read as metrics ${`${sum((s) => s.noiseRead)}/${sum((s) => s.noise)}`.padStart(5)} (${(100 * t.falsePositives).toFixed(1)}%)`,
  );
  return rows.join('\n');
}
