import * as assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { BoundedText } from '../../src/model/boundedText';

describe('BoundedText: the newest text under a cap', () => {
  it('keeps the newest chunks in order and tells which ones it dropped, oldest first', () => {
    const dropped: string[] = [];
    const t = new BoundedText(10, (c) => dropped.push(c));
    for (const c of ['aaaa', 'bbbb', 'cccc', 'dd']) t.push(c);
    assert.equal(t.text(), 'bbbbccccdd');
    assert.equal(t.size, 10);
    assert.deepEqual(dropped, ['aaaa']);
  });

  it('a chunk larger than the cap stays on its own (the newest is never dropped)', () => {
    const t = new BoundedText(4);
    t.push('ab');
    t.push('cdefgh');
    assert.equal(t.text(), 'cdefgh');
    assert.equal(t.isEmpty, false);
    t.clear();
    assert.equal(t.isEmpty, true);
    assert.equal(t.text(), '');
  });

  it('order survives the compactions of a long stream', () => {
    const t = new BoundedText(50 * 8);
    for (let i = 0; i < 20_000; i++) t.push(`${String(i).padStart(7, '0')}\n`);
    const lines = t.text().trim().split('\n').map(Number);
    assert.equal(lines.length, 50);
    assert.deepEqual(
      lines,
      Array.from({ length: 50 }, (_, k) => 19_950 + k),
    );
  });

  it('a push costs the same when full: 200,000 lines through a 1 MB cap in well under a second', () => {
    // Array.shift() per dropped line took seconds here (the whole array copied on every push).
    const t = new BoundedText(1_000_000);
    const line = '[job_0123456789ab] python bench.py: line 100000 of 100000\r\n';
    const started = performance.now();
    for (let i = 0; i < 200_000; i++) t.push(line);
    const ms = performance.now() - started;
    assert.ok(t.size <= 1_000_000);
    assert.ok(ms < 1000, `200,000 pushes took ${ms.toFixed(0)} ms`);
  });
});
