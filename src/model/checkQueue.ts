/**
 * Checks of keyed things (a node's login, by instance id), at most `limit` running at once, in the order asked.
 * `stop()` drops the checks waiting and aborts those running (through their signal), and says which keys it
 * ended, so they can be asked for again later; nothing of a stopped check outlives it (its limit's timer
 * included, when the check ends its work on abort).
 */
export class CheckQueue<T> {
  private readonly waiting: Array<{ key: string; item: T }> = [];
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly limit: number,
    /** One check; it ends its work when `signal` aborts. A rejection counts as the check's end. */
    private readonly run: (item: T, signal: AbortSignal) => Promise<void>,
  ) {}

  /** Checks running now. */
  get active(): number {
    return this.running.size;
  }

  /** Checks not started yet. */
  get pending(): number {
    return this.waiting.length;
  }

  /** Whether `key` is waiting or running. */
  has(key: string): boolean {
    return this.running.has(key) || this.waiting.some((w) => w.key === key);
  }

  /** Ask for a check of `item` (none if `key` is waiting or running already). */
  push(key: string, item: T): void {
    if (this.has(key)) return;
    this.waiting.push({ key, item });
    this.next();
  }

  /** Drop the waiting checks and abort the running ones; the keys ended. */
  stop(): string[] {
    const ended = [...this.running.keys(), ...this.waiting.map((w) => w.key)];
    this.waiting.length = 0;
    const running = [...this.running.values()];
    this.running.clear();
    for (const c of running) c.abort();
    return ended;
  }

  private next(): void {
    while (this.running.size < this.limit && this.waiting.length > 0) {
      const { key, item } = this.waiting.shift()!;
      const controller = new AbortController();
      this.running.set(key, controller);
      void Promise.resolve()
        .then(() => this.run(item, controller.signal))
        .catch(() => undefined)
        .finally(() => {
          // A stopped check's slot was freed by stop(); a new check of the same key may run by now.
          if (this.running.get(key) !== controller) return;
          this.running.delete(key);
          this.next();
        });
    }
  }
}
