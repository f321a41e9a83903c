// The metric reader over logs as the training frameworks people use print them (test/fixtures/metricLogs:
// one file per project, each naming the code its lines come from): at least 90% of the values read with the
// right name, at most 3% of the non-metric lines read as metrics, over the whole set.
import * as assert from 'node:assert/strict';
import { parseMetricLine, resetMetricReader } from '../../src/model/metrics/parseLine';
import { loadFixtures, report, score, totals, type Reader } from './metricLogScore';

const real: Reader = (line) => {
  const p = parseMetricLine(line);
  if (!p) return undefined;
  const out = new Map(p.metrics);
  if (p.xKey !== undefined && p.x !== undefined) out.set(p.xKey, p.x);
  return out;
};

const fixtures = loadFixtures();

describe('metric lines: training logs as the frameworks print them', () => {
  it('every fixture names its source and has both metric and other lines overall', () => {
    assert.ok(fixtures.length >= 18, `${fixtures.length} fixtures`);
    for (const f of fixtures) {
      assert.ok(f.lines.length > 0, f.family);
      // `repo@commit:path:line` (or `:function`), or a note that the code was not read
      for (const source of f.sources) assert.match(source, /^[\w.-]+\/[\w.-]+@[0-9a-f]{40}:\S+:\S+/, source);
      assert.ok(f.sources.length > 0 || f.notes.some((n) => /not read/.test(n)), `${f.family}: no source`);
    }
    const expected = fixtures.reduce((a, f) => a + f.lines.filter((l) => l.expect).length, 0);
    const noise = fixtures.reduce((a, f) => a + f.lines.filter((l) => !l.expect).length, 0);
    assert.ok(expected >= 70 && noise >= 140, `${expected} metric lines, ${noise} others`);
  });

  it('reads at least 90% of the values by name and at most 3% of the other lines as metrics', () => {
    const scores = fixtures.map((f) => score(f, real, resetMetricReader));
    console.log(report(scores));
    const misses = scores.flatMap((s) => s.misses.map((m) => `  ${s.family}: ${m}`));
    if (misses.length > 0) console.log(`  misses:\n${misses.join('\n')}`);
    const t = totals(scores);
    assert.ok(t.recall >= 0.9, `recall ${t.recall}`);
    assert.ok(t.falsePositives <= 0.03, `false positives ${t.falsePositives}`);
  });

  it('the measure fails a reader that gets values wrong, or reads only key=value and key: value', () => {
    // the same reader with every value off by one: right names, wrong values
    const offByOne: Reader = (line) => {
      const m = real(line);
      return m && new Map([...m].map(([k, v]) => [k, v + 1]));
    };
    assert.ok(totals(fixtures.map((f) => score(f, offByOne, resetMetricReader))).recall < 0.05);
    // a naive reader: name=number and name: number only
    const naive: Reader = (line) => {
      const out = new Map<string, number>();
      for (const m of line.matchAll(
        /([A-Za-z_][\w/.@-]*)\s*[=:]\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\w.])/g,
      ))
        out.set(m[1].toLowerCase(), Number(m[2]));
      return out.size > 0 ? out : undefined;
    };
    const t = totals(fixtures.map((f) => score(f, naive)));
    assert.ok(t.recall < 0.9 || t.falsePositives > 0.03, JSON.stringify(t));
  });
});
