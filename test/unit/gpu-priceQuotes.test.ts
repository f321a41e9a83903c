/** The wizards' and the tree's price cache (src/model/priceQuotes.ts): one fetch per choice, read without
 *  waiting, a failure is no price (asked again only after a while), no price for a choice is kept. */
import * as assert from 'node:assert/strict';
import { PriceQuotes } from '../../src/model/priceQuotes';

describe('Price quotes', () => {
  it('fetches once per choice; known() never waits and has the price once it came', async () => {
    const asked: string[] = [];
    let release!: (v: number) => void;
    const q = new PriceQuotes((type: string, n: number) => {
      asked.push(`${type}/${n}`);
      return new Promise<number>((r) => (release = r));
    });
    const first = q.ask('1xH100', 2);
    void q.ask('1xH100', 2);
    assert.deepEqual(asked, ['1xH100/2']);
    assert.equal(q.known('1xH100', 2), undefined, 'not there yet, and no waiting');
    release(4.98);
    assert.equal(await first, 4.98);
    assert.equal(q.known('1xH100', 2), 4.98);
    assert.equal(await q.ask('1xH100', 2), 4.98);
    assert.deepEqual(asked, ['1xH100/2'], 'no second request');
  });

  it('a failed or missing quote is no price, never a guess', async () => {
    const q = new PriceQuotes((n: number) =>
      n === 1 ? Promise.reject(new Error('500')) : Promise.resolve(undefined),
    );
    assert.equal(await q.ask(1), undefined);
    assert.equal(await q.ask(2), undefined);
    assert.equal(q.known(1), undefined);
  });

  it('a failed fetch is asked again once retryAfterMs passed, not before; an answer of no price is kept', async () => {
    let now = 1_000;
    let fail = true;
    const asked: number[] = [];
    const q = new PriceQuotes(
      (n: number) => {
        asked.push(n);
        if (n === 2) return Promise.resolve(undefined);
        return fail ? Promise.reject(new Error('500')) : Promise.resolve(7.5);
      },
      60_000,
      () => now,
    );
    assert.equal(await q.ask(1), undefined);
    now += 59_000;
    assert.equal(await q.ask(1), undefined, 'within the minute: no price, no request');
    assert.deepEqual(asked, [1]);
    fail = false;
    now += 2_000;
    assert.equal(await q.ask(1), 7.5, 'asked again after it');
    assert.equal(q.known(1), 7.5);
    assert.equal(await q.ask(1), 7.5);
    assert.equal(await q.ask(2), undefined);
    now += 3_600_000;
    assert.equal(await q.ask(2), undefined);
    assert.deepEqual(asked, [1, 1, 2], 'a price, and an answer without one, are never asked again');
  });
});
