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
import type { SshKeyData, SshKeysController } from './sshKeys';
import { emptyRow } from '../shared/commonRows';
import { ListTree, type ListRow, type ListTreeTexts } from '../shared/listTree';
import { fromTextNote } from '../shared/tooltipText';

type SshKeyRow =
  | { readonly kind: 'key'; readonly key: SavedSshKey; readonly removable: boolean }
  | { readonly kind: 'empty'; readonly includeOrg: boolean };
export type SshKeyNode = SshKeyRow | ListRow;

export class SshKeysTreeProvider extends ListTree<SshKeyRow, SshKeyData> {
  constructor(
    store: Store,
    private readonly keys: SshKeysController,
  ) {
    super(store, keys);
  }

  protected texts(): ListTreeTexts {
    return {
      errorTitle: vscode.l10n.t('Could not load SSH keys'),
      refreshCommand: Commands.refreshSshKeys,
      loading: vscode.l10n.t('Loading SSH keys…'),
      listingTitle: vscode.l10n.t('SSH key list (text from the server)'),
      listingCommand: Commands.showSshKeysText,
      listingOpen: vscode.l10n.t('Open SSH key list text'),
    };
  }

  // A text-only answer: the server's text first (one click away), then the keys read from it, if any.
  protected listingText(data: SshKeyData): string | undefined {
    return data.keys === undefined || data.keys.some((k) => k.fromText) ? (data.message ?? '') : undefined;
  }

  protected rows(data: SshKeyData): SshKeyRow[] {
    if (data.keys === undefined) return [];
    const rows: SshKeyRow[] = data.keys.map((key) => ({
      kind: 'key',
      key,
      removable: !!key.id && this.keys.isMine(key),
    }));
    if (data.keys.length === 0) rows.push({ kind: 'empty', includeOrg: data.includeOrg });
    return rows;
  }

  protected item(node: SshKeyRow): vscode.TreeItem {
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
}
