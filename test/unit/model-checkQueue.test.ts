/** The queue that keeps the notebooks' login checks to a few ssh at a time (src/model/checkQueue.ts). */
import * as assert from 'node:assert/strict';
import { CheckQueue } from '../../src/model/checkQueue';

/** Checks that settle when told to; each says when it started and whether it was aborted. */
function checks() {
  const started: string[] = [];
  const aborted: string[] = [];
  const gates = new Map<string, { open: () => void; fail: (e: Error) => void }>();
  const run = (name: string, signal: AbortSignal) => {
    started.push(name);
    signal.addEventListener('abort', () => aborted.push(name));
    return new Promise<void>((resolve, reject) => gates.set(name, { open: resolve, fail: reject }));
  };
  return { started, aborted, gates, run };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('CheckQueue', () => {
  it('runs at most its limit at once, in the order asked, and starts the next as one settles', async () => {
    const c = checks();
    const q = new CheckQueue<string>(2, c.run);
    for (const n of ['a', 'b', 'c', 'd', 'e']) q.push(n, n);
    await turn();
    assert.deepEqual(c.started, ['a', 'b']);
    assert.equal(q.active, 2);
    assert.equal(q.pending, 3);
    c.gates.get('b')!.open();
    await turn();
    assert.deepEqual(c.started, ['a', 'b', 'c']);
    // A check that fails frees its slot as well.
    c.gates.get('a')!.fail(new Error('refused'));
    await turn();
    assert.deepEqual(c.started, ['a', 'b', 'c', 'd']);
    c.gates.get('c')!.open();
    c.gates.get('d')!.open();
    await turn();
    assert.deepEqual(c.started, ['a', 'b', 'c', 'd', 'e']);
    c.gates.get('e')!.open();
    await turn();
    assert.equal(q.active, 0);
    assert.equal(q.pending, 0);
    assert.deepEqual(c.aborted, []);
  });

  it('a key waiting or running is not asked for twice', async () => {
    const c = checks();
    const q = new CheckQueue<string>(1, c.run);
    q.push('a', 'a');
    q.push('b', 'b');
    q.push('a', 'a');
    q.push('b', 'b');
    await turn();
    assert.equal(q.active + q.pending, 2);
    c.gates.get('a')!.open();
    await turn();
    c.gates.get('b')!.open();
    await turn();
    assert.deepEqual(c.started, ['a', 'b']);
  });

  it('stop() aborts the running checks, drops the waiting ones and says which keys it ended', async () => {
    const c = checks();
    const q = new CheckQueue<string>(2, c.run);
    for (const n of ['a', 'b', 'c']) q.push(n, n);
    await turn();
    assert.deepEqual(q.stop().sort(), ['a', 'b', 'c']);
    assert.deepEqual(c.aborted.sort(), ['a', 'b']);
    assert.equal(q.active, 0);
    assert.equal(q.pending, 0);
    // The aborted checks end later: nothing waiting starts then.
    c.gates.get('a')!.open();
    c.gates.get('b')!.open();
    await turn();
    assert.deepEqual(c.started, ['a', 'b']);
    // The queue takes checks again after a stop, the same key included, while an old check of it still ends.
    q.push('a', 'a2');
    await turn();
    assert.deepEqual(c.started, ['a', 'b', 'a2']);
    assert.equal(q.active, 1);
  });

  it('a check that throws before it returns a promise frees its slot', async () => {
    const started: string[] = [];
    const q = new CheckQueue<string>(1, (n) => {
      if (n === 'a') throw new Error('no ssh');
      started.push(n);
      return Promise.resolve();
    });
    q.push('a', 'a');
    q.push('b', 'b');
    await turn();
    await turn();
    assert.deepEqual(started, ['b']);
    assert.equal(q.active, 0);
  });
});
