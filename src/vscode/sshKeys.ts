/**
 * Saved SSH keys: loads GET /user/ssh-key/list into the store (Mine / Organisation like the clusters),
 * adds a key after checking it locally (a private key is refused before any request and never
 * logged), removes one after a modal confirmation, and tells the create wizard which keys new clusters
 * will get. One request per refresh; nothing is requested while signed out.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../api/errors';
import { runAddSshKeyWizard } from '../wizards/addSshKey';
import type { LocalKey } from '../wizards/createCluster';
import type { Prompter } from '../wizards/prompter';
import type { SavedKeys } from '../wizards/savedKeys';
import type { ApiService } from './apiService';
import { ScopedList } from './listScope';
import type { Log } from './log';
import type { SshKeyRow, Store } from './store';
import type { StoredState } from './storedState';

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
    private readonly prompts: () => Prompter,
    private readonly localKeys: LocalKeySource,
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

  /** Add SSH Key…: returns the fingerprint added, or undefined (cancelled, refused, failed). */
  async add(): Promise<string | undefined> {
    const shown = this.store.sshKeys.data;
    const chosen = await runAddSshKeyWizard({
      prompter: this.prompts(),
      localKeys: this.localKeys.list,
      generateKey: this.localKeys.generate,
      savedFingerprints: () =>
        (shown?.keys ?? []).map((k) => k.fingerprint).filter((f): f is string => f !== undefined),
    });
    if (!chosen) return undefined;
    try {
      const answer = await (
        await this.api.client()
      ).addSshKey({
        public_key: chosen.key.line,
        ...(chosen.name ? { name: chosen.name } : {}),
      });
      this.log.info(`SSH key added (${chosen.key.type} ${chosen.key.fingerprint}).`);
      void vscode.window.showInformationMessage(
        answer.message?.trim() || `SSH key ${chosen.key.fingerprint} added to your TensorPool account.`,
      );
      void this.refresh().then(() => this.prefetch());
      return chosen.key.fingerprint;
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`SSH key add failed: ${message}`);
      void vscode.window.showErrorMessage(`Could not add the SSH key: ${message}`);
      return undefined;
    }
  }

  /** Remove SSH Key…: from a tree row, a key id, or a pick. Returns whether it was removed. */
  async remove(arg?: unknown): Promise<boolean> {
    const key = await this.resolve(arg);
    if (!key?.id) return false;
    const fingerprint = key.fingerprint ? ` (${key.fingerprint})` : '';
    const pick = await this.prompts().confirm({
      message: `Remove the SSH key "${key.name}" from your TensorPool account?`,
      detail: `New clusters will no longer get this key${fingerprint}. Clusters that already have it keep it until they are destroyed.`,
      actions: ['Remove'],
      modal: true,
      severity: 'warning',
    });
    if (pick !== 'Remove') return false;
    try {
      const answer = await (await this.api.client()).removeSshKey(key.id);
      this.log.info(`SSH key ${key.id} removed.`);
      void vscode.window.showInformationMessage(answer.message?.trim() || `SSH key "${key.name}" removed.`);
      void this.refresh().then(() => this.prefetch());
      return true;
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`SSH key remove failed: ${message}`);
      void vscode.window.showErrorMessage(`Could not remove the SSH key "${key.name}": ${message}`);
      return false;
    }
  }

  private async resolve(arg: unknown): Promise<SshKeyRow | undefined> {
    if (arg && typeof arg === 'object' && 'key' in arg) return (arg as { key: SshKeyRow }).key;
    if (!this.store.sshKeys.data) await this.refresh();
    const keys = (this.store.sshKeys.data?.keys ?? []).filter((k) => k.id && this.isMine(k));
    if (typeof arg === 'string') return keys.find((k) => k.id === arg || k.name === arg);
    if (keys.length === 0) {
      void vscode.window.showInformationMessage('No saved SSH key of yours to remove.');
      return undefined;
    }
    const picked = await this.prompts().pick<SshKeyRow>({
      title: 'Remove SSH Key',
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: 'Which saved key?',
      items: keys.map((k) => ({ label: k.name, description: k.fingerprint, value: k })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }

  /** In the organisation listing, only the user's own keys can be removed. */
  isMine(k: SshKeyRow): boolean {
    const data = this.store.sshKeys.data;
    if (!data?.includeOrg || !k.owner) return true;
    const a = this.store.account;
    return a.kind === 'signedIn' && (k.owner === a.id || k.owner === a.label);
  }

  async showText(): Promise<void> {
    const text = this.store.sshKeys.data?.message ?? 'The service has not sent an SSH key list yet.';
    await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' }),
      { preview: true },
    );
  }
}
