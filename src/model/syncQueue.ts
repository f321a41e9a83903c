/**
 * What a watched sync keeps between transfers (no vscode, no I/O): the changed paths waiting for the next
 * batch (a set, so 10,000 saves of one file are one path; past a limit it collapses to "the whole
 * folder", so memory stays bounded), and the record of what this sync sent to the node (only those paths
 * are ever deleted there; bounded: past its limit a path is not recorded, so its deletion is not sent).
 */

/** A path relative to the synced folder, with `/` separators, that stays inside it. */
export function isInsidePath(rel: string): boolean {
  // `a:b` is a name here (a path on another Windows drive is absolute: the caller drops it first).
  if (rel === '' || rel.startsWith('/') || rel.includes('\0')) return false;
  return !rel.split('/').some((s) => s === '..' || s === '' || s === '.');
}

export type Batch = { readonly whole: true } | { readonly whole: false; readonly paths: readonly string[] };

export class ChangeQueue {
  private paths = new Set<string>();
  private whole = false;

  constructor(private readonly limit = 2000) {}

  /** A path changed (created, saved, deleted, renamed from or to). */
  add(rel: string): void {
    if (this.whole || !isInsidePath(rel)) return;
    this.paths.add(rel);
    if (this.paths.size > this.limit) this.everything();
  }

  /** Too much changed to list (or a change we cannot name): sync the whole folder next. */
  everything(): void {
    this.whole = true;
    this.paths.clear();
  }

  get pending(): boolean {
    return this.whole || this.paths.size > 0;
  }

  /** How many paths wait (0 when the whole folder does). */
  get size(): number {
    return this.paths.size;
  }

  /** The next batch, emptying the queue. */
  take(): Batch {
    const batch: Batch = this.whole ? { whole: true } : { whole: false, paths: [...this.paths].sort() };
    this.whole = false;
    this.paths = new Set();
    return batch;
  }
}

/** The files this sync sent to the node (relative paths), bounded. */
export class SentRecord {
  private readonly paths: Set<string>;

  constructor(
    paths: Iterable<string> = [],
    readonly limit = 50_000,
  ) {
    this.paths = new Set();
    for (const p of paths) this.add(p);
  }

  add(rel: string): void {
    if (this.paths.size < this.limit && isInsidePath(rel)) this.paths.add(rel);
  }

  has(rel: string): boolean {
    return this.paths.has(rel);
  }

  delete(rel: string): void {
    this.paths.delete(rel);
  }

  get size(): number {
    return this.paths.size;
  }

  /** `rel` itself when sent, and every sent path under it (a deleted folder). */
  at(rel: string): string[] {
    const prefix = `${rel}/`;
    return [...this.paths].filter((p) => p === rel || p.startsWith(prefix));
  }

  toJSON(): string[] {
    return [...this.paths];
  }
}
