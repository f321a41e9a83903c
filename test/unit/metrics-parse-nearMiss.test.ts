import * as assert from 'node:assert/strict';
import { parseMetricLine } from '../../src/model/metrics';
import * as C from '../../src/model/metrics/collect';
import { readPairs } from '../../src/model/metrics/pairs';
import { mayHoldMetrics } from '../../src/model/metrics/precheck';

/** Lines that look like they hold numbers under names, and hold no metric. */
const NEAR_MISSES: Record<string, string[]> = {
  timestamps: [
    '2026-11-27 10:14:22,123 INFO Starting training',
    '10:14:22',
    '[2026-11-27T10:14:22.123Z] worker 3 ready',
    'Elapsed: 01:02:03',
    'Time: 10:14:22 (UTC+01:00)',
  ],
  'log levels without metrics': [
    'INFO: Started server process [12345]',
    'WARNING: 2 GPUs found, using 1',
    '2026-11-27 10:14:22,123 - INFO - Loading dataset from /data/train (split 1 of 4)',
    'ERROR: exit code 137',
    '[rank0]:[W1127 10:14:22.123456 ProcessGroupNCCL.cpp:4115] Warning: 8 threads',
  ],
  sizes: [
    'Downloading model.safetensors: 100%|██████████| 4.98G/4.98G [00:30<00:00, 166MB/s]',
    'Model size: 4.98GB',
    'Total params: 11,689,512',
    'Trainable params: 11,689,512  Non-trainable params: 0',
    'Estimated Total Size (MB): 1024.50',
    '|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |',
    '| N/A   34C    P0             60W /  700W |    1024MiB /  81559MiB |      0%      Default |',
  ],
  'version numbers': [
    'torch==2.1.0',
    'CUDA Version: 12.2',
    'Python 3.11.4',
    '| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |',
    'NCCL version 2.18.1+cuda12.1',
    'transformers version: 4.46.0, torch version: 2.5.1',
    'Using pytorch_lightning v2.1.0',
  ],
  'IP addresses and ports': [
    'Connecting to 10.0.0.1:29500',
    'MASTER_ADDR=10.0.0.1 MASTER_PORT=29500',
    'Running on local URL:  http://127.0.0.1:7860',
    'NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>',
    'Listening on [::]:8888',
  ],
  'install and download output': [
    'Collecting numpy==1.26',
    'Requirement already satisfied: numpy>=1.17 in /usr/lib/python3/dist-packages (from torch) (1.26.0)',
    '  Downloading numpy-1.26.0-cp311-cp311-manylinux_2_17_x86_64.whl (18.2 MB)',
    '     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 18.2/18.2 MB 45.3 MB/s eta 0:00:00',
    'Successfully installed numpy-1.26.0 torch-2.1.0',
    'Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]',
    'Fetched 8,787 kB in 2s (4,393 kB/s)',
    '0 upgraded, 5 newly installed, 0 to remove and 12 not upgraded.',
    'Need to get 45.2 MB of archives.',
    'Unpacking libfoo1:amd64 (1.2-3) ...',
    '100  4523  100  4523    0     0  12345      0 --:--:-- --:--:-- --:--:-- 12345',
  ],
  "progress bars' own percentages and counts": [
    '100%|██████████| 500/500 [01:02<00:00,  8.01it/s]',
    'Map: 100%|██████████| 1000/1000 [00:00<00:00, 5000.00 examples/s]',
    'Loading checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.25s/it]',
    'Progress: 45%',
    'Epoch 3/10',
    '1875/1875 [==============================] - 5s 3ms/step',
  ],
  URLs: [
    'See https://example.com/runs/12/step=500?loss=0.5 for details',
    'wandb: 🚀 View run at https://wandb.ai/team/proj/runs/a1b2c3d4',
  ],
  'file paths with digits': [
    'Saving checkpoint to /data/run_12/ckpt-500.pt',
    'Saving model checkpoint to ./output/checkpoint-1000',
    "Epoch 0, global step 500: 'val_loss' reached 0.12345 (best 0.12345), saving model to '/ckpt/epoch=0-step=500.ckpt' as top 1",
    'Loaded 50000 images from C:\\data\\set2\\train',
  ],
  'hex ids': [
    'job_0123456789ab started on node 3fa2b1c9',
    'commit 4f2a9c1e0b7d',
    'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'Pointer 0x7ffd5e8c',
  ],
  dates: [
    '11/27/2026',
    'Date: 2026-11-27',
    'Nov 27 10:14:22 node-3 kernel: [12345.678901] eth0: link up',
    'year=2026 day=27',
  ],
  'prose and settings': [
    'Found 8 GPUs on node 3',
    'Downloading 3 files',
    'Epoch 3 of 10',
    'rank 0',
    'world size 8',
    "Namespace(batch_size=32, lr=0.001, epochs=90, model='resnet50', amp=True, data='/data/imagenet')",
    'seed: 42',
    'num_workers=8',
    'Retrying in 5s (attempt 2/5)',
  ],
};

