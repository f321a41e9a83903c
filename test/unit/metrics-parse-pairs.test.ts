import * as assert from 'node:assert/strict';
import { parseMetricLine } from '../../src/model/metrics';

function parsed(line: string) {
  const p = parseMetricLine(line);
  return p && { x: p.x, xKey: p.xKey, metrics: Object.entries(Object.fromEntries(p.metrics)) };
}

describe('metric lines: key=value, key: value and key value pairs', () => {
  it('key=value separated by spaces; the finest x wins and a coarser one stays a metric', () => {
    assert.deepEqual(parsed('epoch=3 step=1200 train_loss=0.2314 val_loss=0.3011 lr=3e-4'), {
      x: 1200,
      xKey: 'step',
      metrics: [
        ['train_loss', 0.2314],
        ['val_loss', 0.3011],
        ['lr', 3e-4],
        ['epoch', 3],
      ],
    });
  });

  it('key: value separated by | (and a rate unit joined to its name)', () => {
    assert.deepEqual(
      parsed('step: 1200 | loss: 2.3140 | lr: 3.00e-04 | grad_norm: 0.98 | throughput: 152340/s'),
      {
        x: 1200,
        xKey: 'step',
        metrics: [
          ['loss', 2.314],
          ['lr', 3e-4],
          ['grad_norm', 0.98],
          ['throughput_per_s', 152340],
        ],
      },
    );
  });

  it('pairs separated by commas, with spaces around = and a logger prefix', () => {
    assert.deepEqual(
      parsed('2026-11-27 10:14:22 - INFO - __main__ - epoch 2, step 300: loss = 0.4321, acc = 0.8765'),
      {
        x: 300,
        xKey: 'step',
        metrics: [
          ['loss', 0.4321],
          ['acc', 0.8765],
          ['epoch', 2],
        ],
      },
    );
    assert.deepEqual(parsed('[step 1200] loss=2.314, ppl=10.11, lr=0.0003'), {
      x: 1200,
      xKey: 'step',
      metrics: [
        ['loss', 2.314],
        ['ppl', 10.11],
        ['lr', 0.0003],
      ],
    });
  });

  it('a step counter n/N gives the step', () => {
    assert.deepEqual(parsed('Step 1200/10000: loss=2.3140 lr=0.0003'), {
      x: 1200,
      xKey: 'step',
      metrics: [
        ['loss', 2.314],
        ['lr', 0.0003],
      ],
    });
  });

  it('a step counted within an epoch (it starts again each epoch) becomes the epoch and its fraction', () => {
    // the PyTorch tutorials' style
    assert.deepEqual(parsed('Epoch [3/10], Step [100/600], Loss: 0.2314'), {
      x: 3 + 100 / 600,
      xKey: 'epoch',
      metrics: [['loss', 0.2314]],
    });
  });

  it('Python logging prefixes (level:logger:) are no part of a name', () => {
    assert.deepEqual(parsed('INFO:__main__:Step 50 - loss: 0.1234 - accuracy: 0.9500'), {
      x: 50,
      xKey: 'step',
      metrics: [
        ['loss', 0.1234],
        ['accuracy', 0.95],
      ],
    });
    assert.deepEqual(parsed('2026-11-27 10:14:22,123 INFO train loss: 0.5 val loss: 0.6'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['train_loss', 0.5],
        ['val_loss', 0.6],
      ],
    });
  });

  it('name value pairs as whole segments or chains (nanoGPT, fairseq, PyTorch examples)', () => {
    assert.deepEqual(parsed('iter 100: loss 4.2345, time 12.34ms, mfu 35.2%'), {
      x: 100,
      xKey: 'iter',
      metrics: [
        ['loss', 4.2345],
        ['time_ms', 12.34],
        ['mfu_pct', 35.2],
      ],
    });
    assert.deepEqual(parsed('step 500: train loss 4.1234, val loss 4.2345'), {
      x: 500,
      xKey: 'step',
      metrics: [
        ['train_loss', 4.1234],
        ['val_loss', 4.2345],
      ],
    });
    assert.deepEqual(parsed('step 5 loss 0.3 lr 0.001'), {
      x: 5,
      xKey: 'step',
      metrics: [
        ['loss', 0.3],
        ['lr', 0.001],
      ],
    });
    assert.deepEqual(parsed('epoch 3, iter 100, loss 0.5, acc 0.9'), {
      x: 100,
      xKey: 'iter',
      metrics: [
        ['loss', 0.5],
        ['acc', 0.9],
        ['epoch', 3],
      ],
    });
    // word_language_model: columns padded inside | segments, batches counted within the epoch
    assert.deepEqual(
      parsed('| epoch   3 |   200/ 2983 batches | lr 5.00 | ms/batch 45.67 | loss  5.12 | ppl   167.34'),
      {
        x: 3 + 200 / 2983,
        xKey: 'epoch',
        metrics: [
          ['lr', 5],
          ['ms/batch', 45.67],
          ['loss', 5.12],
          ['ppl', 167.34],
        ],
      },
    );
  });

  it('wrapped values after = and colour codes in the line', () => {
    assert.deepEqual(parsed('loss=tensor(0.3000) acc=0.5'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['loss', 0.3],
        ['acc', 0.5],
      ],
    });
    assert.deepEqual(parsed('\x1b[32m2026-11-27 10:14:22\x1b[0m | \x1b[1mINFO\x1b[0m | loss=0.5 acc=0.9'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['loss', 0.5],
        ['acc', 0.9],
      ],
    });
  });
});

