// Column tables whose header line comes before their rows (src/model/metrics/table.ts): Ultralytics' rows inside
// their progress bars, grouped columns, Markdown tables; and what is no header or no row.
import * as assert from 'node:assert/strict';
import { parseMetricLine, resetMetricReader } from '../../src/model/metrics/parseLine';

function read(lines: readonly string[]) {
  resetMetricReader();
  return lines.map((line) => {
    const p = parseMetricLine(line);
    return p && { x: p.x, xKey: p.xKey, metrics: Object.fromEntries(p.metrics) };
  });
}

const TRAIN_HEADER = '      Epoch    GPU_mem   box_loss   cls_loss  Instances       Size';
const TRAIN_ROW =
  '      2/100      2.61G      1.234      2.345         45        640: 100%|██████████| 8/8 [00:02<00:00,  3.20it/s]';

describe('metric lines: column tables', () => {
  it('a row takes its names from the header before it; its x from a column named as an x', () => {
    assert.deepEqual(read([TRAIN_HEADER, TRAIN_ROW]), [
      undefined,
      {
        x: 2,
        xKey: 'epoch',
        metrics: { gpu_mem_gb: 2.61, box_loss: 1.234, cls_loss: 2.345, instances: 45, size: 640 },
      },
    ]);
  });

  it('no header, no table: the same row alone is not guessed at', () => {
    assert.deepEqual(read([TRAIN_ROW]), [undefined]);
  });

  it('a later header replaces the first; the overall row is read, a row per class is not', () => {
    const [, , , all, person] = read([
      TRAIN_HEADER,
      TRAIN_ROW,
      '                 Class     Images  Instances      Box(P          R      mAP50  mAP50-95)     Mask(P          R      mAP50  mAP50-95): 100%|██| 4/4',
      '                   all        128        929      0.712      0.601      0.655      0.482      0.698      0.587      0.631      0.401',
      '                person        128        254      0.801      0.702      0.781      0.512      0.789      0.688      0.761      0.455',
    ]);
    assert.deepEqual(all?.metrics, {
      images: 128,
      instances: 929,
      'box/p': 0.712,
      'box/r': 0.601,
      'box/map50': 0.655,
      'box/map50-95': 0.482,
      'mask/p': 0.698,
      'mask/r': 0.587,
      'mask/map50': 0.631,
      'mask/map50-95': 0.401,
    });
    assert.equal(person, undefined);
  });

  it('a Markdown table (detectron2): its separator row is skipped, its row read', () => {
    const [, , , row] = read([
      'Evaluation results for bbox: ',
      '|   AP   |  AP50  |  AP75  |',
      '|:------:|:------:|:------:|',
      '| 40.220 | 61.018 | 43.757 |',
    ]);
    assert.deepEqual(row?.metrics, { ap: 40.22, ap50: 61.018, ap75: 43.757 });
  });

  it('prose, settings and model summaries are no header; rows of another width or with text are no row', () => {
    assert.deepEqual(
      read([
        'Logging results to runs/detect/train', // one space between words: no column gaps
        '  | Name  | Type             | Params | Mode ',
        '0 | model | ResNet           | 11.2 M | train',
        ' Layer (type)                    Output Shape              Param #',
        ' dense (Dense)                   (None, 128)               100480',
        TRAIN_HEADER,
        '      1/100      2.61G      1.234', // too few cells
        '      1/100      2.61G      1.234      2.345         45        abc', // a text cell
      ]),
      [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    );
  });
});
