/**
 * The node aggregate (`8×H100 · 87% · 61/80 GB`), short model names, the "all idle" rule and
 * staleness (src/model/gpu/aggregate.ts).
 */
import * as assert from 'node:assert/strict';
import {
  aggregate,
  aggregateLabel,
  allIdle,
  freshness,
  parseGpuCsv,
  shortModelName,
  type GpuReading,
} from '../../src/model/gpu';
import { GPU_QUERY, section } from './gpu-fixtures';

const gpu = (index: number, over: Partial<GpuReading> = {}): GpuReading => ({
  index,
  name: 'NVIDIA H100 80GB HBM3',
  utilizationGpu: 0,
  memoryUsedMiB: 0,
  memoryTotalMiB: 81559,
  ...over,
});

describe('GPU telemetry: the node aggregate', () => {
  it('short model names from what nvidia-smi prints', () => {
    const cases: [string, string][] = [
      ['NVIDIA H100 80GB HBM3', 'H100'],
      ['NVIDIA H200', 'H200'],
      ['NVIDIA B200', 'B200'],
      ['NVIDIA B300 SXM6 AC', 'B300'],
      ['NVIDIA L40S', 'L40S'],
      ['NVIDIA A100-SXM4-80GB', 'A100'],
      ['NVIDIA GeForce RTX 4090', 'RTX 4090'],
      ['NVIDIA RTX A6000', 'RTX A6000'],
      ['Tesla T4', 'T4'],
    ];
    for (const [name, short] of cases) assert.equal(shortModelName(name), short, name);
    assert.equal(shortModelName(undefined), undefined);
    assert.equal(shortModelName('NVIDIA'), undefined);
  });

  it('8 busy H100s: mean utilisation, per-GPU mean memory in GB', () => {
    const utils = [80, 90, 85, 95, 88, 84, 86, 88]; // mean 87
    const used = [61, 62, 60, 61, 61, 60, 62, 61].map((gb) => gb * 1024); // mean 61 GiB
    const gpus = utils.map((u, i) => gpu(i, { utilizationGpu: u, memoryUsedMiB: used[i] }));
    assert.equal(aggregateLabel(aggregate(gpus)), '8×H100 · 87% · 61/80 GB');
  });

  it('the idle H200 fixture: one decimal below 10 GB, the total rounded', () => {
    const s = parseGpuCsv(
      section('idle-queries.txt', `${GPU_QUERY} --format=csv,noheader,nounits`).output,
      0,
    );
    assert.equal(aggregateLabel(aggregate(s.gpus)), '1×H200 · 0% · 0/140 GB');
    const busy = parseGpuCsv(
      section('busy-queries.txt', `${GPU_QUERY} --format=csv,noheader,nounits`).output,
      0,
    );
    assert.equal(aggregateLabel(aggregate(busy.gpus)), '1×H200 · 100% · 20/140 GB');
    assert.equal(aggregateLabel(aggregate([gpu(0, { memoryUsedMiB: 410 })])), '1×H100 · 0% · 0.4/80 GB');
  });

  it('unknown utilisation (MIG) shows a dash; unknown memory is left out; mixed models count GPUs', () => {
    assert.equal(
      aggregateLabel(
        aggregate([gpu(0, { utilizationGpu: undefined }), gpu(1, { utilizationGpu: undefined })]),
      ),
      '2×H100 · – · 0/80 GB',
    );
    assert.equal(
      aggregateLabel(aggregate([gpu(0, { memoryUsedMiB: undefined, memoryTotalMiB: undefined })])),
      '1×H100 · 0%',
    );
    assert.equal(
      aggregateLabel(
        aggregate([
          gpu(0, { utilizationGpu: 40 }),
          gpu(1, { name: 'NVIDIA L40S', utilizationGpu: 60, memoryTotalMiB: 46068 }),
        ]),
      ),
      '2 GPUs · 50% · 0/62 GB',
    );
  });

  it('all idle: every GPU reported and under the threshold', () => {
    assert.equal(allIdle([gpu(0, { utilizationGpu: 4 }), gpu(1, { utilizationGpu: 0 })]), true);
    assert.equal(
      allIdle([gpu(0, { utilizationGpu: 4 }), gpu(1, { utilizationGpu: 5 })]),
      false,
      'default 5%',
    );
    assert.equal(allIdle([gpu(0, { utilizationGpu: 9 })], 10), true);
    assert.equal(allIdle([gpu(0, { utilizationGpu: undefined })]), false, 'unknown is not idle');
    assert.equal(allIdle([]), false, 'no GPUs is not idle');
  });

  it('a sample older than 3 intervals is stale and keeps its time', () => {
    const sample = { time: 10_000 };
    assert.deepEqual(freshness(sample, 15_000, 2000), { stale: false, sampleTime: 10_000, ageMs: 5000 });
    assert.deepEqual(freshness(sample, 16_000, 2000), { stale: false, sampleTime: 10_000, ageMs: 6000 });
    assert.deepEqual(freshness(sample, 16_001, 2000), { stale: true, sampleTime: 10_000, ageMs: 6001 });
    assert.equal(freshness(sample, 20_000, 2000, 10).stale, false, 'the factor is a parameter');
    assert.equal(freshness(sample, 9_000, 2000).ageMs, 0, 'a clock that went back is not negative age');
  });
});