describe('metric lines: Keras', () => {
  it('the end-of-epoch line: metrics after " - ", ms/step as a rate, no x (the counter restarts each epoch)', () => {
    assert.deepEqual(
      parsed(
        '1875/1875 [==============================] - 5s 3ms/step - loss: 0.2310 - accuracy: 0.9312 - val_loss: 0.1200 - val_accuracy: 0.9645',
      ),
      {
        x: undefined,
        xKey: undefined,
        metrics: [
          ['loss', 0.231],
          ['accuracy', 0.9312],
          ['val_loss', 0.12],
          ['val_accuracy', 0.9645],
          ['ms_per_step', 3],
        ],
      },
    );
  });

  it('Keras 3 bars, and a bar redrawn with \\r: the last redraw, without its ETA', () => {
    assert.deepEqual(parsed('1875/1875 ━━━━━━━━━━━━━━━━━━━━ 5s 3ms/step - accuracy: 0.9312 - loss: 0.2310'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['accuracy', 0.9312],
        ['loss', 0.231],
        ['ms_per_step', 3],
      ],
    });
    const redrawn =
      '\r   1/1875 [..............................] - ETA: 5:12 - loss: 2.3026 - accuracy: 0.0938' +
      '\r  50/1875 [>.............................] - ETA: 3s - loss: 1.2000 - accuracy: 0.6100\r';
    assert.deepEqual(parsed(redrawn), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['loss', 1.2],
        ['accuracy', 0.61],
      ],
    });
    assert.equal(parsed('Epoch 1/5'), undefined, 'the epoch header alone has no metric');
  });
});

describe('metric lines: tqdm postfixes and PyTorch Lightning bars', () => {
  it('a bar with a postfix: its metrics, it/s, and the count as the step', () => {
    assert.deepEqual(parsed(' 45%|████▌     | 450/1000 [00:12<00:15, 36.2it/s, loss=0.123, lr=1e-4]'), {
      x: 450,
      xKey: 'step',
      metrics: [
        ['loss', 0.123],
        ['lr', 1e-4],
        ['it_per_s', 36.2],
      ],
    });
    assert.deepEqual(
      parsed('Training:  12%|█▏        | 1200/10000 [05:02<36:55,  3.97it/s, loss=2.31, grad_norm=0.98]'),
      {
        x: 1200,
        xKey: 'step',
        metrics: [
          ['loss', 2.31],
          ['grad_norm', 0.98],
          ['it_per_s', 3.97],
        ],
      },
    );
    assert.deepEqual(parsed('  8%|▊         | 80/1000 [00:40<07:40,  2.00s/it, loss=1.5]'), {
      x: 80,
      xKey: 'step',
      metrics: [
        ['loss', 1.5],
        ['s_per_it', 2],
      ],
    });
  });

  it("Lightning's bar: the epoch plus the fraction done as x; v_num is no metric", () => {
    assert.deepEqual(
      parsed('Epoch 1:  45%|████▌     | 450/1000 [00:12<00:15, 36.2it/s, loss=0.123, lr=1e-4]'),
      {
        x: 1.45,
        xKey: 'epoch',
        metrics: [
          ['loss', 0.123],
          ['lr', 1e-4],
          ['it_per_s', 36.2],
        ],
      },
    );
    assert.deepEqual(
      parsed(
        'Epoch 2: 100%|██████████| 1000/1000 [00:31<00:00, 31.9it/s, v_num=3, train_loss_step=0.101, val_loss=0.205, val_acc=0.943]',
      ),
      {
        x: 3,
        xKey: 'epoch',
        metrics: [
          ['train_loss_step', 0.101],
          ['val_loss', 0.205],
          ['val_acc', 0.943],
          ['it_per_s', 31.9],
        ],
      },
    );
  });

  it('bars without a postfix, and a postfix whose only metric is nan, give no metric of their own', () => {
    assert.equal(parsed('100%|██████████| 500/500 [01:02<00:00,  8.01it/s]'), undefined);
    assert.equal(
      parsed('Validation DataLoader 0:  40%|████      | 40/100 [00:02<00:03, 17.21it/s]'),
      undefined,
    );
    assert.equal(
      parsed('Loading checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.25s/it]'),
      undefined,
    );
    // the rate of a bar whose loss is nan: the line is a metric line, only the rate is a finite number
    assert.deepEqual(parsed('  5%|▌         | 50/1000 [00:10<03:10,  4.98it/s, loss=nan]'), {
      x: 50,
      xKey: 'step',
      metrics: [['it_per_s', 4.98]],
    });
  });
});
