import * as assert from 'node:assert/strict';
import { MetricSeries, MetricStore, parseMetricLine, TIME_KEY } from '../../src/model/metrics';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function assertIncreasing(xs: Float64Array, what: string): void {
  for (let i = 1; i < xs.length; i++)
    assert.ok(xs[i] >= xs[i - 1], `${what}: x[${i}] ${xs[i]} < ${xs[i - 1]}`);
}

describe('MetricSeries: bounded, peaks kept, x in order', () => {
  it('keeps the first points exactly until the cap', () => {
    const s = new MetricSeries('loss', 'step', 100);
    for (let i = 0; i < 90; i++) s.add(i, 10 - i / 10);
    const { xs, ys } = s.points();
    assert.equal(xs.length, 90);
    assert.deepEqual(
      [...xs],
      Array.from({ length: 90 }, (_, i) => i),
    );
    assert.deepEqual(
      [...ys],
      Array.from({ length: 90 }, (_, i) => 10 - i / 10),
    );
    assert.equal(s.size, 90);
    assert.deepEqual(s.last, { x: 89, y: 10 - 8.9 });
  });

  it('after 1,000,000 points: at most the cap, the lowest and highest values still there, x increasing', () => {
    const cap = 2000;
    const s = new MetricSeries('loss', 'step', cap);
    const next = lcg(1);
    let min = Infinity;
    let max = -Infinity;
    let minAt = -1;
    let maxAt = -1;
    for (let i = 0; i < 1_000_000; i++) {
      // a noisy falling loss with rare spikes, one deep dip
      let y = 5 * Math.exp(-i / 200_000) + next() * 0.1;
      if (i % 99_991 === 7) y += 50;
      if (i === 654_321) y = -3;
      s.add(i, y);
      if (y < min) [min, minAt] = [y, i];
      if (y > max) [max, maxAt] = [y, i];
      if (i % 1000 === 0) assert.ok(s.size <= cap, `${s.size} points after ${i + 1}`);
    }
    const { xs, ys } = s.points();
    assert.ok(xs.length <= cap && xs.length > cap / 4, `${xs.length} points`);
    assert.equal(s.size, xs.length);
    assert.equal(s.total, 1_000_000);
    assertIncreasing(xs, 'kept points');
    assert.ok(ys.includes(min) && xs[ys.indexOf(min)] === minAt, 'the lowest value at its x');
    assert.ok(ys.includes(max) && xs[ys.indexOf(max)] === maxAt, 'the highest value at its x');
    // every spike survives (each is the highest point of its bucket)
    for (let i = 7; i < 1_000_000; i += 99_991) assert.ok(xs.includes(i), `the spike at ${i}`);
    assert.equal(xs[xs.length - 1] <= 999_999, true);
    // points spread over the whole run, not only its start or end
    assert.ok(xs[0] < 1000 && xs[xs.length - 1] > 990_000, `${xs[0]} .. ${xs[xs.length - 1]}`);
  });

  it('the extremes of every stretch are kept, not only the global ones (min/max per bucket)', () => {
    const s = new MetricSeries('v', 'step', 64);
    for (let i = 0; i < 10_000; i++) s.add(i, Math.sin(i / 500) * 100);
    const { ys } = s.points();
    assert.ok(Math.max(...ys) > 99.99 && Math.min(...ys) < -99.99);
    // the sine goes up and down several times: the kept points do too
    let turns = 0;
    for (let i = 2; i < ys.length; i++) if ((ys[i] - ys[i - 1]) * (ys[i - 1] - ys[i - 2]) < 0) turns++;
    assert.ok(turns >= 4, `${turns} turns`);
  });

  it('a step going back (a restarted or resumed run) drops the points from there on, as TensorBoard does', () => {
    const s = new MetricSeries('loss', 'step', 50);
    for (let i = 0; i <= 1000; i++) s.add(i, i);
    s.add(600, -1); // resumed from the checkpoint at 600
    const { xs, ys } = s.points();
    assertIncreasing(xs, 'after the purge');
    assert.ok(xs.every((x) => x <= 600));
    assert.equal(xs[xs.length - 1], 600);
    assert.equal(ys[ys.length - 1], -1);
    assert.equal(Math.max(...xs.slice(0, -1)) < 600, true);
    for (let i = 601; i < 700; i++) s.add(i, i);
    assertIncreasing(s.points().xs, 'going on');
    assert.equal(s.last.x, 699);
  });

  it('time going back (a clock adjusted) is kept at the last x, nothing dropped', () => {
    const s = new MetricSeries('loss', TIME_KEY, 10);
    s.add(1000, 1);
    s.add(2000, 2);
    s.add(1500, 3);
    assert.deepEqual([...s.points().xs], [1000, 2000, 2000]);
    assert.deepEqual([...s.points().ys], [1, 2, 3]);
  });

  it('ignores values or x that are not finite; refuses a cap too small to hold a bucket', () => {
    const s = new MetricSeries('loss', 'step', 10);
    s.add(1, NaN);
    s.add(NaN, 1);
    s.add(2, Infinity);
    assert.equal(s.size, 0);
    assert.equal(s.total, 0);
    assert.ok(Number.isNaN(s.last.x));
    assert.throws(() => new MetricSeries('x', 'step', 5), RangeError);
  });
});

describe('MetricStore: series per metric and x key', () => {
  it('fills series from parsed lines: x from the line, else the time it came', () => {
    const store = new MetricStore();
    const lines = [
      'step=1 loss=2.0 lr=0.1',
      'step=2 loss=1.5 lr=0.1',
      "{'eval_loss': 1.7, 'epoch': 1.0}",
      '1875/1875 [====] - 5s 3ms/step - loss: 0.9 - accuracy: 0.7',
      'step=3 loss=1.2 lr=0.05',
    ];
    lines.forEach((line, i) => store.add(parseMetricLine(line)!, 1_000 + i));
    assert.deepEqual(
      store.series().map((s) => `${s.name}/${s.xKey}:${s.size}`),
      [
        'loss/step:3',
        'lr/step:3',
        'eval_loss/epoch:1',
        'loss/time:1',
        'accuracy/time:1',
        'ms_per_step/time:1',
      ],
    );
    assert.deepEqual([...store.get('loss', 'step')!.points().ys], [2, 1.5, 1.2]);
    assert.deepEqual([...store.get('loss', TIME_KEY)!.points().xs], [1_003]);
    assert.equal(store.get('loss')?.xKey, 'step', 'without a key: the first series of that name');
    assert.equal(store.get('nope'), undefined);
    assert.equal(store.lineCount, 5);
  });

  it('holds at most maxSeries series; values of later names are counted, not kept', () => {
    const store = new MetricStore({ maxSeries: 3, cap: 10 });
    for (let i = 0; i < 100; i++) {
      store.add({ x: i, xKey: 'step', metrics: new Map([[`m${i % 5}`, i]]) }, 0);
    }
    assert.deepEqual(
      store.series().map((s) => s.name),
      ['m0', 'm1', 'm2'],
    );
    assert.equal(store.refusedValues, 40);
    assert.ok(store.series().every((s) => s.size <= 10));
  });
});
