/**
 * The skeleton every list section's tree shares (Jobs, Volumes, SSH Keys; Clusters keeps its own, built for
 * thousands of rows that redraw one by one, from the same rows): a pure function of its list (a
 * ViewedList, beside this file) and the account, redrawn when either changes. Nothing while signed out;
 * an error row that retries on click (the last good rows stay below it); a loading row until the first
 * answer; when the service answered with text only, the row that opens that text, before whatever was
 * read from it. A section says what its rows and items are, and its words.
 */
import * as vscode from 'vscode';
import { errorRow, firstLine, listingTextRow, loadingRow } from './commonRows';
import type { Store } from './store';
import type { ViewedList } from './viewedList';

/** The rows every list tree may show besides its own. */
export type ListRow =
  | { readonly kind: 'error'; readonly message: string; readonly errorKind: string }
  | { readonly kind: 'listingText'; readonly preview: string }
  | { readonly kind: 'loading' };

const LIST_ROWS = new Set(['error', 'listingText', 'loading']);

function isListRow(node: { readonly kind: string }): node is ListRow {
  return LIST_ROWS.has(node.kind);
}

/** A section's words and commands for the common rows (read when a row is drawn, in the display language). */
export interface ListTreeTexts {
  /** "Could not load volumes" */
  readonly errorTitle: string;
  /** The command the error row retries with. */
  readonly refreshCommand: string;
  /** "Loading volumes…" */
  readonly loading: string;
  /** "Volume list (text from the server)", the command that opens that text and its title. */
  readonly listingTitle: string;
  readonly listingCommand: string;
  readonly listingOpen: string;
  /** The error row's contextValue, when its menus need one. */
  readonly errorContext?: string;
}

export abstract class ListTree<N extends { readonly kind: string }, D>
  implements vscode.TreeDataProvider<N | ListRow>, vscode.Disposable
{
  private readonly emitter = new vscode.EventEmitter<N | ListRow | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    protected readonly store: Store,
    protected readonly list: ViewedList<D>,
  ) {
    this.subscriptions = [
      store.onDidChange((t) => {
        if (t === 'account') this.emitter.fire(undefined);
      }),
      list.onDidChange(() => this.emitter.fire(undefined)),
    ];
  }

  protected abstract texts(): ListTreeTexts;
  /** The service's text when the answer was text only (its row comes first), else undefined. */
  protected abstract listingText(data: D): string | undefined;
  /** The section's own top-level rows for this answer. */
  protected abstract rows(data: D): N[];
  /** The tree item of one of the section's own rows. */
  protected abstract item(node: N): vscode.TreeItem;

  /** The rows under one of the section's own rows (none by default). */
  protected childrenOf(_node: N): N[] {
    return [];
  }

  getChildren(node?: N | ListRow): (N | ListRow)[] {
    if (node) return isListRow(node) ? [] : this.childrenOf(node);
    if (this.store.account.kind !== 'signedIn') return [];
    const { data, loading, error } = this.list;
    const rows: (N | ListRow)[] = [];
    if (error) rows.push({ kind: 'error', message: error.message, errorKind: error.kind });
    if (!data) {
      if (loading && !error) rows.push({ kind: 'loading' });
      return rows;
    }
    const text = this.listingText(data);
    if (text !== undefined) rows.push({ kind: 'listingText', preview: firstLine(text) });
    rows.push(...this.rows(data));
    return rows;
  }

  getTreeItem(node: N | ListRow): vscode.TreeItem {
    if (!isListRow(node)) return this.item(node);
    const t = this.texts();
    switch (node.kind) {
      case 'error':
        return errorRow(t.errorTitle, node.message, t.refreshCommand, t.errorContext);
      case 'listingText':
        return listingTextRow(t.listingTitle, node.preview, {
          command: t.listingCommand,
          title: t.listingOpen,
        });
      case 'loading':
        return loadingRow(t.loading);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
