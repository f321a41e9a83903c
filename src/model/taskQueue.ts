/**
 * Tasks run in the order pushed, at most `limit` at once: a task starts when a slot frees. A task's result and
 * errors are its own (it handles them); `clear()` drops the tasks still waiting.
 */
export class TaskQueue {
  private running = 0;
  private readonly waiting: Array<() => Promise<unknown>> = [];

  constructor(private readonly limit: number) {}

  push(task: () => Promise<unknown>): void {
    this.waiting.push(task);
    this.next();
  }

  /** Tasks started and not yet settled. */
  get active(): number {
    return this.running;
  }

  /** Tasks not started yet. */
  get pending(): number {
    return this.waiting.length;
  }

  clear(): void {
    this.waiting.length = 0;
  }

  private next(): void {
    while (this.running < this.limit && this.waiting.length > 0) {
      const task = this.waiting.shift()!;
      this.running++;
      void Promise.resolve()
        .then(task)
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }
}
