/**
 * Tree elements that stay the same objects across refreshes. VS Code maps a row to its element
 * object; a tree that hands out new objects on every refresh loses the row a context-menu command
 * was invoked on (the command then arrives without an argument). Here each row has a key (also its
 * TreeItem id), the first object made for a key is kept and updated in place, and a signature of
 * what the row shows says whether it changed, so only changed elements need a change event.
 */
import type * as vscode from 'vscode';

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
    Object.assign(kept, fresh);
    return kept;
  }

  /** Record what the row shows now; true when that differs from the last time (or is new). */
  changed(key: string, signature: string): boolean {
    const before = this.signatures.get(key);
    this.signatures.set(key, signature);
    return before !== signature;
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

function text(value: string | vscode.MarkdownString | vscode.TreeItemLabel | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return 'value' in value ? value.value : value.label;
}

/** Everything a row shows, as one string: equal signatures render the same row. */
export function itemSignature(item: vscode.TreeItem): string {
  const icon = item.iconPath as { id?: string; color?: { id?: string } } | undefined;
  return JSON.stringify([
    item.id,
    text(item.label),
    typeof item.description === 'string' ? item.description : String(item.description ?? ''),
    text(item.tooltip),
    icon?.id,
    icon?.color?.id,
    item.contextValue,
    item.collapsibleState,
    item.command?.command,
  ]);
}

/** True when two lists of keys are the same, in the same order. */
export function sameKeys(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((k, i) => k === b[i]);
}
