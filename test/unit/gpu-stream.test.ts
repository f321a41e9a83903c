/**
 * The `-lms` stream splitter (src/model/gpu/smiStream.ts): one sample per block of GPU lines, from the
 * real H200 stream and from synthetic 8-GPU streams cut at awkward places.
 */
import * as assert from 'node:assert/strict';
import { SmiStreamSplitter, type StreamEvent } from '../../src/model/gpu';
import { section } from './gpu-fixtures';

const H100 = 'NVIDIA H100 80GB HBM3';
const row = (i: number, util: number) =>
  `${i}, GPU-00000000-0000-0000-0000-00000000000${i}, ${H100}, ${util}, 10, 1000, 81559, 40, 100.00, 700.00`;
const block = (n: number, util: number) => Array.from({ length: n }, (_, i) => `${row(i, util)}\n`).join('');
const samples = (events: StreamEvent[]) =>
  events.flatMap((e) => (e.kind === 'sample' ? [e.sample.gpus.map((g) => g.utilizationGpu)] : []));

describe('GPU telemetry: the -lms stream splitter', () => {
  let clock = 0;
  const now = () => ++clock;

  it('the real single-GPU stream gives one sample per line', () => {
    const text = section(
      'busy-queries.txt',
      'nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms 500 (3 s)',
    ).output;
    const s = new SmiStreamSplitter({ gpuCount: 1, now });
    const events = s.push(text);
    assert.equal(samples(events).length, 5, 'the last line has no newline yet');
    events.push(...s.end());
    assert.deepEqual(samples(events), [[100], [100], [100], [99], [99], [100]]);
  });

  it('with a known count, a block is emitted at its last GPU line, even split mid-line', () => {
    const s = new SmiStreamSplitter({ gpuCount: 8, now });
    const text = block(8, 50) + block(8, 60);
    const events: StreamEvent[] = [];
    for (let i = 0; i < text.length; i += 37) events.push(...s.push(text.slice(i, i + 37)));
    assert.deepEqual(samples(events), [Array(8).fill(50), Array(8).fill(60)]);
    assert.deepEqual(s.end(), []);
  });

  it('without a count, a block ends when the index goes back, and the count is learnt', () => {
    const s = new SmiStreamSplitter({ now });
    const first = s.push(block(4, 10));
    assert.deepEqual(first, [], 'the first block is not known to be complete yet');
    const second = s.push(row(0, 20) + '\n');
    assert.deepEqual(samples(second), [[10, 10, 10, 10]]);
    assert.equal(s.count, 4);
    assert.deepEqual(samples(s.push(`${row(1, 20)}\n${row(2, 20)}\n${row(3, 20)}\r\n`)), [[20, 20, 20, 20]]);
  });

  it('garbage lines are skipped and counted in their sample; a missing GPU ends its block early', () => {
    const s = new SmiStreamSplitter({ gpuCount: 2, now });
    const events = s.push(
      `${row(0, 1)}\nnot a row\n${row(1, 2)}\n${row(0, 3)}\n${row(0, 4)}\n${row(1, 5)}\n`,
    );
    const got = events.flatMap((e) => (e.kind === 'sample' ? [e.sample] : []));
    assert.deepEqual(
      got.map((x) => [x.gpus.map((g) => g.utilizationGpu), x.skipped]),
      [
        [[1, 2], 1],
        [[3], 0],
        [[4, 5], 0],
      ],
    );
  });

  it('stamps each sample with the time its last line arrived', () => {
    let t = 1000;
    const s = new SmiStreamSplitter({ gpuCount: 1, now: () => t });
    const a = s.push(`${row(0, 1)}\n`);
    t = 1500;
    const b = s.push(`${row(0, 2)}\n`);
    assert.deepEqual(
      [...a, ...b].map((e) => (e.kind === 'sample' ? e.sample.time : -1)),
      [1000, 1500],
    );
  });

  it('the driver failure mid-stream is an event after the samples before it', () => {
    const s = new SmiStreamSplitter({ now });
    const events = s.push(
      `${row(0, 7)}\n${row(1, 7)}\n` +
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n",
    );
    assert.deepEqual(
      events.map((e) => e.kind),
      ['sample', 'driver-failure'],
    );
    assert.deepEqual(samples(events), [[7, 7]]);
  });

  it('end() flushes a last line without newline and an unfinished block', () => {
    const s = new SmiStreamSplitter({ gpuCount: 3, now });
    assert.deepEqual(s.push(`${row(0, 9)}\n${row(1, 9)}`), []);
    assert.deepEqual(samples(s.end()), [[9, 9]]);
  });

  it('an endless line without newline is dropped instead of growing without bound', () => {
    const s = new SmiStreamSplitter({ gpuCount: 1, now, maxLineChars: 100 });
    s.push('x'.repeat(150));
    const events = s.push(`\n${row(0, 3)}\n`);
    const got = events.flatMap((e) => (e.kind === 'sample' ? [e.sample] : []));
    assert.equal(got.length, 1);
    assert.equal(got[0].gpus[0].utilizationGpu, 3);
    assert.equal(got[0].skipped, 1);
  });
});
