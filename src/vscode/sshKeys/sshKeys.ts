/**
 * Saved SSH keys: loads GET /user/ssh-key/list into the store (Mine / Organisation like the clusters)
 * and tells the create wizard which keys new clusters will get. One request per refresh; nothing is
 * requested while signed out. Adding and removing a key are commands (sshKeyActions.ts), loaded on
 * first use.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import type { LocalKey } from '../../wizards/createCluster';
import type { SavedKeys } from '../../wizards/savedKeys';
import type { ApiService } from '../shared/apiService';
import { ScopedList } from '../shared/listScope';
import type { Log } from '../shared/log';
import type { SshKeyRow, Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';

export interface LocalKeySource {
  readonly list: () => Promise<LocalKey[]>;
  readonly generate: () => Promise<LocalKey>;
}

export class SshKeysController extends ScopedList {
  /** The user's own saved keys as last listed (for the create wizard, so its key step sends nothing). */
  private mine: SavedKeys | undefined;
  private prefetching: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    state: StoredState,
    private readonly log: Log,
  ) {
    super(state, 'tensorpool.sshKeysIncludeOrg');
  }

  clear(): void {
    this.mine = undefined;
    this.store.updateSshKeys({ data: undefined, loading: false, error: undefined });
  }

  protected async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') return;
    const includeOrg = this.includeOrg;
    this.store.updateSshKeys({ loading: true });
    try {
      const listing = await (await this.api.client()).sshKeys({ includeOrg });
      if (!includeOrg) this.mine = listing.keys ? { names: listing.keys.map((k) => k.name) } : undefined;
      this.store.updateSshKeys({
        loading: false,
        error: undefined,
        data: { keys: listing.keys, message: listing.message, includeOrg },
      });
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`SSH key list failed: ${message}`);
      this.store.updateSshKeys({ loading: false, error: message });
    }
  }

  /** List the user's own keys in the background (after each account check, and after add/remove). */
  prefetch(): Promise<void> {
    this.prefetching ??= (async () => {
      try {
        const listing = await (await this.api.client()).sshKeys({ includeOrg: false });
        this.mine = listing.keys ? { names: listing.keys.map((k) => k.name) } : undefined;
      } catch (e) {
        this.mine = undefined;
        this.log.info(`Saved SSH keys unavailable: ${errorMessage(e)}`);
      }
    })().finally(() => {
      this.prefetching = undefined;
    });
    return this.prefetching;
  }

  /** The user's own saved keys for the create wizard: the last listing, else listed now; undefined when
   *  they cannot be listed as records. */
  readonly savedForWizard = async (): Promise<SavedKeys | undefined> => {
    if (this.prefetching) await this.prefetching;
    if (!this.mine) await this.prefetch();
    return this.mine;
  };

  /** In the organisation listing, only the user's own keys can be removed. */
  isMine(k: SshKeyRow): boolean {
    const data = this.store.sshKeys.data;
    if (!data?.includeOrg || !k.owner) return true;
    const a = this.store.account;
    return a.kind === 'signedIn' && (k.owner === a.id || k.owner === a.label);
  }

  async showText(): Promise<void> {
    const text =
      this.store.sshKeys.data?.message ?? vscode.l10n.t('The service has not sent an SSH key list yet.');
    await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' }),
      { preview: true },
    );
  }
}