/** Metric lines, for the pre-check: it must let every one through. */
const METRIC_LINES = [
  "{'loss': 0.4821, 'grad_norm': 1.9, 'learning_rate': 4.9e-05, 'epoch': 0.12}",
  'step=1 loss=0.5',
  'loss: 0.5',
  'iter 100: loss 4.2345, time 12.34ms, mfu 35.2%',
  '| loss  5.12 | ppl   167.34',
  'step 5 loss 0.3 lr 0.001',
  ' 45%|████▌     | 450/1000 [00:12<00:15, 36.2it/s, loss=0.123]',
  '1875/1875 [==============================] - 5s 3ms/step - loss: 0.2310',
  "{'loss': tensor(2.3), 'step': 3}",
  'loss=tensor(0.3) acc=0.5',
  "'loss': np.float64(0.3), 'step': 1",
  'lm loss: 4.520000E+00 | grad norm: 1.2',
];

/** The pairs reader alone, without the pre-check. */
function withoutPrecheck(line: string) {
  C.reset();
  readPairs(line);
  return C.finish();
}

describe('metric lines: near misses give no metric', () => {
  for (const [category, lines] of Object.entries(NEAR_MISSES)) {
    it(category, () => {
      for (const line of lines) assert.equal(parseMetricLine(line), undefined, line);
    });
  }

  it('the pre-check only saves time: a line it turns away has no metric for the full reader either', () => {
    let turnedAway = 0;
    for (const line of Object.values(NEAR_MISSES).flat()) {
      if (mayHoldMetrics(line)) continue;
      turnedAway++;
      assert.equal(withoutPrecheck(line), undefined, line);
    }
    assert.ok(turnedAway > 30, `${turnedAway} near misses stop at the pre-check`);
    for (const line of METRIC_LINES) {
      assert.equal(mayHoldMetrics(line), true, line);
      assert.notEqual(parseMetricLine(line), undefined, line);
    }
  });

  it('a pair with an unknown name alone is no metric line; with a second pair or an x it is', () => {
    assert.equal(parseMetricLine('temperature: 0.7'), undefined);
    assert.deepEqual(Object.fromEntries(parseMetricLine('temperature: 0.7, top_p: 0.9')!.metrics), {
      temperature: 0.7,
      top_p: 0.9,
    });
    assert.deepEqual(parseMetricLine('step 10: temperature: 0.7')?.x, 10);
    assert.deepEqual(Object.fromEntries(parseMetricLine('val_acc: 0.91')!.metrics), { val_acc: 0.91 });
  });

  it('a line of only an x is no metric line', () => {
    for (const line of ['step=100', 'Epoch 3', '{"epoch": 2}', 'iteration 5/10']) {
      assert.equal(parseMetricLine(line), undefined, line);
    }
  });
});
