/**
 * First-occurrence timing marks for the benchmarks (test/bench: time to first tree). Off unless the test
 * API turned them on (testApi.ts, outside production): then mark() keeps the wall-clock time (ms since
 * the epoch, sub-millisecond, comparable with VS Code's own performance marks) of the first time each
 * name is reached. In production mark() is one comparison with undefined.
 */
let marks: Map<string, number> | undefined;

/** Turn the marks on (outside production only; see unlessProduction in testApi.ts). */
export function enableTimingMarks(): void {
  marks ??= new Map();
}

/** Note the first time `name` is reached; later calls keep the first time. */
export function mark(name: string): void {
  if (marks && !marks.has(name)) marks.set(name, performance.timeOrigin + performance.now());
}

/** Note `name` before `fn` runs and `name`End when its promise settled. */
export async function markSpan<T>(name: string, fn: () => Thenable<T>): Promise<T> {
  mark(name);
  try {
    return await fn();
  } finally {
    mark(`${name}End`);
  }
}

/** Note `name` the first time `rows` holds a row `isRow` accepts (the check runs only until it did). */
export function markWhen<T>(name: string, rows: readonly T[], isRow: (row: T) => boolean): void {
  if (marks && !marks.has(name) && rows.some(isRow)) mark(name);
}

/** The marks so far (empty when they are off). */
export function timingMarks(): Record<string, number> {
  return Object.fromEntries(marks ?? []);
}
