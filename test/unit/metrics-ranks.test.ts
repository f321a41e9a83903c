// Lines of several ranks in one log (torchrun's `[rankN]:` / `[defaultN]:` prefixes): rank 0's metrics keep
// their names, another rank's are kept apart as `rankN/<name>`, by the line parser and by the worker's batches
// alike; the metrics panel shows one rank's series at a time (ofRank), rank 0's first.
import * as assert from 'node:assert/strict';
import { addColumns, MetricBatcher } from '../../src/model/metrics/batch';
import { parseMetricLine, resetMetricReader } from '../../src/model/metrics/parseLine';
import { nameRank, ofRank, ranksOf } from '../../src/model/metrics/ranks';
import { MetricStore } from '../../src/model/metrics/store';

const names = (line: string) => [...(parseMetricLine(line)?.metrics.keys() ?? [])];

describe('metric lines: ranks', () => {
  beforeEach(() => resetMetricReader());

  it("a rank prefix is taken off; rank 0's names stay, another rank's get rankN/", () => {
    assert.deepEqual(names('[rank0]:step 5 | loss 2.5 | lr 1e-4'), ['loss', 'lr']);
    assert.deepEqual(names('[default3]:step 5 | loss 2.5 | lr 1e-4'), ['rank3/loss', 'rank3/lr']);
    assert.deepEqual(names('[default1]:[rank12]: step=5 loss=2.5'), ['rank12/loss']);
    assert.equal(parseMetricLine('[rank2]:step=7 loss=0.5')?.x, 7, 'the x keeps its key and value');
    assert.equal(parseMetricLine('[rank2]:step=7 loss=0.5')?.xKey, 'step');
    // not a rank prefix: read as it is
    assert.deepEqual(names('[rankX]: loss=0.5 acc=0.9'), ['loss', 'acc']);
    assert.equal(parseMetricLine('[rank1] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>'), undefined);
  });

  it("a shape learnt on one rank's line reads another rank's line under that rank", () => {
    for (let i = 1; i <= 3; i++) {
      assert.deepEqual(names(`[rank0]:step=${i} loss=0.${i} acc=0.9`), ['loss', 'acc']);
      assert.deepEqual(names(`[rank1]:step=${i} loss=0.${i} acc=0.9`), ['rank1/loss', 'rank1/acc']);
    }
  });

  it('the batches keep each rank apart; ofRank picks one rank, ranksOf lists them', () => {
    const b = new MetricBatcher();
    for (let i = 1; i <= 4; i++)
      for (const r of [0, 1, 2]) b.add(i, `[rank${r}]:step=${i} loss=${(r + 1) / i} lr=0.001`);
    b.add(5, 'step=5 loss=0.1 lr=0.001'); // no prefix: rank 0
    const store = new MetricStore();
    const c = b.take();
    assert.ok(c);
    addColumns(store, c);
    const all = store.series();
    assert.deepEqual(ranksOf(all), [0, 1, 2]);
    assert.deepEqual(
      ofRank(all, 0).map((s) => [s.name, s.size]),
      [
        ['loss', 5],
        ['lr', 5],
      ],
    );
    assert.deepEqual(
      ofRank(all, 2).map((s) => s.name),
      ['rank2/loss', 'rank2/lr'],
    );
    assert.deepEqual([...store.get('rank1/loss', 'step')!.points().ys], [2, 1, 2 / 3, 0.5]);
    assert.deepEqual(ranksOf([{ name: 'loss' }]), [0], 'rank 0 alone: nothing to choose');
    assert.equal(nameRank('rankings/loss'), 0);
    assert.equal(nameRank('rank10/loss'), 10);
  });
});
