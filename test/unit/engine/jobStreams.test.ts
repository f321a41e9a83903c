/**
 * The engine's job streams under load and faults: a "many lines" job streams every line, a slow-stream
 * fault spaces the messages out, and the jobs config refuses what it does not know.
 */
import * as assert from 'node:assert/strict';
import { FAST_JOBS, submitted, useJobEngine } from '../../fixtures/jobs';

describe('engine: job streams under load and faults', function () {
  this.timeout(30_000);
  const t = useJobEngine('tp-job-stream-');

  it('a many-lines job streams every one of its lines, in order', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lines: 25_000, lineMs: 0 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path, 'commands = ["python train.py"]');
    let count = 0;
    let last = '';
    const outcome = await t.client.jobs.listen(id, {
      onMessage: (m) => {
        if (m.status) return;
        count++;
        last = m.message ?? '';
      },
    });
    assert.equal(outcome.kind, 'success');
    assert.equal(count, 25_001);
    assert.match(last, /line 25000 of 25000$/);
  });

  it('a slow-stream fault spaces the messages out', async () => {
    await t.engine.config({ jobs: { ...FAST_JOBS, lineMs: 0 } });
    const id = await submitted(t.client, t.clusterId, t.folder.path, 'commands = ["echo hi"]');
    await t.engine.fault({ method: 'WS', path: '/job/listen/*', action: 'slow', delayMs: 40 });
    const started = Date.now();
    const got: number[] = [];
    await t.client.jobs.listen(id, { onMessage: () => got.push(Date.now() - started) });
    assert.equal(got.length, FAST_JOBS.lines + 2);
    assert.ok(got.at(-1)! >= 40 * (FAST_JOBS.lines + 1), `took ${got.at(-1)} ms`);
  });

  it('the jobs config refuses unknown fields and bad values', async () => {
    await assert.rejects(t.engine.config({ jobs: { lineMS: 3 } }), /unknown field lineMS/);
    await assert.rejects(t.engine.config({ jobs: { lines: -1 } }), /jobs.lines must be an integer/);
    await assert.rejects(t.engine.config({ jobs: { extraOutputs: { a: 1 } } }), /extraOutputs/);
  });
});
