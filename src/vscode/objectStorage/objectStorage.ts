/**
 * Object storage (organisation-wide, S3-compatible): its state in the store and the secret access key,
 * which lives only in SecretStorage. The commands (enable, rotate, disable, copy) are in
 * objectStorageActions.ts, loaded on first use. Nothing here puts the secret in a notification, the log,
 * the store or settings.
 */
import * as vscode from 'vscode';
import type { ObjectStorageCredentials } from '../../api/schemas';
import { isTensorPoolError, errorMessage } from '../../api/errors';
import type { SecretRegistry } from '../../api/redact';
import { maskSecret } from '../../model/mask';
import type { ApiService } from '../shared/apiService';
import { SingleFlight } from '../shared/listScope';
import type { Log } from '../shared/log';
import type { BucketInfo, PublicCredentials, Store } from '../shared/store';
import { SECRET_KEYS } from '../shared/storedState';
import { notices } from '../shared/notices';

const OBJECT_STORAGE_SECRET_KEY = SECRET_KEYS.objectStorage;

interface StoredSecret {
  readonly access_key_id: string;
  readonly secret_access_key: string;
}

function publicPart(c: ObjectStorageCredentials): PublicCredentials {
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

  current(): PublicCredentials | undefined {
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
      void notices.showErrorMessage(
        isTensorPoolError(e) && e.kind === 'not-found'
          ? vscode.l10n.t('Object storage is not enabled for your organisation.')
          : vscode.l10n.t('Could not read the object-storage credentials: {0}', errorMessage(e)),
      );
      return undefined;
    }
  }

  /** Read the credentials again from the service (S3 refused the ones we had: rotated elsewhere). */
  async freshCredentials(): Promise<ObjectStorageCredentials | undefined> {
    const fresh = await (await this.api.client()).objectStorageCredentials();
    await this.keepSecret(fresh);
    const s = this.store.objectStorage;
    if (s.kind !== 'enabled' || s.record.access_key_id !== fresh.access_key_id)
      this.store.setObjectStorage({
        kind: 'enabled',
        record: publicPart(fresh),
        buckets: s.kind === 'enabled' ? s.buckets : undefined,
      });
    return fresh;
  }

  /** After enable or rotate: keep the secret, show the new state. */
  async adopt(creds: ObjectStorageCredentials): Promise<void> {
    await this.keepSecret(creds);
    await this.loadBuckets(publicPart(creds));
  }

  /** After disable: the stored secret goes (still masked in anything in flight), the section says disabled. */
  async forget(): Promise<void> {
    const stored = await this.readSecret();
    await this.secretStorage.delete(OBJECT_STORAGE_SECRET_KEY);
    this.store.setObjectStorage({ kind: 'disabled' });
    if (stored) this.registry.add(stored.secret_access_key);
  }

  /** The stored secret's masked form, for display (undefined when none is stored). */
  async maskedSecret(): Promise<string | undefined> {
    const stored = await this.readSecret();
    return stored ? maskSecret(stored.secret_access_key) : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
