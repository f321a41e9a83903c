// The GPU monitor's series (src/model/gpu/monitorSeries.ts): the 15-minute window, appends against
// replacements, gaps.
import * as assert from 'node:assert/strict';
import { MonitorSeries } from '../../src/model/gpu/monitorSeries';

describe('GPU monitor series', () => {
  const title = (t: string) => () => t;

  it('keeps the last window of points and sends only what the page lacks', () => {
    const m = new MonitorSeries(10_000, 'time');
    m.add('a', title('A'), 0, 1, false);
    assert.deepEqual(
      m.snapshot().map((s) => [s.id, s.title, s.xLabel, s.time, s.xs, s.ys]),
      [['a', 'A', 'time', true, [0], [1]]],
    );
    m.add('a', title('A'), 5_000, 2, false);
    m.add('b', title('B'), 5_000, 3, false);
    const u = m.update();
    assert.deepEqual(u.append, [{ id: 'a', xs: [5_000], ys: [2] }], 'the page has a: only its new point');
    assert.deepEqual(
      u.replace.map((s) => [s.id, s.xs]),
      [['b', [5_000]]],
      'b is new to the page: in full',
    );
    assert.deepEqual(m.update(), { append: [], replace: [] }, 'nothing new');
    m.add('a', title('A'), 12_000, 4, false);
    const a = m.stats().find((s) => s.id === 'a');
    assert.equal(a?.points, 2, 'the point at 0 left the 10 s window; 5 000 and 12 000 stay');
  });

  it('a gap is a NaN point just before the sample, counted in the stats', () => {
    const m = new MonitorSeries(60_000, 'time');
    m.add('a', title('A'), 1000, 1, false);
    m.snapshot();
    m.add('a', title('A'), 9000, 2, true);
    const [append] = m.update().append;
    assert.deepEqual(append.xs, [8999, 9000]);
    assert.ok(Number.isNaN(append.ys[0]));
    assert.deepEqual(m.stats(), [{ id: 'a', points: 3, gaps: 1 }]);
  });

  it('a snapshot drops what was pending: the page gets it in the snapshot', () => {
    const m = new MonitorSeries(60_000, 'time');
    m.add('a', title('A'), 1000, 1, false);
    m.add('a', title('A'), 2000, 2, false);
    assert.deepEqual(m.snapshot()[0].xs, [1000, 2000]);
    assert.deepEqual(m.update(), { append: [], replace: [] });
  });
});
