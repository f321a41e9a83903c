/**
 * The generated corpus (test/fixtures/configCorpus.ts): 120 reproducible real-world-shaped config
 * files across ~/.aws/credentials, ~/.aws/config, rclone.conf and ~/.ssh/config, each written,
 * rewritten, crashed mid-write and removed on disk, with every expected byte constructed from the
 * case's model. A failure names the case and step, so it can be replayed alone.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configCorpus, CORPUS_PER_FORMAT, runConfigCorpus } from '../fixtures/configCorpus';

describe('config corpus round trips', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tp-config-corpus-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is reproducible from its seed', () => {
    const a = configCorpus().map((c) => [c.id, c.original, c.mode]);
    const b = configCorpus().map((c) => [c.id, c.original, c.mode]);
    assert.deepEqual(a, b);
    assert.notDeepEqual(
      configCorpus(7).map((c) => c.original),
      configCorpus().map((c) => c.original),
    );
  });

  it('covers the odd inputs it is meant to', () => {
    const texts = configCorpus()
      .map((c) => c.original)
      .filter((t): t is string => t !== undefined);
    assert.ok(
      texts.some((t) => t.startsWith('\uFEFF')),
      'a BOM',
    );
    assert.ok(
      texts.some((t) => t.includes('\r\n')),
      'CRLF',
    );
    assert.ok(
      texts.some((t) => /\r\n/.test(t) && /[^\r]\n/.test(t)),
      'mixed line endings',
    );
    assert.ok(
      texts.some((t) => t.length > 0 && !t.endsWith('\n')),
      'no final newline',
    );
    assert.ok(
      configCorpus().some((c) => c.original === undefined),
      'a missing file',
    );
    assert.ok(
      texts.some((t) => t.includes('[ tp ]')),
      'odd header spacing',
    );
    assert.ok(
      texts.some((t) => t.includes('# >>> tensorpool')),
      'an existing SSH block',
    );
  });

  it(`every case round-trips: foreign bytes, modes, crash safety, idempotence (${CORPUS_PER_FORMAT * 4} cases)`, async () => {
    const summary = await runConfigCorpus(dir);
    const report = summary.failures
      .slice(0, 5)
      .map((f) => `${f.id}:\n  ${f.problems.join('\n  ')}`)
      .join('\n');
    assert.equal(summary.roundTripped, summary.total, `${summary.failures.length} failed:\n${report}`);
    assert.ok(summary.total >= 100);
    assert.deepEqual(summary.byFormat, {
      'aws-credentials': CORPUS_PER_FORMAT,
      'aws-config': CORPUS_PER_FORMAT,
      rclone: CORPUS_PER_FORMAT,
      ssh: CORPUS_PER_FORMAT,
    });
  });
});
