/**
 * The engine's job streams under load and faults: a "many lines" job streams every line, a slow-stream
 * fault spaces the messages out, respond / drop faults refuse the upgrade, a silent fault never answers,
 * and the jobs config refuses what it does not know.
 */
import * as assert from 'node:assert/strict';
import { WebSocket } from 'ws';
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

  it('a respond fault refuses the upgrade with its status; a drop fault ends it unanswered; both are logged', async () => {
    await t.engine.fault({ method: 'WS', path: '/job/push', status: 503, body: { detail: 'maintenance' } });
    await t.engine.fault({ method: 'WS', path: '/job/push', action: 'drop' });
    const statuses: Array<number | string> = [];
    for (let i = 0; i < 2; i++) {
      const ws = new WebSocket(`${t.engine.url.replace('http', 'ws')}/job/push`);
      statuses.push(
        await new Promise<number | string>((resolve) => {
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('error', (e) => resolve(e.message));
          ws.on('open', () => resolve('open'));
        }),
      );
    }
    assert.equal(statuses[0], 503);
    assert.match(String(statuses[1]), /socket hang up|ECONNRESET/);
    const upgrades = (await t.engine.log()).filter((e) => e.ws === 'upgrade');
    assert.deepEqual(
      upgrades.map((e) => [e.status, e.fault]),
      [
        [503, 'respond'],
        [null, 'drop'],
      ],
    );
  });

  it('a silent fault accepts the socket, then sends nothing and answers no ping (the messages are still logged)', async () => {
    await t.engine.fault({ method: 'WS', path: '/job/push', action: 'silent' });
    const ws = new WebSocket(`${t.engine.url.replace('http', 'ws')}/job/push`);
    await new Promise((resolve) => ws.once('open', resolve));
    let heard = 0;
    ws.on('message', () => heard++);
    ws.on('pong', () => heard++);
    ws.send(JSON.stringify({ TENSORPOOL_KEY: t.engine.token }));
    ws.ping();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(heard, 0);
    ws.terminate();
    const messages = (await t.engine.log()).filter((e) => e.ws === 'message');
    assert.deepEqual(
      messages.map((e) => e.body),
      [{ TENSORPOOL_KEY: '[redacted]' }],
    );
  });

  it('the jobs config refuses unknown fields and bad values', async () => {
    // Sent unchecked: these bodies are what the config type rules out.
    const refused = async (jobs: unknown, error: RegExp) => {
      const r = await t.engine.unchecked('POST', 'config', { jobs });
      assert.equal(r.status, 400);
      assert.match(String(r.json.error), error);
    };
    await refused({ lineMS: 3 }, /unknown field lineMS/);
    await refused({ lines: -1 }, /jobs.lines must be an integer/);
    await refused({ extraOutputs: { a: 1 } }, /extraOutputs/);
  });
});
