/**
 * Add SSH Key… and Remove SSH Key… (loaded with the other commands on first use, see actions.ts). A key
 * is checked locally before any request (a private key is refused and never logged); removing one asks
 * for a modal confirmation. The list itself is kept by SshKeysController (sshKeys.ts).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { runAddSshKeyWizard } from '../../../wizards/addSshKey';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { Log } from '../../shared/log';
import type { LocalKeySource, SshKeysController } from '../sshKeys';
import type { SavedSshKey } from '../../../api/sshKeys';
import { notices } from '../../shared/notices';

export class SshKeyActions {
  constructor(
    private readonly keys: SshKeysController,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    private readonly localKeys: LocalKeySource,
  ) {}

  /** Add SSH Key…: returns the fingerprint added, or undefined (cancelled, refused, failed). */
  async add(): Promise<string | undefined> {
    const shown = this.keys.data;
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
      void notices.showInformationMessage(
        answer.message?.trim() ||
          vscode.l10n.t('SSH key {0} added to your TensorPool account.', chosen.key.fingerprint),
      );
      void this.keys.refresh().then(() => this.keys.prefetch());
      return chosen.key.fingerprint;
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`SSH key add failed: ${message}`);
      void notices.showErrorMessage(vscode.l10n.t('Could not add the SSH key: {0}', message));
      return undefined;
    }
  }

  /** Remove SSH Key…: from a tree row, a key id, or a pick. Returns whether it was removed. */
  async remove(arg?: unknown): Promise<boolean> {
    const key = await this.resolve(arg);
    if (!key?.id) return false;
    const remove = vscode.l10n.t('Remove');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Remove the SSH key "{0}" from your TensorPool account?', key.name),
      detail: key.fingerprint
        ? vscode.l10n.t(
            'New clusters will no longer get this key ({0}). Clusters that already have it keep it until they are destroyed.',
            key.fingerprint,
          )
        : vscode.l10n.t(
            'New clusters will no longer get this key. Clusters that already have it keep it until they are destroyed.',
          ),
      actions: [remove],
      modal: true,
      severity: 'warning',
    });
    if (pick !== remove) return false;
    try {
      const answer = await (await this.api.client()).removeSshKey(key.id);
      this.log.info(`SSH key ${key.id} removed.`);
      void notices.showInformationMessage(
        answer.message?.trim() || vscode.l10n.t('SSH key "{0}" removed.', key.name),
      );
      void this.keys.refresh().then(() => this.keys.prefetch());
      return true;
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`SSH key remove failed: ${message}`);
      void notices.showErrorMessage(
        vscode.l10n.t('Could not remove the SSH key "{0}": {1}', key.name, message),
      );
      return false;
    }
  }

  private async resolve(arg: unknown): Promise<SavedSshKey | undefined> {
    if (arg && typeof arg === 'object' && 'key' in arg) return (arg as { key: SavedSshKey }).key;
    if (!this.keys.data) await this.keys.refresh();
    const keys = (this.keys.data?.keys ?? []).filter((k) => k.id && this.keys.isMine(k));
    if (typeof arg === 'string') return keys.find((k) => k.id === arg || k.name === arg);
    if (keys.length === 0) {
      void notices.showInformationMessage(vscode.l10n.t('No saved SSH key of yours to remove.'));
      return undefined;
    }
    const picked = await this.prompts().pick<SavedSshKey>({
      title: vscode.l10n.t('Remove SSH Key'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Which saved key?'),
      items: keys.map((k) => ({ label: k.name, description: k.fingerprint, value: k })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }
}
