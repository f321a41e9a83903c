/**
 * The object-storage commands: enable, rotate the keys, disable (each confirmed; organisation-wide), show
 * the credentials and copy a value. Loaded on first use (dist/actions.js); the state and the secret are
 * the ObjectStorageController's. The secret goes to the clipboard only when asked, never to a message.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { Commands } from '../../shared/commands';
import type { Log } from '../../shared/log';
import type { ObjectStorageController } from '../objectStorage';
import type { StorageNode } from '../objectStorageTree';
import { notices } from '../../shared/notices';

export class ObjectStorageActions {
  constructor(
    private readonly storage: ObjectStorageController,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
  ) {}

  async enable(): Promise<boolean> {
    const enable = vscode.l10n.t('Enable');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Enable TensorPool object storage?'),
      modal: true,
      actions: [enable],
      detail: vscode.l10n.t(
        'Object storage is S3-compatible and organisation-wide: everyone in your organisation shares the same credentials and buckets. Storage is billed to the organisation.',
      ),
    });
    if (pick !== enable) return false;
    try {
      const creds = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Enabling object storage…') },
        async () => (await this.api.client()).enableObjectStorage(),
      );
      await this.storage.adopt(creds);
      this.log.info(`Object storage enabled (access key id ${creds.access_key_id}).`);
      const show = vscode.l10n.t('Show Credentials');
      const configure = vscode.l10n.t('Configure AWS CLI');
      void notices
        .showInformationMessage(
          vscode.l10n.t(
            "Object storage is enabled (access key ID {0}). The secret key is kept in VS Code's secret storage.",
            creds.access_key_id,
          ),
          show,
          configure,
        )
        .then((p) => {
          if (p === show) void this.showDetails();
          if (p === configure) void vscode.commands.executeCommand(Commands.configureAws);
        });
      return true;
    } catch (e) {
      void notices
        .showErrorMessage(
          vscode.l10n.t('Could not enable object storage: {0}', errorMessage(e)),
          vscode.l10n.t('Retry'),
        )
        .then((p) => {
          if (p) void this.enable();
        });
      await this.storage.refresh();
      return false;
    }
  }

  /** The credentials as a list: values shown (the secret masked), select one to copy it. */
  async showDetails(): Promise<void> {
    const c = this.storage.current();
    if (!c) return;
    const masked = await this.storage.maskedSecret();
    type Row = vscode.QuickPickItem & { field: 'endpoint' | 'region' | 'access_key_id' | 'secret' };
    const rows: Row[] = [
      { label: vscode.l10n.t('Endpoint'), description: c.endpoint, field: 'endpoint' },
      { label: vscode.l10n.t('Region'), description: c.region, field: 'region' },
      { label: vscode.l10n.t('Access key ID'), description: c.access_key_id, field: 'access_key_id' },
      {
        label: vscode.l10n.t('Secret access key'),
        description: masked ?? vscode.l10n.t('(fetched on copy)'),
        detail: vscode.l10n.t("Kept in VS Code's secret storage. Select to copy it to the clipboard."),
        field: 'secret',
      },
    ];
    const pick = await vscode.window.showQuickPick(rows, {
      title: vscode.l10n.t('Object storage: {0}', c.status ?? vscode.l10n.t('enabled')),
      placeHolder: vscode.l10n.t('Select a value to copy it'),
    });
    if (!pick) return;
    if (pick.field === 'secret') await this.copySecret();
    else await this.copy(pick.field);
  }

  async copy(field: 'endpoint' | 'region' | 'access_key_id'): Promise<void> {
    const c = this.storage.current() ?? (await this.storage.credentials());
    if (!c) return;
    await vscode.env.clipboard.writeText(c[field]);
    const copied =
      field === 'access_key_id'
        ? vscode.l10n.t('$(check) Copied the object-storage access key ID')
        : field === 'endpoint'
          ? vscode.l10n.t('$(check) Copied the object-storage endpoint')
          : vscode.l10n.t('$(check) Copied the object-storage region');
    vscode.window.setStatusBarMessage(copied, 3000);
  }

  /** A field row's copy action: the secret through copySecret, the others with their status-bar note. */
  async copyValue(node?: StorageNode): Promise<void> {
    if (node?.kind !== 'field') return;
    if (node.field === 'secret') return this.copySecret();
    if (node.field === 'endpoint' || node.field === 'region' || node.field === 'access_key_id')
      return this.copy(node.field);
    await vscode.env.clipboard.writeText(node.value);
  }

  async copySecret(): Promise<void> {
    const c = await this.storage.credentials();
    if (!c) return;
    await vscode.env.clipboard.writeText(c.secret_access_key);
    void notices.showInformationMessage(
      vscode.l10n.t(
        'The secret access key is on the clipboard. Paste it where it is needed and keep it private.',
      ),
    );
  }

  async rotate(onRotated?: () => Promise<void>): Promise<boolean> {
    const rotate = vscode.l10n.t('Rotate Keys');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Rotate the object-storage keys?'),
      modal: true,
      actions: [rotate],
      detail: vscode.l10n.t(
        'This is organisation-wide: the current access key and secret stop working at once for everyone in your organisation, including scripts and machines that use them. Profiles this extension configured can be updated right after.',
      ),
    });
    if (pick !== rotate) return false;
    try {
      const creds = await (await this.api.client()).rotateObjectStorageKeys();
      await this.storage.adopt(creds);
      this.log.info(`Object-storage keys rotated (new access key id ${creds.access_key_id}).`);
      if (onRotated) await onRotated();
      else
        void notices.showInformationMessage(
          vscode.l10n.t("Object-storage keys rotated. The new secret is in VS Code's secret storage."),
        );
      return true;
    } catch (e) {
      void notices.showErrorMessage(
        vscode.l10n.t(
          'Could not rotate the keys: {0}. The old keys may still be in force; refresh to check.',
          errorMessage(e),
        ),
      );
      await this.storage.refresh();
      return false;
    }
  }

  async disable(): Promise<boolean> {
    const disable = vscode.l10n.t('Disable');
    const pick = await this.prompts().confirm({
      message: vscode.l10n.t('Disable TensorPool object storage?'),
      modal: true,
      actions: [disable],
      detail: vscode.l10n.t(
        "Organisation-wide: the credentials stop working for everyone, and the service may delete the organisation's buckets and their data.",
      ),
    });
    if (pick !== disable) return false;
    try {
      await (await this.api.client()).disableObjectStorage();
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Could not disable object storage: {0}', errorMessage(e)));
      await this.storage.refresh();
      return false;
    }
    await this.storage.forget();
    this.log.info('Object storage disabled; the stored secret was removed.');
    void notices.showInformationMessage(vscode.l10n.t('Object storage is disabled.'));
    return true;
  }
}
