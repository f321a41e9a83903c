/**
 * Tree elements that stay the same objects across refreshes. VS Code maps a row to its element
 * object; a tree that hands out new objects on every refresh loses the row a context-menu command
 * was invoked on (the command then arrives without an argument). Here each row has a key (also its
 * TreeItem id), the first object made for a key is kept and updated in place, and a signature of
 * the data the row shows says whether it changed, so only changed elements need a change event.
 */
export class StableNodes<T extends object> {
  private readonly nodes = new Map<string, T>();
  private readonly signatures = new Map<string, string>();

  /** The element for `key`: the kept object, updated in place with `fresh`, or `fresh` the first time. */
  take(key: string, fresh: T): T {
    const kept = this.nodes.get(key);
    if (!kept) {
      this.nodes.set(key, fresh);
      return fresh;
    }
    // Field by field: faster than Object.assign on these small records.
    for (const field in fresh) kept[field] = fresh[field];
    return kept;
  }

  /** Whether an element was made for `key` (VS Code may know the row). */
  has(key: string): boolean {
    return this.nodes.has(key);
  }

  /** Record what the row shows now; true when that differs from the last time (or is new). */
  changed(key: string, signature: string): boolean {
    const before = this.signatures.get(key);
    this.signatures.set(key, signature);
    return before !== signature;
  }

  /** The first kept element that matches (for the few lookups by content: telemetry, reveal). */
  find(match: (node: T) => boolean): T | undefined {
    for (const node of this.nodes.values()) if (match(node)) return node;
    return undefined;
  }

  /** Forget rows whose key does not pass `keep` (gone from the tree). */
  prune(keep: (key: string) => boolean): void {
    for (const key of [...this.nodes.keys()]) {
      if (!keep(key)) {
        this.nodes.delete(key);
        this.signatures.delete(key);
      }
    }
  }
}

/**
 * A row's data as one string: equal signatures render the same row. The data are plain records from
 * the store (no cycles, no functions), so their JSON is exact.
 */
export function dataSignature(data: unknown): string {
  return JSON.stringify(data) ?? '';
}

const recordSignatures = new WeakMap<object, string>();

/**
 * dataSignature of a record from the store, worked out once per record: the store replaces records
 * (a refresh brings new objects) and never changes one in place, so an unchanged list costs lookups.
 */
export function recordSignature(record: object): string {
  let signature = recordSignatures.get(record);
  if (signature === undefined) recordSignatures.set(record, (signature = dataSignature(record)));
  return signature;
}

/** True when two lists of keys are the same, in the same order. */
export function sameKeys(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((k, i) => k === b[i]);
}
