/**
 * What the Object Storage view shows inside a bucket: its folders and objects a page at a time (Load more),
 * under an optional prefix filter per bucket. The S3 layer loads on the first expansion (lazyS3.ts). The
 * credentials come from the ObjectStorageController (secret from SecretStorage); a 403 re-reads them once
 * (S3Session), and if the keys still fail the bucket says so with a refresh action.
 */
import * as vscode from 'vscode';
import type { S3Credentials, S3Object, S3Session } from '../../../s3';
import { loadApi } from '../../shared/lazyApi';
import { loadS3 } from './lazyS3';
import type { Log } from '../../shared/log';
import type { ObjectStorageCredentials } from '../../../api/schemas';

/** Where the bucket browser gets the organisation's S3 keys (the Object Storage section's controller). */
export interface CredentialSource {
  credentials(): Promise<ObjectStorageCredentials | undefined>;
  /** Read again from the service (after a 403: the keys were rotated). */
  freshCredentials(): Promise<ObjectStorageCredentials | undefined>;
}
import { readProxySettings } from '../../shared/settings';
import { notices } from '../../shared/notices';

export type BrowseNode =
  | { readonly kind: 'folder'; readonly bucket: string; readonly prefix: string }
  | { readonly kind: 'object'; readonly bucket: string; readonly object: S3Object }
  | { readonly kind: 'more'; readonly bucket: string; readonly prefix: string }
  | {
      readonly kind: 'browseError';
      readonly bucket: string;
      readonly prefix: string;
      readonly message: string;
      readonly keysRejected: boolean;
    };

interface Listing {
  folders: string[];
  objects: S3Object[];
  next?: string;
}

export class BucketBrowser implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  /** Fired when a listing changed (the view reloads the rows). */
  readonly onDidChange = this.emitter.event;
  private readonly listings = new Map<string, Listing>();
  private readonly filters = new Map<string, string>();
  private session?: Promise<S3Session>;
  pageSize: number | undefined;

  constructor(
    private readonly storage: CredentialSource,
    private readonly log: Log,
  ) {}

  /** The S3 session for the current credentials (made on first use). */
  s3(): Promise<S3Session> {
    this.session ??= Promise.all([loadS3(), loadApi()]).then(async ([s3, api]) => {
      // Strict TLS, the operating system's certificates and the proxy as for the API (http.proxy, noProxy,
      // proxyAuthorization, systemCertificates), for the endpoint of the credentials in use.
      return new s3.S3Session(
        (fresh) => this.credentials(fresh),
        async (creds) => {
          const o = await api.nodeClientOptions(creds.endpoint, readProxySettings());
          return { strictSSL: o.rejectUnauthorized, ca: o.ca, proxy: o.proxy };
        },
      );
    });
    return this.session;
  }

  private async credentials(fresh: boolean): Promise<S3Credentials> {
    const c = fresh ? await this.storage.freshCredentials() : await this.storage.credentials();
    if (!c) throw new Error(vscode.l10n.t('The object-storage credentials are not available.'));
    return {
      endpoint: c.endpoint,
      region: c.region,
      accessKeyId: c.access_key_id,
      secretAccessKey: c.secret_access_key,
    };
  }

  filterOf(bucket: string): string {
    return this.filters.get(bucket) ?? '';
  }

  setFilter(bucket: string, prefix: string): void {
    if (prefix) this.filters.set(bucket, prefix);
    else this.filters.delete(bucket);
    this.invalidate(bucket);
  }

  /** The rows under a bucket (prefix '') or a folder. */
  async children(bucket: string, prefix: string): Promise<BrowseNode[]> {
    const effective = prefix === '' ? this.filterOf(bucket) : prefix;
    const id = `${bucket}\n${prefix}`;
    let listing = this.listings.get(id);
    try {
      if (!listing) {
        listing = await this.page(bucket, effective);
        this.listings.set(id, listing);
      }
    } catch (e) {
      return [await this.errorRow(bucket, prefix, e)];
    }
    const rows: BrowseNode[] = [
      ...listing.folders.map((p) => ({ kind: 'folder' as const, bucket, prefix: p })),
      ...listing.objects.map((object) => ({ kind: 'object' as const, bucket, object })),
    ];
    if (listing.next) rows.push({ kind: 'more', bucket, prefix });
    return rows;
  }

  async loadMore(bucket: string, prefix: string): Promise<void> {
    const id = `${bucket}\n${prefix}`;
    const listing = this.listings.get(id);
    if (!listing?.next) return;
    try {
      const more = await this.page(bucket, prefix === '' ? this.filterOf(bucket) : prefix, listing.next);
      listing.folders.push(...more.folders);
      listing.objects.push(...more.objects);
      listing.next = more.next;
    } catch (e) {
      void notices.showErrorMessage(
        vscode.l10n.t('Could not list more of {0}: {1}', bucket, await this.message(e)),
      );
    }
    this.emitter.fire();
  }

  private async page(bucket: string, prefix: string, continuation?: string): Promise<Listing> {
    const s3 = await loadS3();
    const session = await this.s3();
    const page = await session.run((c) =>
      s3.listPage(c, bucket, prefix, { continuation, pageSize: this.pageSize }),
    );
    return { folders: page.folders, objects: page.objects, next: page.next };
  }

  private async errorRow(bucket: string, prefix: string, e: unknown): Promise<BrowseNode> {
    const s3 = await loadS3();
    const keysRejected = e instanceof s3.KeysRejectedError;
    const message = await this.message(e);
    this.log.warn(`Listing ${bucket}/${prefix} failed: ${message}`);
    return { kind: 'browseError', bucket, prefix, message, keysRejected };
  }

  async message(e: unknown): Promise<string> {
    return (await loadS3()).s3ErrorMessage(e);
  }

  /** Forget the listings of a bucket (all of them without one) so the next expansion lists again. */
  invalidate(bucket?: string): void {
    for (const id of [...this.listings.keys()])
      if (!bucket || id.startsWith(`${bucket}\n`)) this.listings.delete(id);
    this.emitter.fire();
  }

  dispose(): void {
    void this.session?.then((s) => s.dispose());
    this.emitter.dispose();
  }
}
