/**
 * The SSH Keys view: a pure function of its list (SshKeysController) and the account. One row per saved
 * key (name; type, fingerprint and, in the organisation listing, the owner; the date in the tooltip); an
 * error row with a retry; when the server answered with text only, a row that opens that text instead of
 * an empty view.
 *
 * A view of its own rather than a node under the account: keys are managed (add, remove, Mine /
 * Organisation) with title-bar actions like the other sections, and the account itself lives in the
 * status bar, not in a tree.
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { SavedSshKey } from '../../api/sshKeys';
import type { Store } from '../shared/store';
import type { SshKeysController } from './sshKeys';
import { emptyRow, errorRow, firstLine, listingTextRow, loadingRow } from '../shared/commonRows';
import { fromTextNote } from '../shared/tooltipText';

export type SshKeyNode =
  | { readonly kind: 'key'; readonly key: SavedSshKey; readonly removable: boolean }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'listingText'; readonly preview: string }
  | { readonly kind: 'loading' }
  | { readonly kind: 'empty'; readonly includeOrg: boolean };

export class SshKeysTreeProvider implements vscode.TreeDataProvider<SshKeyNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SshKeyNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly store: Store,
    private readonly keys: SshKeysController,
  ) {
    this.subscriptions = [
      store.onDidChange((t) => {
        if (t === 'account') this.emitter.fire(undefined);
      }),
      keys.onDidChange(() => this.emitter.fire(undefined)),
    ];
  }

  getChildren(node?: SshKeyNode): SshKeyNode[] {
    if (node || this.store.account.kind !== 'signedIn') return [];
    const { data, loading, error } = this.keys;
    const rows: SshKeyNode[] = [];
    if (error) rows.push({ kind: 'error', message: error.message });
    if (!data) {
      if (loading && !error) rows.push({ kind: 'loading' });
      return rows;
    }
    // A text-only answer: the server's text first (one click away), then the keys read from it, if any.
    if (data.keys === undefined || data.keys.some((k) => k.fromText))
      rows.push({ kind: 'listingText', preview: firstLine(data.message) });
    if (data.keys === undefined) return rows;
    for (const key of data.keys)
      rows.push({ kind: 'key', key, removable: !!key.id && this.keys.isMine(key) });
    if (data.keys.length === 0) rows.push({ kind: 'empty', includeOrg: data.includeOrg });
    return rows;
  }

  getTreeItem(node: SshKeyNode): vscode.TreeItem {
    switch (node.kind) {
      case 'key': {
        const k = node.key;
        const item = new vscode.TreeItem(k.name, vscode.TreeItemCollapsibleState.None);
        item.id = `sshKey:${k.id ?? k.fingerprint ?? k.name}`;
        const includeOrg = this.keys.data?.includeOrg;
        const added = k.createdAt ? vscode.l10n.t('added {0}', k.createdAt.slice(0, 10)) : undefined;
        item.description = [k.type, k.fingerprint, added, includeOrg ? k.owner : undefined]
          .filter(Boolean)
          .join(' · ');
        item.tooltip = [
          k.name,
          k.type ? vscode.l10n.t('Type: {0}', k.type) : undefined,
          k.fingerprint ? vscode.l10n.t('Fingerprint: {0}', k.fingerprint) : undefined,
          k.createdAt ? vscode.l10n.t('Added: {0}', k.createdAt) : undefined,
          k.owner ? vscode.l10n.t('Owner: {0}', k.owner) : undefined,
          k.id ? vscode.l10n.t('ID: {0}', k.id) : undefined,
          vscode.l10n.t('Saved keys are added to every new cluster.'),
          k.fromText ? fromTextNote() : undefined,
        ]
          .filter(Boolean)
          .join('\n');
        item.iconPath = new vscode.ThemeIcon('key');
        item.contextValue = node.removable ? 'sshKey removable' : 'sshKey';
        return item;
      }
      case 'error':
        return errorRow(vscode.l10n.t('Could not load SSH keys'), node.message, Commands.refreshSshKeys);
      case 'listingText':
        return listingTextRow(vscode.l10n.t('SSH key list (text from the server)'), node.preview, {
          command: Commands.showSshKeysText,
          title: vscode.l10n.t('Open SSH key list text'),
        });
      case 'loading':
        return loadingRow(vscode.l10n.t('Loading SSH keys…'));
      case 'empty':
        return emptyRow(
          node.includeOrg
            ? vscode.l10n.t('No SSH keys in your organisation')
            : vscode.l10n.t('No SSH keys saved'),
          { command: Commands.addSshKey, title: vscode.l10n.t('Add SSH Key') },
          node.includeOrg ? undefined : vscode.l10n.t('new clusters get no key unless you choose one'),
        );
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
