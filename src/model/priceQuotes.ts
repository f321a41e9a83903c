/**
 * The wizards' hourly prices: asked for as soon as the answers that decide them are known (while the user
 * types), remembered per choice, and read by the summary without waiting. A price the service did not
 * give (a failed quote, no quote route) is no price: nothing is shown, nothing guessed. Pure: the fetch
 * is the caller's.
 */
export class PriceQuotes<K extends readonly (string | number)[]> {
  private readonly settled = new Map<string, number | undefined>();
  private readonly pending = new Map<string, Promise<number | undefined>>();

  constructor(private readonly fetch: (...key: K) => Promise<number | undefined>) {}

  /** Start fetching the price of `key` (once per key); the promise settles with it or undefined. */
  ask(...key: K): Promise<number | undefined> {
    const id = JSON.stringify(key);
    if (this.settled.has(id)) return Promise.resolve(this.settled.get(id));
    let p = this.pending.get(id);
    if (!p) {
      p = this.fetch(...key).then(
        (rate) => rate,
        () => undefined,
      );
      this.pending.set(id, p);
      void p.then((rate) => {
        this.settled.set(id, rate);
        this.pending.delete(id);
      });
    }
    return p;
  }

  /** The price of `key` if it already arrived (never waits). */
  known(...key: K): number | undefined {
    return this.settled.get(JSON.stringify(key));
  }
}
