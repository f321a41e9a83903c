// The engine's object storage: a real S3-compatible server (s3rver, from npm) on loopback, so the
// credentials record's endpoint answers S3 for real (tests, `npm run demo`). Started by startEngine({ s3: true })
// (CLI --s3). The engine keeps it in step with its own state:
//   - the organisation's access key pair is the only one s3rver accepts (enable/rotate/disable change it;
//     s3rver's built-in S3RVER/S3RVER key is revoked), so keys rotated elsewhere get 403 InvalidAccessKeyId;
//   - buckets created/deleted through the TensorPool API are created/removed in the store;
//   - a bucket's object count (the API's `object_count`, the non-empty refusal) reads the store.
// s3rver 3.7 lacks two multipart calls the clients rely on; a small middleware in front adds them:
//   DELETE /<bucket>/<key>?uploadId=  AbortMultipartUpload (removes the parts, 204; 404 NoSuchUpload)
// GET /_engine/s3 (control surface) lists the pending multipart uploads, for tests that check none is left.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';

/** What the engine's state calls; all synchronous (the store is a directory tree). */
export interface ObjectStoreHooks {
  readonly endpoint: string;
  readonly region: string;
  /** The key pair s3rver accepts from now on (null: none, storage disabled). */
  setKeys(accessKeyId: string | null, secretAccessKey: string | null): void;
  createBucket(name: string): void;
  /** Removes the bucket and everything in it. */
  removeBucket(name: string): void;
  objectCount(name: string): number;
}

export interface PendingUpload {
  bucket: string;
  key: string;
  uploadId: string;
}

export interface RunningObjectStore extends ObjectStoreHooks {
  readonly directory: string;
  pendingUploads(): PendingUpload[];
  /** Every bucket and object gone (engine reset). */
  reset(): void;
  close(): Promise<void>;
}

const OBJECT_SUFFIX = '._S3rver_object';
const UPLOADS_DIR = '._S3rver_uploads';

interface Account {
  createKeyPair(id: string, secret: string): void;
  revokeAccessKey(id: string): void;
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  set(name: string, value: string): void;
}

export async function startObjectStore(
  opts: { host?: string; region?: string } = {},
): Promise<RunningObjectStore> {
  // s3rver (koa, winston, ...) is loaded only when object storage is wanted.
  const S3rver = require('s3rver') as new (o: object) => {
    middleware: Array<(ctx: KoaContext, next: () => Promise<void>) => Promise<void>>;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer?: { closeAllConnections(): void };
  };
  const AccountModule = require('s3rver/lib/models/account.js') as (new (
    id: number,
    name: string,
  ) => Account) & { DUMMY_ACCOUNT: Account };
  AccountModule.DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
  const account = new AccountModule(424242424242, 'TensorPool org_local');
  let currentKey: string | null = null;

  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-engine-s3-'));
  const host = opts.host ?? '127.0.0.1';
  const server = new S3rver({
    address: host,
    port: 0,
    silent: process.env.TP_S3_VERBOSE !== '1',
    directory,
    resetOnClose: false,
  });
  const bucketDir = (name: string): string => path.join(directory, name);
  const uploadDir = (bucket: string, id: string): string => path.join(bucketDir(bucket), UPLOADS_DIR, id);

  // Runs before s3rver's own middleware (koa composes app.middleware when the server starts).
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method === 'DELETE' && typeof uploadId === 'string' && /^[\w-]+$/.test(uploadId)) {
      const bucket = ctx.path.split('/')[1] ?? '';
      const dir = uploadDir(decodeURIComponent(bucket), uploadId);
      if (!fs.existsSync(dir)) {
        ctx.status = 404;
        ctx.set('Content-Type', 'application/xml');
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
        return;
      }
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  });

  const address = await server.run();
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  const endpoint = `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`;

  const countObjects = (dir: string): number => {
    let n = 0;
    for (const entry of safeReaddir(dir)) {
      if (entry.isDirectory()) {
        if (entry.name !== UPLOADS_DIR) n += countObjects(path.join(dir, entry.name));
      } else if (entry.name.endsWith(OBJECT_SUFFIX)) n++;
    }
    return n;
  };

  return {
    endpoint,
    region: opts.region ?? 'us-east-1',
    directory,
    setKeys(accessKeyId, secretAccessKey) {
      if (currentKey) account.revokeAccessKey(currentKey);
      currentKey = accessKeyId && secretAccessKey ? accessKeyId : null;
      if (accessKeyId && secretAccessKey) account.createKeyPair(accessKeyId, secretAccessKey);
    },
    createBucket(name) {
      fs.mkdirSync(bucketDir(name), { recursive: true });
    },
    removeBucket(name) {
      fs.rmSync(bucketDir(name), { recursive: true, force: true });
    },
    objectCount(name) {
      return countObjects(bucketDir(name));
    },
    pendingUploads() {
      const found: PendingUpload[] = [];
      for (const bucket of safeReaddir(directory)) {
        for (const upload of safeReaddir(path.join(directory, bucket.name, UPLOADS_DIR))) {
          let key = '';
          try {
            key = fs.readFileSync(path.join(directory, bucket.name, UPLOADS_DIR, upload.name, 'key'), 'utf8');
          } catch {
            // being written or removed right now
          }
          found.push({ bucket: bucket.name, key, uploadId: upload.name });
        }
      }
      return found;
    },
    reset() {
      for (const entry of safeReaddir(directory))
        fs.rmSync(path.join(directory, entry.name), { recursive: true, force: true });
      if (currentKey) account.revokeAccessKey(currentKey);
      currentKey = null;
    },
    async close() {
      if (currentKey) account.revokeAccessKey(currentKey);
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

function safeReaddir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
