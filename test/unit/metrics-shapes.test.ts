// Line shapes (src/model/metrics/shapeCache.ts): a line read by the shape of an earlier one gives what the
// parser alone gives, for every line of the parser's own tests (test/fixtures/metricLines.json: each format,
// each near miss) and for thousands of variants of them with other numbers, other digits and signs.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseMetricLine, parseMetricLineFully, resetMetricReader } from '../../src/model/metrics/parseLine';
import { forgetShapes } from '../../src/model/metrics/shapeCache';
import { loadFixtures } from './metricLogScore';

const LINES = JSON.parse(
  readFileSync(path.join(__dirname, '../../../test/fixtures/metricLines.json'), 'utf8'),
) as string[];

const shown = (line: string) => {
  const p = parseMetricLine(line);
  return p && { x: p.x, xKey: p.xKey, metrics: [...p.metrics] };
};
const fully = (line: string) => {
  const p = parseMetricLineFully(line);
  return p && { x: p.x, xKey: p.xKey, metrics: [...p.metrics] };
};

/** A small deterministic generator (the variants are the same in every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WRITTEN = [
  '0.5',
  '.5',
  '-0.25',
  '1e-5',
  '2E+3',
  '7e2',
  '-3',
  '100',
  '12.5%',
  '3,5',
  '1/2',
  '4.5.6',
  'x',
];

/** `line` with its runs of digits replaced by other digits (1 to 5 of them; all runs, or one only), sometimes a
 *  sign added or dropped, sometimes a number written otherwise: most keep the line's shape, some do not (a
 *  count with thousands separators, a version, a counter). */
function variant(line: string, next: () => number): string {
  const runs = line.match(/-?\d+/g)?.length ?? 0;
  const only = next() < 0.5 ? Math.floor(next() * runs) : -1;
  let n = 0;
  return line.replace(/-?\d+/g, (run) => {
    if (only >= 0 && n++ !== only) return run;
    if (next() < 0.05) return WRITTEN[Math.floor(next() * WRITTEN.length)];
    const digits = Array.from({ length: 1 + Math.floor(next() * 5) }, () => Math.floor(next() * 10)).join('');
    const sign = next() < 0.15 ? (run.startsWith('-') ? '' : '-') : run.startsWith('-') ? '-' : '';
    return sign + digits;
  });
}

describe('metric lines read by the shape of an earlier line', () => {
  it('a shape is learnt from the second line of an outline, used from the third, and gives the parser’s point', () => {
    forgetShapes();
    shown('step=0 loss=2.7000 lr=0.0001 acc=0.0500');
    assert.deepEqual(shown('step=1 loss=2.5000 lr=0.0001 acc=0.1000'), {
      x: 1,
      xKey: 'step',
      metrics: [
        ['loss', 2.5],
        ['lr', 0.0001],
        ['acc', 0.1],
      ],
    });
    assert.deepEqual(
      shown('step=2 loss=2.25 lr=0.0002 acc=0.2'),
      fully('step=2 loss=2.25 lr=0.0002 acc=0.2'),
    );
    assert.equal(forgetShapes(), 1, 'the third line was read by the shape');
  });

  it('a number written another way (a sign, an exponent, no decimal point) or another text is read by the parser', () => {
    forgetShapes();
    shown('step=0 loss=2.7000 lr=0.0002');
    shown('step=1 loss=2.5000 lr=0.0001');
    for (const line of [
      'step=2 loss=-2.5 lr=0.1',
      'step=2 loss=2.5 lr=1e-4',
      'step=2 loss=3 lr=0.1',
      'step=2 loss=2.5 lr=0.1 acc=0.5',
    ])
      assert.deepEqual(shown(line), fully(line), line);
    assert.equal(forgetShapes(), 0);
  });

  it('a sign that makes the text before a number read otherwise is kept in the shape (Megatron, n/ -N)', () => {
    forgetShapes();
    const notCounted =
      ' iteration      5/    -5 | consumed samples:         8 | elapsed time per iteration (ms): 1.5 | ';
    const counted =
      ' iteration      5/    7929 | consumed samples:         0 | elapsed time per iteration (ms): 4.019 | ';
    assert.deepEqual(shown(notCounted), fully(notCounted));
    assert.equal(fully(notCounted)?.x, undefined, 'no x: 5/ -5 is no counter');
    assert.deepEqual(shown(counted), fully(counted));
    assert.equal(shown(counted)?.x, 5);
  });

  it('no shape is kept for values with units, counters, epoch fractions, rates, objects or quotes', () => {
    for (const line of [
      'iter 100: loss 4.2345, time 12.34ms',
      'Epoch 1/5 loss=0.3',
      'Epoch: [0][100/5005] loss 0.5',
      "{'loss': 0.4821, 'epoch': 0.12}",
      ' 45%|████▌     | 450/1000 [00:30<00:36, 15.2it/s, loss=0.123]',
      "'loss' 0.5 step 3",
    ]) {
      forgetShapes();
      shown(line);
      shown(line);
      const again = variant(line, random(7));
      assert.deepEqual(shown(again), fully(again), again);
      assert.equal(forgetShapes(), 0, line);
    }
  });

  it('every line of the parser’s tests, and 60 variants of each, read as the parser reads them', () => {
    const next = random(20261202);
    let compared = 0;
    let byShape = 0;
    for (const line of LINES) {
      byShape += forgetShapes();
      assert.deepEqual(shown(line), fully(line), line);
      for (let i = 0; i < 60; i++) {
        const v = variant(line, next);
        assert.deepEqual(shown(v), fully(v), `${v} (after ${line})`);
        compared++;
      }
    }
    byShape += forgetShapes();
    assert.ok(compared > 10_000, `${compared} variants`);
    assert.ok(byShape > 500, `${byShape} of them read by a shape`);
  });

  it('every line of the training-log fixtures, in order, and 20 variants of each, read as the parser reads them', () => {
    const next = random(20261205);
    let compared = 0;
    let byShape = 0;
    for (const fixture of loadFixtures()) {
      resetMetricReader();
      for (const { text } of fixture.lines) {
        for (let i = 0; i < 20; i++) {
          const v = variant(text, next);
          assert.deepEqual(shown(v), fully(v), `${fixture.family}: ${v} (after ${text})`);
          compared++;
        }
        assert.deepEqual(shown(text), fully(text), `${fixture.family}: ${text}`);
      }
      byShape += forgetShapes();
    }
    assert.ok(compared > 5_000, `${compared} variants`);
    assert.ok(byShape > 300, `${byShape} of them read by a shape`);
  });

  it('interleaved shapes (train and eval lines) are each kept', () => {
    forgetShapes();
    for (let i = 1; i <= 50; i++) {
      const train = `step=${i} loss=${(1 / i).toFixed(4)} lr=0.0003`;
      const evalLine = `eval step ${i * 10} | val_loss ${(2 / i).toFixed(3)} | val_acc 0.${i}`;
      assert.deepEqual(shown(train), fully(train), train);
      assert.deepEqual(shown(evalLine), fully(evalLine), evalLine);
    }
    assert.ok(forgetShapes() >= 90, 'all but the first two of each read by its shape');
  });
});
