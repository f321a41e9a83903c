/** The queue that keeps the notebooks' login checks to a few ssh at a time (src/model/taskQueue.ts). */
import * as assert from 'node:assert/strict';
import { TaskQueue } from '../../src/model/taskQueue';

/** A task that settles when told to, and says when it started. */
function gate(started: string[], name: string) {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return {
    task: () => {
      started.push(name);
      return done;
    },
    open,
    fail,
  };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('TaskQueue', () => {
  it('runs at most its limit at once, in the order pushed, and starts the next as one settles', async () => {
    const started: string[] = [];
    const q = new TaskQueue(2);
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((n) => gate(started, n));
    for (const t of tasks) q.push(t.task);
    await turn();
    assert.deepEqual(started, ['a', 'b']);
    assert.equal(q.active, 2);
    assert.equal(q.pending, 3);
    tasks[1].open();
    await turn();
    assert.deepEqual(started, ['a', 'b', 'c']);
    // A task that fails frees its slot as well.
    tasks[0].fail(new Error('refused'));
    await turn();
    assert.deepEqual(started, ['a', 'b', 'c', 'd']);
    assert.equal(q.active, 2);
    tasks[2].open();
    tasks[3].open();
    await turn();
    assert.deepEqual(started, ['a', 'b', 'c', 'd', 'e']);
    tasks[4].open();
    await turn();
    assert.equal(q.active, 0);
    assert.equal(q.pending, 0);
  });

  it('clear() drops the waiting tasks; those running end as they would', async () => {
    const started: string[] = [];
    const q = new TaskQueue(1);
    const tasks = ['a', 'b', 'c'].map((n) => gate(started, n));
    for (const t of tasks) q.push(t.task);
    await turn();
    q.clear();
    assert.equal(q.pending, 0);
    tasks[0].open();
    await turn();
    assert.deepEqual(started, ['a']);
    assert.equal(q.active, 0);
    // The queue goes on taking tasks after a clear.
    const d = gate(started, 'd');
    q.push(d.task);
    await turn();
    assert.deepEqual(started, ['a', 'd']);
  });

  it('a task that throws before it returns a promise frees its slot', async () => {
    const q = new TaskQueue(1);
    const started: string[] = [];
    q.push(() => {
      throw new Error('no ssh');
    });
    const b = gate(started, 'b');
    q.push(b.task);
    await turn();
    assert.deepEqual(started, ['b']);
  });
});
