/**
 * Object storage (organisation-wide, S3-compatible): its state in the store, enable / rotate /
 * disable, and the secret access key, which lives only in SecretStorage. Nothing here
 * puts the secret in a notification, the log, the store or settings.
 */
import * as vscode from 'vscode';
import type { ObjectStorageCredentials } from '../api/schemas';
import { isTensorPoolError, errorMessage } from '../api/errors';
import type { SecretRegistry } from '../api/redact';
import { maskSecret } from '../model/mask';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import { Commands } from './commands';
import { SingleFlight } from './listScope';
import type { Log } from './log';
import type { BucketInfo, PublicCredentials, Store } from './store';
import { SECRET_KEYS } from './storedState';

const OBJECT_STORAGE_SECRET_KEY = SECRET_KEYS.objectStorage;

interface StoredSecret {
  readonly access_key_id: string;
  readonly secret_access_key: string;
}

export function publicPart(c: ObjectStorageCredentials): PublicCredentials {
  const { secret_access_key: _secret, ...rest } = c;
  return rest;
}

export class ObjectStorageController implements vscode.Disposable {
  private readonly flight = new SingleFlight(() => this.load());
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly secretStorage: vscode.SecretStorage,
    private readonly registry: SecretRegistry,
    private readonly log: Log,
    /** The prompter in force (tests swap in scripted answers). */
    private readonly prompter: () => Prompter,
  ) {
    // Register the stored secret for redaction as soon as we know it.
    void this.readSecret();
  }

  // ---- state -------------------------------------------------------------------------------------

  refresh(): Promise<void> {
    return this.flight.run();
  }

  clear(): void {
    this.store.setObjectStorage({ kind: 'unknown' });
  }

  private async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') {
      this.clear();
      return;
    }
    if (this.store.objectStorage.kind !== 'enabled') this.store.setObjectStorage({ kind: 'loading' });
    let creds: ObjectStorageCredentials;
    try {
      creds = await (await this.api.client()).objectStorageCredentials();
    } catch (e) {
      if (isTensorPoolError(e) && e.kind === 'not-found') {
        this.store.setObjectStorage({ kind: 'disabled' });
        return;
      }
      this.log.warn(`Object storage state unavailable: ${errorMessage(e)}`);
      this.store.setObjectStorage({ kind: 'error', message: errorMessage(e) });
      return;
    }
    await this.keepSecret(creds);
    await this.loadBuckets(publicPart(creds));
  }

  private async loadBuckets(record: PublicCredentials): Promise<void> {
    let buckets: readonly BucketInfo[] | undefined;
    let bucketsError: string | undefined;
    try {
      buckets = await (await this.api.client()).listBuckets();
    } catch (e) {
      bucketsError = errorMessage(e);
      this.log.warn(`Bucket list failed: ${bucketsError}`);
    }
    this.store.setObjectStorage({ kind: 'enabled', record, buckets, bucketsError });
  }

  private current(): PublicCredentials | undefined {
    const s = this.store.objectStorage;
    return s.kind === 'enabled' ? s.record : undefined;
  }

  // ---- the secret --------------------------------------------------------------------------------

  private async keepSecret(c: ObjectStorageCredentials): Promise<void> {
    this.registry.add(c.secret_access_key);
    const previous = await this.readSecret();
    if (previous?.secret_access_key === c.secret_access_key && previous.access_key_id === c.access_key_id)
      return;
    const value: StoredSecret = { access_key_id: c.access_key_id, secret_access_key: c.secret_access_key };
    await this.secretStorage.store(OBJECT_STORAGE_SECRET_KEY, JSON.stringify(value));
  }

  private async readSecret(): Promise<StoredSecret | undefined> {
    const raw = await this.secretStorage.get(OBJECT_STORAGE_SECRET_KEY);
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as StoredSecret;
      this.registry.add(parsed.secret_access_key);
      return parsed;
    } catch {
      return undefined;
    }
  }

  /** The full credentials: the public part from the store and the secret from SecretStorage, else fetched again. */
  async credentials(): Promise<ObjectStorageCredentials | undefined> {
    const record = this.current();
    const stored = await this.readSecret();
    if (record && stored && stored.access_key_id === record.access_key_id)
      return { ...record, secret_access_key: stored.secret_access_key };
    try {
      const fresh = await (await this.api.client()).objectStorageCredentials();
      await this.keepSecret(fresh);
      this.store.setObjectStorage({
        kind: 'enabled',
        record: publicPart(fresh),
        buckets: this.store.objectStorage.kind === 'enabled' ? this.store.objectStorage.buckets : undefined,
      });
      return fresh;
    } catch (e) {
      void vscode.window.showErrorMessage(
        isTensorPoolError(e) && e.kind === 'not-found'
          ? 'Object storage is not enabled for your organisation.'
          : `Could not read the object-storage credentials: ${errorMessage(e)}`,
      );
      return undefined;
    }
  }

  // ---- commands ----------------------------------------------------------------------------------

  async enable(): Promise<boolean> {
    const pick = await this.prompter().confirm({
      message: 'Enable TensorPool object storage?',
      modal: true,
      actions: ['Enable'],
      detail:
        'Object storage is S3-compatible and organisation-wide: everyone in your organisation shares the same credentials and buckets. Storage is billed to the organisation.',
    });
    if (pick !== 'Enable') return false;
    try {
      const creds = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Enabling object storage…' },
        async () => (await this.api.client()).enableObjectStorage(),
      );
      await this.keepSecret(creds);
      await this.loadBuckets(publicPart(creds));
      this.log.info(`Object storage enabled (access key id ${creds.access_key_id}).`);
      void vscode.window
        .showInformationMessage(
          `Object storage is enabled (access key ID ${creds.access_key_id}). The secret key is kept in VS Code's secret storage.`,
          'Show Credentials',
          'Configure AWS CLI',
        )
        .then((p) => {
          if (p === 'Show Credentials') void this.showDetails();
          if (p === 'Configure AWS CLI') void vscode.commands.executeCommand(Commands.configureAws);
        });
      return true;
    } catch (e) {
      void vscode.window
        .showErrorMessage(`Could not enable object storage: ${errorMessage(e)}`, 'Retry')
        .then((p) => {
          if (p) void this.enable();
        });
      await this.refresh();
      return false;
    }
  }

  /** The credentials as a list: values shown (the secret masked), select one to copy it. */
  async showDetails(): Promise<void> {
    const c = this.current();
    if (!c) return;
    const stored = await this.readSecret();
    type Row = vscode.QuickPickItem & { field: 'endpoint' | 'region' | 'access_key_id' | 'secret' };
    const rows: Row[] = [
      { label: 'Endpoint', description: c.endpoint, field: 'endpoint' },
      { label: 'Region', description: c.region, field: 'region' },
      { label: 'Access key ID', description: c.access_key_id, field: 'access_key_id' },
      {
        label: 'Secret access key',
        description: stored ? maskSecret(stored.secret_access_key) : '(fetched on copy)',
        detail: "Kept in VS Code's secret storage. Select to copy it to the clipboard.",
        field: 'secret',
      },
    ];
    const pick = await vscode.window.showQuickPick(rows, {
      title: `Object storage: ${c.status ?? 'enabled'}`,
      placeHolder: 'Select a value to copy it',
    });
    if (!pick) return;
    if (pick.field === 'secret') await this.copySecret();
    else await this.copy(pick.field);
  }

  async copy(field: 'endpoint' | 'region' | 'access_key_id'): Promise<void> {
    const c = this.current() ?? (await this.credentials());
    if (!c) return;
    await vscode.env.clipboard.writeText(c[field]);
    const name = field === 'access_key_id' ? 'access key ID' : field;
    vscode.window.setStatusBarMessage(`$(check) Copied the object-storage ${name}`, 3000);
  }

  async copySecret(): Promise<void> {
    const c = await this.credentials();
    if (!c) return;
    await vscode.env.clipboard.writeText(c.secret_access_key);
    void vscode.window.showInformationMessage(
      'The secret access key is on the clipboard. Paste it where it is needed and keep it private.',
    );
  }

  async rotate(onRotated?: () => Promise<void>): Promise<boolean> {
    const pick = await this.prompter().confirm({
      message: 'Rotate the object-storage keys?',
      modal: true,
      actions: ['Rotate Keys'],
      detail:
        'This is organisation-wide: the current access key and secret stop working at once for everyone in your organisation, including scripts and machines that use them. Profiles this extension configured can be updated right after.',
    });
    if (pick !== 'Rotate Keys') return false;
    try {
      const creds = await (await this.api.client()).rotateObjectStorageKeys();
      await this.keepSecret(creds);
      await this.loadBuckets(publicPart(creds));
      this.log.info(`Object-storage keys rotated (new access key id ${creds.access_key_id}).`);
      if (onRotated) await onRotated();
      else
        void vscode.window.showInformationMessage(
          "Object-storage keys rotated. The new secret is in VS Code's secret storage.",
        );
      return true;
    } catch (e) {
      void vscode.window.showErrorMessage(
        `Could not rotate the keys: ${errorMessage(e)}. The old keys may still be in force; refresh to check.`,
      );
      await this.refresh();
      return false;
    }
  }

  async disable(): Promise<boolean> {
    const pick = await this.prompter().confirm({
      message: 'Disable TensorPool object storage?',
      modal: true,
      actions: ['Disable'],
      detail:
        "Organisation-wide: the credentials stop working for everyone, and the service may delete the organisation's buckets and their data.",
    });
    if (pick !== 'Disable') return false;
    try {
      await (await this.api.client()).disableObjectStorage();
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not disable object storage: ${errorMessage(e)}`);
      await this.refresh();
      return false;
    }
    const stored = await this.readSecret();
    await this.secretStorage.delete(OBJECT_STORAGE_SECRET_KEY);
    this.store.setObjectStorage({ kind: 'disabled' });
    this.log.info('Object storage disabled; the stored secret was removed.');
    void vscode.window.showInformationMessage('Object storage is disabled.');
    if (stored) this.registry.add(stored.secret_access_key); // keep masking it in anything still in flight
    return true;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
