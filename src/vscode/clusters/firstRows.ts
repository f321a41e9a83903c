/**
 * A view's first rows at startup. VS Code asks a view for its rows as soon as it shows, which at startup is
 * before the token was read, the account checked and the first list came. Answering with the interim state
 * (the "checking" welcome, a loading row) and telling VS Code of a change a moment later costs a second round
 * trip to the window, which is busy starting (and VS Code holds back a change that follows another within
 * 200 ms). So the first ask waits for the rows instead, while VS Code shows its progress bar on the view, up
 * to a limit: after it the interim rows are drawn and changes are told as usual.
 */

/** How long the first ask may wait for the startup's rows before the interim ones are drawn. */
const FIRST_ROWS_LIMIT_MS = 3000;

export class FirstRows<T> {
  private asked = false;
  private waiting: { promise: Promise<T>; resolve: (rows: T) => void; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly limitMs = FIRST_ROWS_LIMIT_MS) {}

  /** VS Code asks for the top-level rows; `interim`: the rows now are not yet the startup's answer. */
  ask(interim: boolean, rows: () => T): T | Promise<T> {
    if (this.waiting) return this.waiting.promise;
    const first = !this.asked;
    this.asked = true;
    if (!first || !interim) return rows();
    let resolve!: (rows: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    this.waiting = { promise, resolve, timer: setTimeout(() => this.release(rows), this.limitMs) };
    return promise;
  }

  /**
   * The rows' data changed. True when VS Code is to be told (it holds rows that may now be stale); false
   * before it first asked (it reads the rows as they are then) and while the first ask waits, which this
   * change answers once the rows are no longer interim.
   */
  changed(interim: boolean, rows: () => T): boolean {
    if (!this.asked) return false;
    if (!this.waiting) return true;
    if (!interim) this.release(rows);
    return false;
  }

  private release(rows: () => T): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    clearTimeout(waiting.timer);
    waiting.resolve(rows());
  }

  dispose(): void {
    if (this.waiting) clearTimeout(this.waiting.timer);
  }
}
