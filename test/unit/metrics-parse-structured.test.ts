import * as assert from 'node:assert/strict';
import { parseMetricLine } from '../../src/model/metrics';

/** The parse of `line` as plain data: x, its key and the metrics in the line's order. */
function parsed(line: string) {
  const p = parseMetricLine(line);
  return p && { x: p.x, xKey: p.xKey, metrics: Object.entries(Object.fromEntries(p.metrics)) };
}

describe('metric lines: JSON objects and Python dict reprs', () => {
  it('a JSON object per line, the step as x', () => {
    assert.deepEqual(
      parsed('{"step": 1200, "train/loss": 2.314, "train/lr": 0.0003, "tokens_per_sec": 152340.5}'),
      {
        x: 1200,
        xKey: 'step',
        metrics: [
          ['train/loss', 2.314],
          ['train/lr', 0.0003],
          ['tokens_per_sec', 152340.5],
        ],
      },
    );
  });

  it('a JSON object after a logger prefix, nested objects joined with /', () => {
    assert.deepEqual(
      parsed('[2026-11-27 10:14:22,123][train][INFO] - {"epoch": 3, "val": {"loss": 0.41, "acc": 0.88}}'),
      {
        x: 3,
        xKey: 'epoch',
        metrics: [
          ['val/loss', 0.41],
          ['val/acc', 0.88],
        ],
      },
    );
    assert.deepEqual(parsed('2026-11-27 10:14:22 INFO {"loss": 0.5, "acc": 0.9, "step": 10}'), {
      x: 10,
      xKey: 'step',
      metrics: [
        ['loss', 0.5],
        ['acc', 0.9],
      ],
    });
  });

  it("Hugging Face Trainer's dict repr: the epoch as x, every other number a metric", () => {
    assert.deepEqual(parsed("{'loss': 0.4821, 'grad_norm': 1.9, 'learning_rate': 4.9e-05, 'epoch': 0.12}"), {
      x: 0.12,
      xKey: 'epoch',
      metrics: [
        ['loss', 0.4821],
        ['grad_norm', 1.9],
        ['learning_rate', 4.9e-5],
      ],
    });
    assert.deepEqual(
      parsed(
        "{'eval_loss': 0.3012, 'eval_runtime': 12.5, 'eval_samples_per_second': 80.0, 'eval_steps_per_second': 10.0, 'epoch': 1.0}",
      ),
      {
        x: 1,
        xKey: 'epoch',
        metrics: [
          ['eval_loss', 0.3012],
          ['eval_runtime', 12.5],
          ['eval_samples_per_second', 80],
          ['eval_steps_per_second', 10],
        ],
      },
    );
    // TRL's DPO trainer: names with /, negative values
    assert.deepEqual(
      parsed("{'rewards/chosen': -0.52, 'logps/chosen': -301.2, 'loss': 0.6931, 'epoch': 0.05}"),
      {
        x: 0.05,
        xKey: 'epoch',
        metrics: [
          ['rewards/chosen', -0.52],
          ['logps/chosen', -301.2],
          ['loss', 0.6931],
        ],
      },
    );
  });

  it('numbers wrapped by numpy or torch count as their number', () => {
    assert.deepEqual(parsed("{'loss': np.float64(0.3), 'grad_norm': np.float32(1.25), 'epoch': 1.0}"), {
      x: 1,
      xKey: 'epoch',
      metrics: [
        ['loss', 0.3],
        ['grad_norm', 1.25],
      ],
    });
    assert.deepEqual(
      parsed("{'loss': tensor(2.3104, device='cuda:0', grad_fn=<NllLossBackward0>), 'step': 3}"),
      {
        x: 3,
        xKey: 'step',
        metrics: [['loss', 2.3104]],
      },
    );
  });

  it('nan and inf are recognised but kept out (a series holds finite numbers only)', () => {
    assert.deepEqual(parsed("{'loss': nan, 'grad_norm': inf, 'lr': 1e-05, 'epoch': 0.5}"), {
      x: 0.5,
      xKey: 'epoch',
      metrics: [['lr', 1e-5]],
    });
    assert.deepEqual(parsed('{"loss": -Infinity, "acc": 0.5, "step": 8}'), {
      x: 8,
      xKey: 'step',
      metrics: [['acc', 0.5]],
    });
    // nothing finite left: no point
    assert.equal(parsed('{"loss": NaN, "grad_norm": Infinity, "step": 7}'), undefined);
  });

  it('an x written before the object counts (`Epoch 3: {...}`)', () => {
    assert.deepEqual(parsed("Epoch 3: {'val_loss': 0.21, 'val_acc': 0.93}"), {
      x: 3,
      xKey: 'epoch',
      metrics: [
        ['val_loss', 0.21],
        ['val_acc', 0.93],
      ],
    });
    assert.deepEqual(parsed("step 40 {'loss': 1.5}"), { x: 40, xKey: 'step', metrics: [['loss', 1.5]] });
  });

  it('bare keys (a JavaScript literal) and a trailing comma', () => {
    assert.deepEqual(parsed('{loss: 0.5, acc: 0.75, step: 10,}'), {
      x: 10,
      xKey: 'step',
      metrics: [
        ['loss', 0.5],
        ['acc', 0.75],
      ],
    });
  });

  it('a metric dict with one text value (mmengine JSON logs) is still metrics; a config dict is not', () => {
    assert.deepEqual(
      parsed('{"mode": "train", "epoch": 1, "iter": 50, "lr": 0.02, "loss": 1.1, "time": 0.5}'),
      {
        x: 50,
        xKey: 'iter',
        metrics: [
          ['lr', 0.02],
          ['loss', 1.1],
          ['time', 0.5],
          ['epoch', 1],
        ],
      },
    );
    assert.equal(
      parsed("{'model_type': 'llama', 'hidden_size': 4096, 'num_layers': 32, 'vocab': 'x'}"),
      undefined,
    );
    assert.equal(
      parsed("{'use_cache': True, 'torch_dtype': 'bfloat16', 'hidden_size': 4096, 'rope': None}"),
      undefined,
    );
  });

  it('an object with one number needs a metric-like name or an x', () => {
    assert.deepEqual(parsed('{"loss": 0.25}'), { x: undefined, xKey: undefined, metrics: [['loss', 0.25]] });
    assert.equal(parsed('{"hidden_size": 4096}'), undefined);
    assert.equal(parsed('{"epoch": 3}'), undefined, 'an x alone is no metric');
    assert.deepEqual(parsed('{"step": 3, "anything": 7}'), {
      x: 3,
      xKey: 'step',
      metrics: [['anything', 7]],
    });
  });

  it('braces that are no object fall through to the other styles', () => {
    assert.deepEqual(parsed('Saving {checkpoint} ... loss=0.5 acc=0.9'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['loss', 0.5],
        ['acc', 0.9],
      ],
    });
    assert.equal(parsed('def f(x): return {x: 1 for x in y}'), undefined);
    // an object cut off (a line longer than MAX_LINE, a partial write): its pairs still read
    assert.deepEqual(parsed('{"loss": 0.5, "acc": 0.7'), {
      x: undefined,
      xKey: undefined,
      metrics: [
        ['loss', 0.5],
        ['acc', 0.7],
      ],
    });
  });

  it('keys that would read as spreadsheet formulas make no name', () => {
    assert.deepEqual(parsed('{"=HYPERLINK(1)": 5, "+cmd": 2, "loss": 0.5, "step": 1}'), {
      x: 1,
      xKey: 'step',
      metrics: [['loss', 0.5]],
    });
  });
});
