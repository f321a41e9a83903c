// A view's first ask at startup waits for the startup's rows instead of drawing an interim state and
// telling VS Code of a change (src/vscode/clusters/firstRows.ts).
import * as assert from 'node:assert/strict';
import { FirstRows } from '../../src/vscode/clusters/firstRows';

describe("a view's first rows at startup", () => {
  let rows: string[];
  const current = () => rows;
  beforeEach(() => {
    rows = [];
  });

  it('a first ask while the rows are interim waits, and the change that ends it answers (no change event)', async () => {
    const first = new FirstRows<string[]>(5000);
    const asked = first.ask(true, current);
    assert.ok(asked instanceof Promise, 'waits');
    assert.equal(first.changed(true, current), false, 'still interim: no event, still waiting');
    rows = ['loading'];
    assert.equal(first.changed(true, current), false);
    rows = ['alpha', 'beta'];
    assert.equal(first.changed(false, current), false, 'the waiting ask carries the rows, no event');
    assert.deepEqual(await asked, ['alpha', 'beta']);
    assert.equal(first.changed(false, current), true, 'after that, changes are told');
    first.dispose();
  });

  it('a second ask while the first waits gets the same answer', async () => {
    const first = new FirstRows<string[]>(5000);
    const a = first.ask(true, current);
    const b = first.ask(true, current);
    rows = ['alpha'];
    first.changed(false, current);
    assert.deepEqual(await a, ['alpha']);
    assert.deepEqual(await b, ['alpha']);
    first.dispose();
  });

  it('rows that are final already are answered at once; later asks never wait', () => {
    const first = new FirstRows<string[]>(5000);
    rows = ['alpha'];
    assert.deepEqual(first.ask(false, current), ['alpha']);
    assert.deepEqual(first.ask(true, current), ['alpha'], 'only the first ask may wait');
    first.dispose();
  });

  it('before VS Code asked, a change tells nobody (it reads the rows as they are when it asks)', () => {
    const first = new FirstRows<string[]>(5000);
    assert.equal(first.changed(false, current), false);
    assert.deepEqual(first.ask(false, current), []);
    assert.equal(first.changed(false, current), true);
    first.dispose();
  });

  it('past the limit the interim rows are answered, and changes are told as usual', async () => {
    const first = new FirstRows<string[]>(30);
    rows = ['loading'];
    const asked = first.ask(true, current);
    assert.deepEqual(await asked, ['loading']);
    rows = ['alpha'];
    assert.equal(first.changed(false, current), true);
    first.dispose();
  });
});
