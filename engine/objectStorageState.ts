// Object storage (spec "Object storage"): one credentials record per organisation (this engine has
// one organisation) and its buckets. With `--s3` the keys and buckets are mirrored into the engine's
// real S3 server (engine/objectStore.ts) so the credentials work there.

import { hex, iso, randomKey, refuse, type Outcome } from './ids';
import type { ObjectStoreHooks } from './objectStore';
import { objectCount, type Bucket, type ObjectStorageRecord, type User } from './types';

const STORAGE_ENDPOINT = 'https://storage.tensorpool.local';
const STORAGE_REGION = 'us-east-1';

export class ObjectStorageState {
  private storage: ObjectStorageRecord | null = null;
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly objectStore: ObjectStoreHooks | undefined) {}

  storageRecord(user: User): ObjectStorageRecord | null {
    return this.storage && this.storage.org_id === user.orgId ? this.storage : null;
  }

  /** Idempotent: enabling again returns the existing record unchanged. */
  enableStorage(user: User, now: number): { record: ObjectStorageRecord; created: boolean } {
    const existing = this.storageRecord(user);
    if (existing) return { record: existing, created: false };
    const at = iso(now);
    this.storage = {
      org_id: user.orgId,
      ...newKeys(),
      endpoint: this.objectStore?.endpoint ?? STORAGE_ENDPOINT,
      region: this.objectStore?.region ?? STORAGE_REGION,
      profile_id: `osp_${hex(8)}`,
      iam_username: `tp-${user.orgId.replace(/_/g, '-')}`,
      status: 'ACTIVE',
      created_at: at,
      updated_at: at,
    };
    this.objectStore?.setKeys(this.storage.access_key_id, this.storage.secret_access_key);
    return { record: this.storage, created: true };
  }

  rotateStorageKeys(user: User, now: number): ObjectStorageRecord | null {
    const record = this.storageRecord(user);
    if (!record) return null;
    Object.assign(record, newKeys(), { updated_at: iso(Math.max(now, Date.parse(record.updated_at) + 1)) });
    this.objectStore?.setKeys(record.access_key_id, record.secret_access_key);
    return record;
  }

  /** Disabling removes the credentials and every bucket of the organisation. */
  disableStorage(user: User): boolean {
    if (!this.storageRecord(user)) return false;
    this.storage = null;
    for (const name of this.buckets.keys()) this.objectStore?.removeBucket(name);
    this.buckets.clear();
    this.objectStore?.setKeys(null, null);
    return true;
  }

  listBuckets(): Bucket[] {
    return [...this.buckets.values()];
  }

  getBucket(name: string): Bucket | undefined {
    return this.buckets.get(name);
  }

  createBucket(name: string, now: number): Outcome<Bucket> {
    if (this.buckets.has(name)) return refuse(409, `Bucket '${name}' already exists`);
    const store = this.objectStore;
    const bucket: Bucket = { name, createdMs: now, objects: new Set() };
    if (store) {
      store.createBucket(name);
      bucket.storedObjects = () => store.objectCount(name);
    }
    this.buckets.set(name, bucket);
    return { ok: true, value: bucket };
  }

  deleteBucket(name: string): Outcome<Bucket> {
    const bucket = this.buckets.get(name);
    if (!bucket) return refuse(404, `Bucket '${name}' not found`);
    const count = objectCount(bucket);
    if (count > 0) {
      return refuse(
        409,
        `Bucket '${name}' is not empty (${count} object${count === 1 ? '' : 's'}); delete its objects first`,
      );
    }
    this.objectStore?.removeBucket(name);
    this.buckets.delete(name);
    return { ok: true, value: bucket };
  }
}

function newKeys(): { access_key_id: string; secret_access_key: string } {
  return {
    access_key_id: 'TPAK' + randomKey('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16),
    secret_access_key: randomKey('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 40),
  };
}
