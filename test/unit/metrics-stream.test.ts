/**
 * Metrics as a job log streams: the records the log reader makes (MetricBatcher: one per metric line, by
 * message index, bounded batches), the worker thread sending them with the lines and a follower skipping
 * those of the lines a reconnect replays (the local engine printing metric lines, engine/metricLines.ts),
 * and SeriesSync keeping a chart page's copy equal to the bounded series with appends and replacements.
 */
import * as assert from 'node:assert/strict';
import { isMetricStep, metricValues } from '../../engine/metricLines';
import { SeriesSync } from '../../src/model/charts/seriesSync';
import { MetricSeries, MetricStore } from '../../src/model/metrics';
import {
  addColumns,
  columnRecords,
  columnsAfter,
  columnsTransfer,
  MAX_BATCH_RECORDS,
  MetricBatcher,
  type MetricRecord,
} from '../../src/model/metrics/batch';
import { parseMetricLine } from '../../src/model/metrics/parseLine';
import { FAST_JOBS, submitted, useJobEngine } from '../fixtures/jobs';

describe('MetricBatcher: one record per metric line, by message index, bounded', () => {
  it('keeps only metric lines, with their index, x and values in order', () => {
    const b = new MetricBatcher();
    b.add(1, 'Downloading model.safetensors: 45%|████▌     | 2.1G/4.6G [00:31<00:37, 67.2MB/s]');
    b.add(2, 'step=10 loss=0.5 lr=0.001');
    b.add(3, "plain text\n{'loss': 0.25, 'epoch': 1.5}");
    b.add(4, '2026-11-27 10:14:22,123 INFO Starting');
    assert.equal(b.size, 2);
    const c = b.take();
    assert.ok(c);
    assert.deepEqual(c.names, ['step', 'loss', 'lr', 'epoch'], 'each name once in a batch');
    const r = columnRecords(c);
    assert.deepEqual(
      r.map(({ line, x, xKey, names, values }) => ({ line, x, xKey, names, values })),
      [
        { line: 2, x: 10, xKey: 'step', names: ['loss', 'lr'], values: [0.5, 0.001] },
        { line: 3, x: 1.5, xKey: 'epoch', names: ['loss'], values: [0.25] },
      ],
    );
    assert.ok(r.every((x) => Math.abs(x.time - Date.now()) < 5000));
    assert.equal(b.take(), undefined, 'taken');
  });

  it('says it is full at MAX_BATCH_RECORDS records', () => {
    const b = new MetricBatcher();
    for (let i = 1; i < MAX_BATCH_RECORDS; i++) b.add(i, `step=${i} loss=1`);
    assert.equal(b.full, false);
    b.add(MAX_BATCH_RECORDS, 'step=9999 loss=1');
    assert.equal(b.full, true);
    assert.equal(b.take()?.count, MAX_BATCH_RECORDS);
    assert.equal(b.full, false);
  });

  it('addColumns puts them in a store as store.add puts the parsed lines, refusals counted the same', () => {
    const lines = [
      'step=1 loss=2 acc=0.1',
      "{'loss': 0.5, 'epoch': 1}",
      'loss: 1.5',
      'step=2 loss=1 acc=0.2 grad_norm=3',
      'step=3 loss=0.5 acc=0.3 ppl=9 tok_per_s=100',
    ];
    const b = new MetricBatcher();
    lines.forEach((l, i) => b.add(i + 1, l));
    const batch = b.take();
    assert.ok(batch);
    const viaColumns = new MetricStore({ maxSeries: 5 });
    addColumns(viaColumns, batch);
    const viaPoints = new MetricStore({ maxSeries: 5 });
    lines.forEach((l, i) => viaPoints.add(parseMetricLine(l)!, batch.times[Math.min(i, batch.count - 1)]));
    const shown = (store: MetricStore) =>
      store.series().map((s) => [s.name, s.xKey, [...s.points().xs], [...s.points().ys]]);
    assert.deepEqual(shown(viaColumns), shown(viaPoints));
    assert.deepEqual(shown(viaColumns).slice(0, 2), [
      ['loss', 'step', [1, 2, 3], [2, 1, 0.5]],
      ['acc', 'step', [1, 2, 3], [0.1, 0.2, 0.3]],
    ]);
    assert.equal(viaColumns.lineCount, 5);
    assert.equal(viaColumns.refusedValues, viaPoints.refusedValues);
    assert.equal(viaColumns.refusedValues, 2, 'ppl and tok_per_s: no room for a sixth and seventh series');
  });

  it('columnsAfter drops the records of messages up to a line, keeping the rest whole; the buffers can move', () => {
    const b = new MetricBatcher();
    b.add(3, 'step=3 loss=3');
    b.add(4, 'step=4 loss=4 acc=0.4');
    b.add(6, "step=6 loss=6\n{'loss': 7, 'epoch': 2}");
    const c = b.take();
    assert.ok(c);
    assert.equal(columnsAfter(c, 2), c, 'nothing to drop');
    assert.deepEqual(
      columnRecords(columnsAfter(c, 4)).map(({ line, x, xKey, names, values }) => ({
        line,
        x,
        xKey,
        names,
        values,
      })),
      [
        { line: 6, x: 6, xKey: 'step', names: ['loss'], values: [6] },
        { line: 6, x: 2, xKey: 'epoch', names: ['loss'], values: [7] },
      ],
    );
    assert.equal(columnsAfter(c, 6).count, 0);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(c, columnsTransfer(c));
    assert.equal(c.values.length, 0, 'moved to the other side, not copied');
    port1.close();
    port2.close();
  });
});

