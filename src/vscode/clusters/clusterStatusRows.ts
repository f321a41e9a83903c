/** The Clusters tree's rows that are not a cluster: an error with its way out, the server's text, loading, empty. */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import { emptyRow, errorRow, listingTextRow, loadingRow } from '../shared/commonRows';

export type StatusRow =
  | { readonly kind: 'error'; message: string; errorKind: string }
  | { readonly kind: 'listingText'; preview: string }
  | { readonly kind: 'loading' }
  | { readonly kind: 'empty'; includeOrg: boolean };

export function statusRowItem(node: StatusRow): vscode.TreeItem {
  switch (node.kind) {
    case 'error':
      return node.errorKind === 'unauthorized'
        ? errorRow(
            vscode.l10n.t('Token rejected'),
            node.message,
            { command: Commands.signIn, title: vscode.l10n.t('Sign In') },
            'error',
          )
        : errorRow(vscode.l10n.t('Could not load clusters'), node.message, Commands.refresh, 'error');
    case 'listingText':
      return listingTextRow(vscode.l10n.t('Cluster list (text from the server)'), node.preview, {
        command: Commands.showListingText,
        title: vscode.l10n.t('Open cluster list text'),
      });
    case 'loading':
      return loadingRow(vscode.l10n.t('Loading clusters…'));
    case 'empty':
      return emptyRow(
        node.includeOrg
          ? vscode.l10n.t('No clusters in your organisation')
          : vscode.l10n.t('No clusters yet'),
      );
  }
}
