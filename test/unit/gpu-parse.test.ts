/**
 * The nvidia-smi parsers (src/model/gpu) on the real captures of an H200 and on synthetic lines for
 * what that node could not show: [N/A] and [Not Supported], MIG devices, a node without nvidia-smi,
 * the driver failure, garbage.
 */
import * as assert from 'node:assert/strict';
import {
  APP_QUERY_ARGS,
  GPU_QUERY_ARGS,
  nodeGpuState,
  parseAppsCsv,
  parseGpuCsv,
  parseGpuLine,
  parseList,
  readNumber,
} from '../../src/model/gpu';
import { APPS_QUERY, GPU_QUERY, section } from './gpu-fixtures';

const T = 1_700_000_000_000;
const H100 = 'NVIDIA H100 80GB HBM3';
const uuid = (i: number) => `GPU-1dee2813-87f2-c36e-1389-04021c4f2da${i}`;

describe('GPU telemetry: parsing nvidia-smi', () => {
  it('asks exactly the query the fixtures captured', () => {
    assert.equal(`nvidia-smi ${GPU_QUERY_ARGS.join(' ')}`, `${GPU_QUERY} --format=csv,noheader,nounits`);
    assert.equal(`nvidia-smi ${APP_QUERY_ARGS.join(' ')}`, `${APPS_QUERY} --format=csv,noheader,nounits`);
  });

  it('reads the idle and busy H200 rows (noheader, nounits) into typed figures', () => {
    const idle = parseGpuCsv(
      section('idle-queries.txt', `${GPU_QUERY} --format=csv,noheader,nounits`).output,
      T,
    );
    assert.deepEqual(idle, {
      time: T,
      skipped: 0,
      gpus: [
        {
          index: 0,
          uuid: 'GPU-1dee2813-87f2-c36e-1389-04021c4f2da1',
          name: 'NVIDIA H200',
          utilizationGpu: 0,
          utilizationMemory: 0,
          memoryUsedMiB: 0,
          memoryTotalMiB: 143771,
          temperatureC: 36,
          powerDrawW: 81.1,
          powerLimitW: 700,
        },
      ],
    });
    const busy = parseGpuCsv(
      section('busy-queries.txt', `${GPU_QUERY} --format=csv,noheader,nounits`).output,
      T,
    );
    assert.equal(busy.gpus[0].utilizationGpu, 100);
    assert.equal(busy.gpus[0].utilizationMemory, 23);
    assert.equal(busy.gpus[0].memoryUsedMiB, 20085);
    assert.equal(busy.gpus[0].powerDrawW, 691.82);
  });

  it('reads the csv form with header and units to the same figures', () => {
    const withUnits = parseGpuCsv(section('busy-queries.txt', `${GPU_QUERY} --format=csv`).output, T);
    assert.equal(withUnits.skipped, 0, 'the header is recognised, not counted as garbage');
    assert.equal(withUnits.gpus.length, 1);
    const g = withUnits.gpus[0];
    assert.deepEqual(
      [g.utilizationGpu, g.memoryUsedMiB, g.memoryTotalMiB, g.temperatureC, g.powerDrawW, g.powerLimitW],
      [100, 20085, 143771, 55, 691.99, 700],
    );
  });

  it('reads the compute processes, and none when idle', () => {
    const busy = parseAppsCsv(
      section('busy-queries.txt', `${APPS_QUERY} --format=csv,noheader,nounits`).output,
    );
    assert.deepEqual(busy.processes, [
      {
        gpuUuid: 'GPU-1dee2813-87f2-c36e-1389-04021c4f2da1',
        pid: 495,
        name: 'python3',
        usedMemoryMiB: 20076,
      },
    ]);
    const withHeader = parseAppsCsv(section('busy-queries.txt', `${APPS_QUERY} --format=csv`).output);
    assert.deepEqual(withHeader, busy);
    const idle = parseAppsCsv(section('idle-queries.txt', `${APPS_QUERY} --format=csv`).output);
    assert.deepEqual(idle, { processes: [], skipped: 0 });
  });

  it('keeps a process name that contains commas', () => {
    const { processes } = parseAppsCsv(`${uuid(1)}, 77, /opt/run,v2/train.py, 1024\n`);
    assert.equal(processes[0].name, '/opt/run, v2/train.py');
    assert.equal(processes[0].usedMemoryMiB, 1024);
  });

  it('[N/A] and [Not Supported] are unknown (undefined), never 0', () => {
    const line = `0, ${uuid(1)}, ${H100}, [N/A], [N/A], 512, 81559, 40, [Not Supported], [Not Supported]`;
    const g = parseGpuLine(line)!;
    assert.equal(g.utilizationGpu, undefined);
    assert.equal(g.utilizationMemory, undefined);
    assert.equal(g.powerDrawW, undefined);
    assert.equal(g.powerLimitW, undefined);
    assert.equal(g.memoryUsedMiB, 512);
    assert.equal(readNumber('[Unknown Error]'), undefined);
    assert.equal(readNumber('N/A'), undefined);
    assert.equal(readNumber('81.12 W'), 81.12);
  });

  it('skips garbage lines and counts them, keeping the GPU rows around them', () => {
    const text = [
      'Warning: persistence mode is disabled on device 00000000:18:00.0.',
      `0, ${uuid(1)}, ${H100}, 87, 30, 62000, 81559, 61, 650.00, 700.00`,
      '\u0000\u0007binary junk',
      `x, ${uuid(2)}, ${H100}, 87, 30, 62000, 81559, 61, 650.00, 700.00`,
      `1, ${uuid(2)}, ${H100}, 91, 30, 62000, 81559`,
      `1, not-a-uuid, ${H100}, 91, 30, 62000, 81559, 61, 650.00, 700.00`,
      `1, ${uuid(2)}, ${H100}, 91, 30, 61000, 81559, 60, 640.00, 700.00`,
      '',
    ].join('\n');
    const s = parseGpuCsv(text, T);
    assert.deepEqual(
      s.gpus.map((g) => [g.index, g.utilizationGpu]),
      [
        [0, 87],
        [1, 91],
      ],
    );
    assert.equal(s.skipped, 5);
  });

  it('out-of-range percentages are unknown rather than trusted', () => {
    const g = parseGpuLine(`0, ${uuid(1)}, ${H100}, 140, -3, 1, 81559, 40, 80.00, 700.00`)!;
    assert.equal(g.utilizationGpu, undefined);
    assert.equal(g.utilizationMemory, undefined);
  });

  it('-L: the fixture GPU, and MIG devices under their GPU', () => {
    assert.deepEqual(parseList(section('idle-queries.txt', 'nvidia-smi -L').output), [
      { kind: 'gpu', index: 0, name: 'NVIDIA H200', uuid: 'GPU-1dee2813-87f2-c36e-1389-04021c4f2da1' },
    ]);
    const mig = [
      'GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-5d5ba0d6-d33d-2b2c-524d-9e3d8d2b8a77)',
      '  MIG 1g.10gb     Device  0: (UUID: MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f)',
      '  MIG 3g.40gb     Device  1: (UUID: MIG-cba663e8-9bed-5b7e-a9a5-4e8c5d2a5ce0)',
      'GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-6e6ba0d6-d33d-2b2c-524d-9e3d8d2b8a78)',
      'something else',
    ].join('\n');
    const devices = parseList(mig);
    assert.deepEqual(
      devices.map((d) => [d.kind, d.index, d.name, d.parent]),
      [
        ['gpu', 0, 'NVIDIA A100-SXM4-80GB', undefined],
        ['mig', 0, '1g.10gb', 0],
        ['mig', 1, '3g.40gb', 0],
        ['gpu', 1, 'NVIDIA A100-SXM4-80GB', undefined],
      ],
    );
    assert.equal(devices[1].uuid, 'MIG-c6d4f1ef-42e4-5de3-91c7-45d71c87eb3f');
  });

  it('a MIG-enabled GPU (utilisation [N/A]) is still an ok sample', () => {
    const state = nodeGpuState(
      {
        stdout: `0, ${uuid(1)}, NVIDIA A100-SXM4-80GB, [N/A], [N/A], 3000, 81920, 33, 90.00, 400.00\n`,
        exitCode: 0,
      },
      T,
    );
    assert.equal(state.kind, 'ok');
    if (state.kind === 'ok') assert.equal(state.sample.gpus[0].utilizationGpu, undefined);
  });

  describe('node states', () => {
    it('ok with processes from the busy fixture', () => {
      const state = nodeGpuState(
        {
          stdout: section('busy-queries.txt', `${GPU_QUERY} --format=csv,noheader,nounits`).output,
          exitCode: 0,
        },
        T,
        {
          stdout: section('busy-queries.txt', `${APPS_QUERY} --format=csv,noheader,nounits`).output,
          exitCode: 0,
        },
      );
      assert.equal(state.kind, 'ok');
      if (state.kind === 'ok') {
        assert.equal(state.sample.gpus.length, 1);
        assert.equal(state.processes?.[0].pid, 495);
      }
    });

    it('no nvidia-smi (exit 127, any shell wording) is "no GPUs", not an error', () => {
      for (const stderr of [
        'bash: nvidia-smi: command not found\n',
        'bash: line 1: nvidia-smi: command not found\n',
        'sh: 1: nvidia-smi: not found\n',
        'zsh: command not found: nvidia-smi\n',
        '',
      ])
        assert.deepEqual(nodeGpuState({ stdout: '', stderr, exitCode: 127 }, T), {
          kind: 'no-gpus',
          reason: 'not-installed',
        });
      assert.deepEqual(nodeGpuState({ stdout: '', stderr: 'nvidia-smi: command not found\n' }, T), {
        kind: 'no-gpus',
        reason: 'not-installed',
      });
      assert.deepEqual(nodeGpuState({ stdout: 'No devices were found\n', exitCode: 6 }, T), {
        kind: 'no-gpus',
        reason: 'no-devices',
      });
    });

    it("the driver failure is the node's state, in the tool's words, on stdout or stderr", () => {
      const text =
        "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. " +
        'Make sure that the latest NVIDIA driver is installed and running.\n\n';
      const expected = { kind: 'driver-failure', message: text.trim() };
      assert.deepEqual(nodeGpuState({ stdout: text, exitCode: 9 }, T), expected);
      assert.deepEqual(nodeGpuState({ stdout: '', stderr: text, exitCode: 9 }, T), expected);
    });

    it('another refusal is an error with its first line (the unknown-field fixture)', () => {
      const bogus = section('idle-queries.txt', 'nvidia-smi --query-gpu=bogus.field --format=csv');
      assert.equal(bogus.exit, 2);
      assert.deepEqual(nodeGpuState({ stdout: bogus.output, exitCode: bogus.exit }, T), {
        kind: 'error',
        message: 'Field "bogus.field" is not a valid field to query.',
        exitCode: 2,
      });
      const garbage = nodeGpuState({ stdout: 'garbage\nmore garbage\n', exitCode: 0 }, T);
      assert.equal(garbage.kind, 'error');
    });
  });
});
