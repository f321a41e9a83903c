/**
 * The wizards' and the tree's hourly prices: asked for as soon as the answers that decide them are known
 * (while the user types), remembered per choice, and read by the summary without waiting. A price the
 * service did not give (no quote route, no price for that choice) is no price: nothing is shown, nothing
 * guessed. A fetch that fails (the caller's fetch rejects: a server error, the network) is no price for
 * now: it is asked again at the next `ask` once `retryAfterMs` has passed, so a window open for days does
 * not keep a price it could not get once. Pure: the fetch and the clock are the caller's.
 */
export class PriceQuotes<K extends readonly (string | number)[]> {
  private readonly settled = new Map<string, number | undefined>();
  private readonly pending = new Map<string, Promise<number | undefined>>();
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly fetch: (...key: K) => Promise<number | undefined>,
    private readonly retryAfterMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Start fetching the price of `key` (once per key, again after a failure once retryAfterMs passed);
   *  the promise settles with it or undefined. */
  ask(...key: K): Promise<number | undefined> {
    const id = JSON.stringify(key);
    if (this.settled.has(id)) return Promise.resolve(this.settled.get(id));
    let p = this.pending.get(id);
    if (p) return p;
    const failed = this.failedAt.get(id);
    if (failed !== undefined && this.now() - failed < this.retryAfterMs) return Promise.resolve(undefined);
    p = this.fetch(...key).then(
      (rate) => {
        this.settled.set(id, rate);
        this.failedAt.delete(id);
        return rate;
      },
      () => {
        this.failedAt.set(id, this.now());
        return undefined;
      },
    );
    this.pending.set(id, p);
    void p.then(() => this.pending.delete(id));
    return p;
  }

  /** The price of `key` if it already arrived (never waits). */
  known(...key: K): number | undefined {
    return this.settled.get(JSON.stringify(key));
  }
}
