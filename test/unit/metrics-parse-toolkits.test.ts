import * as assert from 'node:assert/strict';
import { parseMetricLine } from '../../src/model/metrics';

function parsed(line: string) {
  const p = parseMetricLine(line);
  return p && { x: p.x, xKey: p.xKey, metrics: Object.entries(Object.fromEntries(p.metrics)) };
}

describe('metric lines: detection and vision toolkits', () => {
  it('mmdetection (mmcv): Epoch [e][i/N] is the epoch and its fraction; eta is no metric', () => {
    const line =
      '2026-11-27 10:14:22,123 - mmdet - INFO - Epoch [1][50/7330]\tlr: 1.000e-02, eta: 1 day, 0:10:00, ' +
      'time: 0.512, data_time: 0.101, memory: 3000, loss_rpn_cls: 0.4, loss_cls: 0.6, acc: 91.2, loss: 1.4';
    assert.deepEqual(parsed(line), {
      x: 1 + 50 / 7330,
      xKey: 'epoch',
      metrics: [
        ['lr', 0.01],
        ['time', 0.512],
        ['data_time', 0.101],
        ['memory', 3000],
        ['loss_rpn_cls', 0.4],
        ['loss_cls', 0.6],
        ['acc', 91.2],
        ['loss', 1.4],
      ],
    });
    assert.deepEqual(
      parsed(
        '2026-11-27 10:14:22,123 - mmdet - INFO - Epoch(val) [1][625]\tbbox_mAP: 0.3740, bbox_mAP_50: 0.5810',
      ),
      {
        x: 1,
        xKey: 'epoch',
        metrics: [
          ['bbox_map', 0.374],
          ['bbox_map_50', 0.581],
        ],
      },
    );
  });

  it('mmengine: Epoch(train) [e][i/N] and Iter(train) [i/N], pairs separated by gaps', () => {
    assert.deepEqual(
      parsed(
        '11/27 10:14:22 - mmengine - INFO - Epoch(train)  [1][  50/7330]  lr: 2.0000e-02  eta: 1 day, 1:05:12  time: 0.9931  data_time: 0.0123  memory: 4012  loss: 1.2345  loss_cls: 0.5432',
      ),
      {
        x: 1 + 50 / 7330,
        xKey: 'epoch',
        metrics: [
          ['lr', 0.02],
          ['time', 0.9931],
          ['data_time', 0.0123],
          ['memory', 4012],
          ['loss', 1.2345],
          ['loss_cls', 0.5432],
        ],
      },
    );
    assert.deepEqual(
      parsed('11/27 10:14:22 - mmengine - INFO - Iter(train) [  50/90000]  lr: 2.0000e-02  loss: 1.2345'),
      {
        x: 50,
        xKey: 'iter',
        metrics: [
          ['lr', 0.02],
          ['loss', 1.2345],
        ],
      },
    );
  });

  it("detectron2: iter as x, a memory size with its unit, the date's 11/27 no counter", () => {
    const line =
      '[11/27 10:14:22 d2.utils.events]:  eta: 0:10:00  iter: 19  total_loss: 1.2  loss_cls: 0.7  loss_box_reg: 0.3  ' +
      'time: 0.5120  data_time: 0.0100  lr: 0.00019  max_mem: 3000M';
    assert.deepEqual(parsed(line), {
      x: 19,
      xKey: 'iter',
      metrics: [
        ['total_loss', 1.2],
        ['loss_cls', 0.7],
        ['loss_box_reg', 0.3],
        ['time', 0.512],
        ['data_time', 0.01],
        ['lr', 0.00019],
        ['max_mem_mb', 3000],
      ],
    });
  });

  it('timm: the epoch before the bracketed counter, a running average in parentheses as a second series', () => {
    const line =
      'Train: 0 [ 100/1251 (  8%)]  Loss: 6.926 (6.93)  Time: 2.345s,  109.16/s  (2.345s,  109.16/s)  LR: 1.000e-04  Data: 1.234 (1.234)';
    assert.deepEqual(parsed(line), {
      x: 100 / 1251,
      xKey: 'epoch',
      metrics: [
        ['loss', 6.926],
        ['loss_avg', 6.93],
        ['time_s', 2.345],
        ['lr', 1e-4],
        ['data', 1.234],
        ['data_avg', 1.234],
      ],
    });
    assert.deepEqual(
      parsed(
        'Test: [ 10/196]  Time: 0.512 (0.600)  Loss:  1.2000 (1.3000)  Acc@1:  70.000 ( 68.500)  Acc@5:  90.000 ( 89.100)',
      ),
      {
        x: undefined,
        xKey: undefined,
        metrics: [
          ['time', 0.512],
          ['time_avg', 0.6],
          ['loss', 1.2],
          ['loss_avg', 1.3],
          ['acc@1', 70],
          ['acc@1_avg', 68.5],
          ['acc@5', 90],
          ['acc@5_avg', 89.1],
        ],
      },
    );
  });

  it('the PyTorch ImageNet example: Epoch: [e][i/N], tab-separated name value (average) columns', () => {
    const line =
      'Epoch: [0][ 100/5005]\tTime  0.512 ( 0.600)\tData  0.010 ( 0.020)\tLoss 6.9e+00 (6.9e+00)\tAcc@1   0.00 (  0.10)\tAcc@5   0.39 (  0.50)';
    assert.deepEqual(parsed(line), {
      x: 100 / 5005,
      xKey: 'epoch',
      metrics: [
        ['time', 0.512],
        ['time_avg', 0.6],
        ['data', 0.01],
        ['data_avg', 0.02],
        ['loss', 6.9],
        ['loss_avg', 6.9],
        ['acc@1', 0],
        ['acc@1_avg', 0.1],
        ['acc@5', 0.39],
        ['acc@5_avg', 0.5],
      ],
    });
    assert.deepEqual(parsed(' * Acc@1 76.130 Acc@5 92.862'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['acc@1', 76.13],
        ['acc@5', 92.862],
      ],
    });
  });

  it('YOLO-style column tables (values named only by a header line) are not guessed at', () => {
    const line =
      '       1/100      3.2G      1.234      2.345      1.456         64        640: 45%|████▌     | 450/1000 [00:12<00:15, 3.62it/s]';
    assert.equal(parsed(line), undefined);
  });
});

