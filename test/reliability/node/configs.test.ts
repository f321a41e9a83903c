/**
 * The config writers (ssh, AWS CLI, rclone) against the generated corpus of test/fixtures/configCorpus.ts,
 * with a seed of the suite's own (the unit tests run the default seed): each case writes, rewrites,
 * crashes between write and rename, and removes our section on real files; every foreign byte and the
 * file mode must survive, and a crash must leave the old file intact with no temp file behind.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configCorpus, runConfigCorpus, type CorpusFormat } from '../../fixtures/configCorpus';
import { ledger } from '../ledger';

/** Not the unit tests' seed: the suite adds 120 more files rather than repeating the same ones. */
export const RELIABILITY_CORPUS_SEED = 9_092_026;
const PER_FORMAT = 30;

describe('reliability: config files round-trip (ssh, AWS, rclone)', function () {
  this.timeout(60_000);
  let dir: string;
  const cases = configCorpus(RELIABILITY_CORPUS_SEED, PER_FORMAT);
  const results: Array<{ id: string; format: CorpusFormat; problems: string[] }> = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-reliability-configs-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    const byFormat: Record<string, number> = {};
    for (const r of results) if (r.problems.length === 0) byFormat[r.format] = (byFormat[r.format] ?? 0) + 1;
    ledger.configs = {
      total: cases.length,
      roundTripped: results.filter((r) => r.problems.length === 0).length,
      byFormat,
      failures: results.filter((r) => r.problems.length).map((r) => `${r.id}: ${r.problems[0]}`),
    };
  });

  it('the corpus is large and varied enough', () => {
    assert.ok(cases.length >= 100, `${cases.length} cases`);
    const originals = cases.map((c) => c.original).filter((t): t is string => t !== undefined);
    assert.ok(
      originals.some((t) => t.startsWith('\uFEFF')) &&
        originals.some((t) => t.includes('\r\n')) &&
        cases.some((c) => c.original === undefined),
    );
    assert.deepEqual(new Set(cases.map((c) => c.mode)), new Set([0o600, 0o644, 0o640]));
  });

  for (const c of cases) {
    ledger.cover(
      it(`${c.id}: foreign bytes, mode, crash before rename`, async () => {
        const summary = await runConfigCorpus(dir, [c]);
        const problems = summary.failures.flatMap((f) => f.problems);
        results.push({ id: c.id, format: c.format, problems });
        assert.deepEqual(problems, []);
      }),
      `config:${c.id}`,
    );
  }
});
