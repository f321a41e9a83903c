/**
 * Downloads of an object or a whole folder (prefix) into a local folder: each object streams to a temp file
 * beside its target (`.<name>.<random>.part`) and is renamed over it only once complete, so no half-written
 * file ever has the final name; a key whose path would leave the folder (`..`, absolute, NUL) is refused,
 * never written (src/api/downloads.ts safeOutputPath). Several objects go in parallel; a cancel stops them
 * and removes their temp files.
 */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeOutputPath } from '../api/downloads';
import { KeysRejectedError, isAbort, s3ErrorMessage } from './errors';
import { baseName, listAll, type S3Object } from './list';
import type { S3Session } from './session';

export interface DownloadManyOptions {
  readonly signal?: AbortSignal;
  readonly concurrency?: number;
  /** Bytes received since the last call. */
  readonly onBytes?: (n: number) => void;
  /** Replace files that exist (default false: kept, reported skipped). */
  readonly overwrite?: boolean;
}

export interface DownloadOutcome {
  readonly written: string[];
  readonly skipped: string[];
  readonly refused: { key: string; reason: string }[];
  readonly failed: { key: string; error: string }[];
  readonly cancelled: boolean;
}

/** Stream one object to `target` through a temp file renamed into place. */
export async function downloadTo(
  client: S3Client,
  bucket: string,
  key: string,
  target: string,
  opts: { signal?: AbortSignal; onBytes?: (n: number) => void; made?: Set<string> } = {},
): Promise<void> {
  const parent = dirname(target);
  if (!opts.made?.has(parent)) {
    await mkdir(parent, { recursive: true });
    opts.made?.add(parent);
  }
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }), {
      abortSignal: opts.signal,
    });
    const body = out.Body as Readable;
    let received = 0;
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      opts.onBytes?.(chunk.length);
    });
    await pipeline(body, createWriteStream(temp, { flags: 'wx', mode: 0o644 }), { signal: opts.signal });
    if (out.ContentLength !== undefined && received !== out.ContentLength)
      throw new Error(`${key}: received ${received} of ${out.ContentLength} bytes`);
    await rename(temp, target);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}

/** The local path (relative to the chosen folder) of each object: a folder keeps its own name on top. */
export function localNames(objects: readonly S3Object[], prefix: string): { key: string; rel: string }[] {
  if (!prefix.endsWith('/')) return objects.map((o) => ({ key: o.key, rel: baseName(o.key) }));
  const top = baseName(prefix);
  return objects
    .filter((o) => !o.key.endsWith('/'))
    .map((o) => ({ key: o.key, rel: `${top}/${o.key.slice(prefix.length)}` }));
}

/** Where each object goes in `folder`; keys that would land outside it are refused. */
export function planDownload(
  objects: readonly S3Object[],
  keyOrPrefix: string,
  folder: string,
): { todo: { key: string; path: string }[]; refused: { key: string; reason: string }[] } {
  const todo: { key: string; path: string }[] = [];
  const refused: { key: string; reason: string }[] = [];
  for (const { key, rel } of localNames(objects, keyOrPrefix)) {
    const safe = safeOutputPath(folder, rel);
    if ('reason' in safe) refused.push({ key, reason: safe.reason });
    else todo.push({ key, path: safe.path });
  }
  return { todo, refused };
}

/** Download the object `keyOrPrefix`, or everything under it when it ends in `/`, into `folder`. */
export async function downloadMany(
  session: S3Session,
  bucket: string,
  keyOrPrefix: string,
  folder: string,
  opts: DownloadManyOptions = {},
): Promise<DownloadOutcome> {
  const result: DownloadOutcome = { written: [], skipped: [], refused: [], failed: [], cancelled: false };
  const objects = keyOrPrefix.endsWith('/')
    ? await session.run((c) => listAll(c, bucket, keyOrPrefix, opts.signal))
    : [{ key: keyOrPrefix, size: 0 }];
  const { todo, refused } = planDownload(objects, keyOrPrefix, folder);
  result.refused.push(...refused);
  let next = 0;
  const made = new Set<string>();
  const worker = async (): Promise<void> => {
    while (next < todo.length && !opts.signal?.aborted) {
      const item = todo[next++];
      try {
        if (!opts.overwrite && (await exists(item.path))) {
          result.skipped.push(item.path);
          continue;
        }
        await session.run((c) => downloadTo(c, bucket, item.key, item.path, { ...opts, made }));
        result.written.push(item.path);
      } catch (e) {
        if (isAbort(e, opts.signal)) return;
        if (e instanceof KeysRejectedError) throw e;
        result.failed.push({ key: item.key, error: s3ErrorMessage(e) });
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 16, todo.length)) }, worker),
  );
  return { ...result, cancelled: opts.signal?.aborted === true };
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
