import * as assert from 'node:assert/strict';
import { CSV_HEADER, MetricStore, parseCsv, parseMetricLine, toCsv } from '../../src/model/metrics';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('metrics as CSV (long format, RFC 4180)', () => {
  it('one row per kept point: metric,x_key,x,value, series in order, CRLF line ends', () => {
    const store = new MetricStore();
    for (const line of [
      'step=1 loss=2.5 lr=1e-4',
      'step=2 loss=2.25 lr=1e-4',
      "{'eval_loss': 0.1, 'epoch': 0.5}",
    ]) {
      store.add(parseMetricLine(line)!, 0);
    }
    store.add(parseMetricLine('loss: 0.75')!, 1_764_238_462_123);
    assert.equal(
      toCsv(store),
      'metric,x_key,x,value\r\n' +
        'loss,step,1,2.5\r\n' +
        'loss,step,2,2.25\r\n' +
        'lr,step,1,0.0001\r\n' +
        'lr,step,2,0.0001\r\n' +
        'eval_loss,epoch,0.5,0.1\r\n' +
        'loss,time,1764238462123,0.75\r\n',
    );
  });

  it('an empty store is the header alone', () => {
    assert.equal(toCsv(new MetricStore()), 'metric,x_key,x,value\r\n');
    assert.deepEqual(parseCsv(toCsv(new MetricStore())), [[...CSV_HEADER]]);
  });

  it('names with commas, quotes and line breaks are quoted, quotes doubled', () => {
    const store = new MetricStore();
    const names = ['a,b', 'say "hi"', 'two\nlines', 'cr\rlf', 'plain', ' spaced '];
    names.forEach((name, i) => store.add({ x: i, xKey: 'step', metrics: new Map([[name, i]]) }, 0));
    const csv = toCsv(store);
    assert.ok(csv.includes('\r\n"a,b",step,0,0\r\n'));
    assert.ok(csv.includes('\r\n"say ""hi""",step,1,1\r\n'));
    assert.ok(csv.includes('\r\n"two\nlines",step,2,2\r\n'));
    assert.ok(csv.includes('\r\n"cr\rlf",step,3,3\r\n'));
    assert.ok(csv.includes('\r\nplain,step,4,4\r\n'));
    assert.ok(csv.includes('\r\n spaced ,step,5,5\r\n'), 'spaces are data: no quotes needed');
    assert.deepEqual(
      parseCsv(csv)!
        .slice(1)
        .map((row) => row[0]),
      names,
    );
  });

  it('round trip: every series and point back, numbers exact, after downsampling too', () => {
    const store = new MetricStore({ cap: 200 });
    const next = lcg(4);
    for (let i = 0; i < 20_000; i++) {
      const metrics = new Map([
        ['loss', 3 * Math.exp(-i / 5000) + next() / 10],
        ['lr', 1e-4 * (1 - i / 20_000)],
        ['weird,"name"', -next() * 1e-300],
      ]);
      store.add({ x: i, xKey: 'step', metrics }, 0);
      if (i % 1000 === 0) store.add({ metrics: new Map([['eval loss', next()]]) }, 1_700_000_000_000 + i);
    }
    const rows = parseCsv(toCsv(store))!;
    assert.deepEqual(rows[0], [...CSV_HEADER]);
    const back = new Map<string, { x: number[]; y: number[] }>();
    for (const [metric, xKey, x, value] of rows.slice(1)) {
      const key = `${metric}|${xKey}`;
      if (!back.has(key)) back.set(key, { x: [], y: [] });
      back.get(key)!.x.push(Number(x));
      back.get(key)!.y.push(Number(value));
    }
    assert.equal(back.size, store.series().length);
    for (const series of store.series()) {
      const { xs, ys } = series.points();
      const got = back.get(`${series.name}|${series.xKey}`);
      assert.ok(got, series.name);
      assert.deepEqual(got.x, [...xs], series.name);
      assert.deepEqual(got.y, [...ys], series.name);
      assert.ok(xs.length <= 200);
    }
  });

  it('parseCsv reads LF line ends, a missing last line end, empty fields; refuses broken quoting', () => {
    assert.deepEqual(parseCsv('a,b\n1,\n"x""y",3'), [
      ['a', 'b'],
      ['1', ''],
      ['x"y', '3'],
    ]);
    assert.equal(parseCsv('a,"b\n1,2'), undefined, 'an unterminated quote');
    assert.equal(parseCsv('a,b"c\n'), undefined, 'a quote inside an unquoted field');
    assert.equal(parseCsv('"a"b\n'), undefined, 'text after a closing quote');
  });
});