describe('metric lines: large-model trainers', () => {
  it('Megatron-LM: multi-word names, the iteration counter, | separators, E notation', () => {
    const line =
      ' iteration      100/    1000 | consumed samples:         1600 | elapsed time per iteration (ms): 512.3 | ' +
      'learning rate: 3.000E-05 | global batch size:    16 | lm loss: 4.520000E+00 | loss scale: 1.0 | ' +
      'grad norm: 1.234 | number of skipped iterations:   0 | number of nan iterations:   0 |';
    assert.deepEqual(parsed(line), {
      x: 100,
      xKey: 'iteration',
      metrics: [
        ['consumed_samples', 1600],
        ['elapsed_time_per_iteration_ms', 512.3],
        ['learning_rate', 3e-5],
        ['global_batch_size', 16],
        ['lm_loss', 4.52],
        ['loss_scale', 1],
        ['grad_norm', 1.234],
        ['number_of_skipped_iterations', 0],
        ['number_of_nan_iterations', 0],
      ],
    });
  });

  it("NeMo: the logger's source location is no metric; global_step beats the epoch", () => {
    const line =
      '[NeMo I 2026-11-27 10:14:22 nemo_logging:349] Epoch 0: : 10%|█ | 100/1000 [01:00<09:00, ' +
      'reduced_train_loss=4.520, global_step=99.00, consumed_samples=1600.0, train_step_timing in s=0.512]';
    assert.deepEqual(parsed(line), {
      x: 99,
      xKey: 'global_step',
      metrics: [
        ['reduced_train_loss', 4.52],
        ['consumed_samples', 1600],
        ['train_step_timing_in_s', 0.512],
        ['epoch', 0],
      ],
    });
  });

  it('fairseq: num_updates is the step; the per-epoch counter and epoch summary lines', () => {
    const inner =
      '2026-11-27 10:14:22 | INFO | train_inner | epoch 001:    100 / 1000 loss=9.5, nll_loss=9.1, ppl=550, ' +
      'wps=12000, ups=3.2, wpb=4000, bsz=128, num_updates=100, lr=1e-05, gnorm=1.2, train_wall=30, wall=35';
    assert.deepEqual(parsed(inner), {
      x: 100,
      xKey: 'num_updates',
      metrics: [
        ['loss', 9.5],
        ['nll_loss', 9.1],
        ['ppl', 550],
        ['wps', 12000],
        ['ups', 3.2],
        ['wpb', 4000],
        ['bsz', 128],
        ['lr', 1e-5],
        ['gnorm', 1.2],
        ['train_wall', 30],
        ['wall', 35],
        ['epoch', 1],
      ],
    });
    const valid =
      "2026-11-27 10:14:22 | INFO | valid | epoch 001 | valid on 'valid' subset | loss 9.5 | nll_loss 9.1 | ppl 550 | num_updates 1000";
    assert.deepEqual(parsed(valid), {
      x: 1000,
      xKey: 'num_updates',
      metrics: [
        ['loss', 9.5],
        ['nll_loss', 9.1],
        ['ppl', 550],
        ['epoch', 1],
      ],
    });
  });

  it('DeepSpeed: one-element lists as values, a step path epoch=0/micro_step=100/global_step=100', () => {
    assert.deepEqual(
      parsed(
        '[2026-11-27 10:14:22,123] [INFO] [logging.py:96:log_dist] [Rank 0] step=100, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]',
      ),
      {
        x: 100,
        xKey: 'step',
        metrics: [
          ['skipped', 0],
          ['lr', 0.0001],
        ],
      },
    );
    const timer =
      '[2026-11-27 10:14:22,123] [INFO] [timer.py:260:stop] epoch=0/micro_step=100/global_step=100, ' +
      'RunningAvgSamplesPerSec=123.4, CurrSamplesPerSec=120.1, MemAllocated=4.5GB, MaxMemAllocated=8.2GB';
    assert.deepEqual(parsed(timer), {
      x: 100,
      xKey: 'global_step',
      metrics: [
        ['micro_step', 100],
        ['runningavgsamplespersec', 123.4],
        ['currsamplespersec', 120.1],
        ['memallocated_gb', 4.5],
        ['maxmemallocated_gb', 8.2],
        ['epoch', 0],
      ],
    });
  });

  it("Hugging Face Trainer's end-of-training summary: one padded name = value per line", () => {
    assert.deepEqual(parsed('  train_loss               =     0.5432'), {
      x: undefined,
      xKey: undefined,
      metrics: [['train_loss', 0.5432]],
    });
    assert.deepEqual(parsed('  train_samples_per_second =    123.456'), {
      x: undefined,
      xKey: undefined,
      metrics: [['train_samples_per_second', 123.456]],
    });
    assert.equal(parsed('  epoch                    =        3.0'), undefined, 'an x alone');
    assert.equal(
      parsed('  train_runtime            = 0:01:23.45'),
      undefined,
      'a duration written as a time',
    );
  });

  it('Weights & Biases style keys keep their / and a train/global_step is the x', () => {
    assert.deepEqual(parsed('train/global_step=400 train/loss=1.25 train/learning_rate=2e-5 ms/step=410'), {
      x: 400,
      xKey: 'train/global_step',
      metrics: [
        ['train/loss', 1.25],
        ['train/learning_rate', 2e-5],
        ['ms/step', 410],
      ],
    });
  });
});
