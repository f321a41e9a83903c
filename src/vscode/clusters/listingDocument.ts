/** A read-only document (scheme `tensorpool`) showing the server's text answer for the cluster list. */
import * as vscode from 'vscode';
import type { Store } from '../shared/store';

export const LISTING_URI = vscode.Uri.parse('tensorpool:/Cluster%20list.txt');

export class ListingDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: Store) {
    this.subscription = store.onDidChange((t) => {
      if (t === 'clusters') this.emitter.fire(LISTING_URI);
    });
  }

  provideTextDocumentContent(): string {
    const data = this.store.clusters.data;
    return data?.message ?? vscode.l10n.t('The service has not sent a cluster list yet.');
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