describe('Metric records from a job log read in the worker (local engine)', function () {
  this.timeout(20_000); // a job of 62 lines and a reconnect, on a shared machine
  const t = useJobEngine('tp-job-metrics-');
  const LINES = 30;
  const steps = Array.from({ length: LINES }, (_, i) => i + 1).filter(isMetricStep);
  // JOB_FILE runs two commands; each prints LINES output lines.
  const expected = [...steps, ...steps];

  const follow = async (worker: boolean, fault?: number) => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 5, lines: LINES, metrics: 'kv' } });
    const id = await submitted(t.client, t.clusterId, t.folder.path);
    if (fault)
      await t.engine.fault({
        method: 'WS',
        path: `/job/listen/${id}`,
        action: 'terminate',
        afterMessages: fault,
      });
    const records: MetricRecord[] = [];
    const texts: string[] = [];
    const reconnects: number[] = [];
    const outcome = await t.client.jobs.follow(id, {
      worker,
      onMessage: (m) => {
        if (m.status === undefined) texts.push(m.message ?? '');
      },
      onLines: (lines) => texts.push(...lines.split('\n')),
      onMetrics: (c) => records.push(...columnRecords(c)),
      onReconnect: (n) => reconnects.push(n),
      baseDelayMs: 5,
    });
    await t.engine.config({ jobs: { metrics: '' } });
    assert.equal(outcome.kind, 'success');
    return { records, texts, reconnects };
  };

  const assertRecords = (records: readonly MetricRecord[]) => {
    assert.deepEqual(
      records.map((r) => r.x),
      expected,
      'each metric line once, in order',
    );
    for (const r of records) {
      const v = metricValues(r.x ?? NaN);
      assert.deepEqual([r.xKey, r.names, r.values], ['step', ['loss', 'lr', 'acc'], [v.loss, v.lr, v.acc]]);
    }
  };

  it('the worker sends each metric line once, with the values printed', async () => {
    const { records, texts } = await follow(true);
    assertRecords(records);
    assert.equal(texts.length, 2 * (LINES + 1), 'the lines still arrive');
  });

  it('after a dropped stream, the replayed lines bring no second record', async () => {
    const { records, reconnects } = await follow(true, 12);
    assert.deepEqual(reconnects, [1]);
    assertRecords(records);
  });

  it('read on this thread (no worker), the records are the same', async () => {
    const { records } = await follow(false, 12);
    assertRecords(records);
  });
});

describe('SeriesSync: a chart page holds exactly the bounded series', () => {
  it('appends while the kept points only grow, replaces when the series is downsampled or new', () => {
    const s = new MetricSeries('loss', 'step', 40);
    const sync = new SeriesSync();
    assert.deepEqual(sync.snapshot([s]), [
      { id: '0', title: 'loss', xLabel: 'step', time: false, xs: [], ys: [] },
    ]);
    let appends = 0;
    let replaces = 0;
    for (let i = 0; i < 500; i++) {
      s.add(i, Math.sin(i / 7) + (i === 123 ? 50 : 0));
      if (i % 3 !== 0) continue;
      const u = sync.update([s]);
      appends += u?.append.length ?? 0;
      replaces += u?.replace.length ?? 0;
      const { xs, ys } = s.points();
      assert.deepEqual(sync.held()[0].xs, [...xs], `x after point ${i}`);
      assert.deepEqual(sync.held()[0].ys, [...ys], `y after point ${i}`);
    }
    assert.ok(appends > 5, `appends ${appends}`);
    assert.ok(replaces > 0, `replaces ${replaces}`);
    assert.ok(Math.max(...sync.held()[0].ys) > 49, 'the spike is kept');
    sync.update([s]);
    assert.equal(sync.update([s]), undefined, 'nothing new, nothing sent');
    const t = new MetricSeries('acc', 'time', 40);
    t.add(1000, 1);
    const u = sync.update([s, t]);
    assert.deepEqual(
      u?.replace.map((r) => [r.id, r.title, r.time, r.xs]),
      [['1', 'acc', true, [1000]]],
    );
  });
});
