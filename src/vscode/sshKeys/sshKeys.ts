/**
 * Saved SSH keys: the list (GET /user/ssh-key/list, Mine / Organisation, single-flight, last good answer
 * kept on error) as a ViewedList like the other sections, and which keys new clusters will get, for the
 * create wizard. Saved keys change only when someone adds or removes one, so the list refreshes on demand
 * (when shown, on sign-in, after add/remove, Refresh), never on a timer. Adding and removing a key are
 * commands (sshKeyActions.ts), loaded on first use.
 */
import { errorMessage } from '../../api/errors';
import type { SavedSshKey } from '../../api/sshKeys';
import type { LocalKey } from '../../wizards/createCluster';
import type { SavedKeys } from '../../wizards/savedKeys';
import type { ApiService } from '../shared/apiService';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import { ViewedList, type ApiClient } from '../shared/viewedList';

export interface LocalKeySource {
  readonly list: () => Promise<LocalKey[]>;
  readonly generate: () => Promise<LocalKey>;
}

export interface SshKeyData {
  /** Undefined when the server sent its text table only. */
  readonly keys: readonly SavedSshKey[] | undefined;
  readonly message: string | undefined;
  readonly includeOrg: boolean;
}

export class SshKeysController extends ViewedList<SshKeyData> {
  /** The user's own saved keys as last listed (for the create wizard, so its key step sends nothing). */
  private mine: SavedKeys | undefined;
  private prefetching: Promise<void> | undefined;

  constructor(store: Store, api: ApiService, state: StoredState, log: Log) {
    super(store, api, state, 'tensorpool.sshKeysIncludeOrg', log, 'SSH key');
  }

  protected async fetch(client: ApiClient, includeOrg: boolean): Promise<SshKeyData> {
    const listing = await client.sshKeys({ includeOrg });
    if (!includeOrg) this.mine = listing.keys ? { names: listing.keys.map((k) => k.name) } : undefined;
    return { keys: listing.keys, message: listing.message, includeOrg };
  }

  protected busy(): boolean {
    return false;
  }

  /** On demand only (see above): no automatic refresh is armed. */
  override nextDelay(): number | undefined {
    return undefined;
  }

  override clear(): void {
    this.mine = undefined;
    super.clear();
  }

  /** Also the user's own keys, for the create wizard, in the background. */
  override signedIn(): void {
    super.signedIn();
    void this.prefetch();
  }

  /** List the user's own keys in the background (after each sign-in, and after add/remove). */
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
  isMine(k: SavedSshKey): boolean {
    if (!this.data?.includeOrg || !k.owner) return true;
    const a = this.store.account;
    return a.kind === 'signedIn' && (k.owner === a.id || k.owner === a.label);
  }
}
