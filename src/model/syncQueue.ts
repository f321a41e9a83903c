/**
 * What a watched sync keeps between transfers (no vscode, no I/O): the changed paths waiting for the next
 * batch (a set, so 10,000 saves of one file are one path; past a limit it collapses to "the whole
 * folder", so memory stays bounded), and the record of what this sync sent to the node (only those paths
 * are ever deleted there; bounded: past its limit a path is not recorded, so its deletion is not sent)
 * with the state each file had on both sides after its last sync (to tell a conflict).
 */

import { parseStateText, stateText, type FileState } from './syncState';

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

/**
 * What this sync knows of the files it made equal on the node (relative paths), bounded: which ones it sent
 * (only those are ever deleted there) and the state both copies had after it last made them equal
 * (syncState.ts: a copy no longer in that state changed since).
 */
export class SentRecord {
  private readonly sentPaths = new Set<string>();
  private readonly states = new Map<string, FileState>();

  constructor(
    paths: Iterable<string> = [],
    readonly limit = 50_000,
    states: Readonly<Record<string, string>> = {},
  ) {
    for (const p of paths) this.add(p);
    for (const [p, t] of Object.entries(states)) {
      const s = parseStateText(t);
      if (s) this.synced(p, s);
    }
  }

  /** `rel` was sent to the node (and, when known, both copies are now in `state`). */
  add(rel: string, state?: FileState): void {
    if (this.sentPaths.size < this.limit && isInsidePath(rel)) this.sentPaths.add(rel);
    if (state) this.synced(rel, state);
  }

  /** Both copies of `rel` are now in `state` (sent, pulled, or found equal). */
  synced(rel: string, state: FileState): void {
    if ((this.states.has(rel) || this.states.size < this.limit) && isInsidePath(rel))
      this.states.set(rel, state);
  }

  /** The state both copies had after the last sync of `rel`, if known. */
  state(rel: string): FileState | undefined {
    return this.states.get(rel);
  }

  has(rel: string): boolean {
    return this.sentPaths.has(rel);
  }

  /** `rel` is gone from the node (deleted by the sync) or is no longer the sync's to delete. */
  delete(rel: string): void {
    this.sentPaths.delete(rel);
    this.states.delete(rel);
  }

  get size(): number {
    return this.sentPaths.size;
  }

  /** Whether nothing was ever made equal (a first sync). */
  get empty(): boolean {
    return this.sentPaths.size === 0 && this.states.size === 0;
  }

  /** `rel` itself when sent, and every sent path under it (a deleted folder). */
  at(rel: string): string[] {
    const prefix = `${rel}/`;
    return [...this.sentPaths].filter((p) => p === rel || p.startsWith(prefix));
  }

  toJSON(): string[] {
    return [...this.sentPaths];
  }

  /** The known states, as stored (`size:mtime[:sum]` per path). */
  statesJSON(): Record<string, string> {
    return Object.fromEntries([...this.states].map(([p, s]) => [p, stateText(s)]));
  }
}
