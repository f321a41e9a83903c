/**
 * The service's text-only answer of each list, as a read-only document (scheme `tensorpool`, e.g.
 * `tensorpool:/Cluster list.txt`) that follows the list: a refresh that brings other text updates the open
 * editor. Every list view registers its list here (listViewSetup.ts); the row that stands for the text
 * (commonRows.ts listingTextRow) opens it.
 */
import * as vscode from 'vscode';

interface Listing {
  readonly text: () => string | undefined;
  readonly subscription: vscode.Disposable;
}

export class ListingDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly listings = new Map<string, Listing>();

  /** The document of the list `name` ("Cluster list.txt"). */
  static uri(name: string): vscode.Uri {
    return vscode.Uri.from({ scheme: 'tensorpool', path: `/${name}` });
  }

  /** Serve `text()` as the document `name`, announced as changed on each `changed` event. */
  add(name: string, text: () => string | undefined, changed: vscode.Event<void>): vscode.Disposable {
    const uri = ListingDocuments.uri(name);
    const subscription = changed(() => this.emitter.fire(uri));
    this.listings.set(uri.path, { text, subscription });
    return {
      dispose: () => {
        subscription.dispose();
        this.listings.delete(uri.path);
      },
    };
  }

  /** Open the document `name` in a preview editor. */
  async show(name: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(ListingDocuments.uri(name));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.listings.get(uri.path)?.text() ?? vscode.l10n.t('The service has not sent this list as text.')
    );
  }

  dispose(): void {
    for (const l of this.listings.values()) l.subscription.dispose();
    this.listings.clear();
    this.emitter.dispose();
  }
}
