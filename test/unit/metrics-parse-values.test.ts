import * as assert from 'node:assert/strict';
import { MAX_LINE, parseMetricLine } from '../../src/model/metrics';
import { normaliseName, parseUnit } from '../../src/model/metrics/names';

function metrics(line: string): Record<string, number> | undefined {
  const p = parseMetricLine(line);
  return p && Object.fromEntries(p.metrics);
}

/** A small deterministic generator (tests must not depend on Math.random). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('metric lines: numbers, units and names', () => {
  it('every number reads as exactly the number JavaScript reads from the same text', () => {
    const next = lcg(33);
    const texts: string[] = [
      '0',
      '-0.5',
      '+2',
      '.5',
      '1e-4',
      '3.0E-05',
      '4.520000E+00',
      '12345678901234567890',
      '1e300',
    ];
    for (let i = 0; i < 1000; i++) {
      const v = (next() - 0.5) * 10 ** Math.floor(next() * 24 - 12);
      const digits = 1 + Math.floor(next() * 17);
      texts.push(
        v.toPrecision(digits),
        v.toExponential(Math.min(digits, 20)),
        v.toFixed(Math.floor(next() * 12)),
      );
    }
    for (const text of texts) {
      if (text.startsWith('+')) continue; // `loss=+2` is written, but not by toPrecision
      const got = metrics(`loss=${text} step=1`)?.loss;
      assert.ok(Object.is(got, Number(text)) || (got === 0 && Number(text) === 0), `${text}: ${got}`);
    }
    assert.equal(metrics('loss=+2 step=1')?.loss, 2);
  });

  it('a unit joins the name: time, percent, sizes and rates; a name ending in its unit keeps it once', () => {
    assert.deepEqual(metrics('step=1 time=12.34ms data=3s wait=250us eta_total=2h'), {
      time_ms: 12.34,
      data_s: 3,
      wait_us: 250,
      eta_total_h: 2,
    });
    assert.deepEqual(metrics('step=1 mfu=35.2% mem=12.5GB peak=3000M bw=12GB/s tput=5000tok/s'), {
      mfu_pct: 35.2,
      mem_gb: 12.5,
      peak_mb: 3000,
      bw_gb_per_s: 12,
      tput_tok_per_s: 5000,
    });
    assert.deepEqual(metrics('step=1 time_ms=5ms loss=1'), { time_ms: 5, loss: 1 });
    // a suffix we do not know makes the number no value
    assert.deepEqual(metrics('step=1 temp=34C power=60W loss=1'), { loss: 1 });
  });

  it('units are recognised exactly (a rate is unit/unit; sizes by their usual spellings)', () => {
    assert.deepEqual(parseUnit('ms'), { suffix: 'ms', kind: 'time' });
    assert.deepEqual(parseUnit('µs'), { suffix: 'us', kind: 'time' });
    assert.deepEqual(parseUnit('%'), { suffix: 'pct', kind: 'pct' });
    assert.deepEqual(parseUnit('MiB'), { suffix: 'mib', kind: 'size' });
    assert.deepEqual(parseUnit('it/s'), { suffix: 'it_per_s', kind: 'rate' });
    assert.deepEqual(parseUnit('s/it'), { suffix: 's_per_it', kind: 'rate' });
    assert.deepEqual(parseUnit('MB/s'), { suffix: 'mb_per_s', kind: 'sizeRate' });
    assert.deepEqual(parseUnit('/s'), { suffix: 'per_s', kind: 'bareRate' });
    for (const no of ['C', 'W', 'rd', 'x1f', 'a/b/c', 'it/', '/']) assert.equal(parseUnit(no), undefined, no);
  });

  it('names: lower case, spaces and parentheses to _, quotes dropped; no name from what starts like a formula', () => {
    assert.equal(normaliseName('Lm Loss'), 'lm_loss');
    assert.equal(normaliseName('elapsed time per iteration (ms)'), 'elapsed_time_per_iteration_ms');
    assert.equal(normaliseName("'val_loss'"), 'val_loss');
    assert.equal(normaliseName('train/loss'), 'train/loss');
    assert.equal(normaliseName('Acc@1'), 'acc@1');
    assert.equal(normaliseName('loss.'), 'loss');
    assert.equal(normaliseName('_private'), '_private');
    for (const no of ['=cmd', '+x', '-y', '@z', '1st', '', '   ', 'x'.repeat(121)]) {
      assert.equal(normaliseName(no), undefined, no);
    }
    // the same raw name again (a cached answer) gives the same
    assert.equal(normaliseName('Lm Loss'), 'lm_loss');
  });

  it('a progress bar redrawn with carriage returns counts once, as its last state', () => {
    const line = ' 10%|█ | 100/1000 [00:01<00:09, loss=0.9]\r 20%|██ | 200/1000 [00:02<00:08, loss=0.8]\r';
    assert.deepEqual(parseMetricLine(line), { x: 200, xKey: 'step', metrics: new Map([['loss', 0.8]]) });
    assert.equal(parseMetricLine('\r\r\r'), undefined);
  });

  it('a very long line is read in part (MAX_LINE characters, MAX_TOKENS tokens) and never throws', () => {
    const pairs = Array.from({ length: 2000 }, (_, i) => `m${i}=${i}`).join(' ');
    const p = parseMetricLine(pairs);
    assert.ok(p);
    assert.ok(p.metrics.size > 100 && p.metrics.size < 2000, `${p.metrics.size} metrics`);
    assert.ok(pairs.length > MAX_LINE);
    const json = `{${Array.from({ length: 2000 }, (_, i) => `"k${i}": ${i}`).join(', ')}}`;
    assert.doesNotThrow(() => parseMetricLine(json));
  });

  it('whatever the line, the answer is undefined or finite numbers under names that start with a letter or _', () => {
    const next = lcg(7);
    const alphabet = 'ab lLsS0123456789.,:;=|-+eE%/()[]{}\'"_ \t\r━█<>nanif@#\\x';
    for (let i = 0; i < 5000; i++) {
      let line = '';
      const n = Math.floor(next() * 60);
      for (let k = 0; k < n; k++) line += alphabet[Math.floor(next() * alphabet.length)];
      const p = parseMetricLine(line);
      if (!p) continue;
      assert.ok(p.metrics.size > 0, line);
      for (const [name, v] of p.metrics) {
        assert.ok(Number.isFinite(v), `${JSON.stringify(line)}: ${name}=${v}`);
        assert.match(name, /^[a-z_\u0080-\uffff]/, JSON.stringify(line));
      }
      if (p.x !== undefined)
        assert.ok(Number.isFinite(p.x) && typeof p.xKey === 'string', JSON.stringify(line));
    }
  });
});
