/**
 * Downloads of an object or a whole folder (prefix) into a local folder: each object streams to a temp file
 * beside its target (`.<name>.<random>.part`) and is renamed over it only once complete, so no half-written
 * file ever has the final name; a key whose path would leave the folder (`..`, absolute, NUL) is refused,
 * never written (src/api/downloads.ts safeOutputPath). Several objects go in parallel; a cancel stops them
 * and removes their temp files.
 */
import * as l10n from '@vscode/l10n';
import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, opendir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { safeOutputPath } from '../api/downloads';
import { KeysRejectedError, isAbort, s3ErrorMessage } from './errors';
import { signedGets, type Get } from './gets';
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

/** A large object is fetched in ranges of this size, RANGE_QUEUE at a time, written at their offsets. */
const RANGE_SIZE = 16 * 1024 * 1024;
const RANGE_QUEUE = 4;

type GetOptions = {
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
  made?: Set<string>;
  size?: number;
  gets?: Get;
  /** Names the temp files of one download apart (random, then a counter). */
  temp?: () => string;
};

/** Received bytes are written in batches of up to this size (fewer writes; memory stays bounded). */
const WRITE_BATCH = 1024 * 1024;

/**
 * Write `bufs` at `at` with one pwritev (no copy into one buffer); a short write goes on with the rest. Returns
 * the bytes written: fewer than given only if a write wrote nothing, which the callers report as short.
 */
async function writeAll(fh: FileHandle, bufs: Buffer[], at: number): Promise<number> {
  let rest = bufs;
  let total = 0;
  for (;;) {
    const { bytesWritten } = await fh.writev(rest, at + total);
    if (!bytesWritten) return total;
    total += bytesWritten;
    let skip = bytesWritten;
    let i = 0;
    while (i < rest.length && skip >= rest[i].length) skip -= rest[i++].length;
    if (i === rest.length) return total;
    rest = [rest[i].subarray(skip), ...rest.slice(i + 1)];
  }
}

/** GET `key` (or bytes start..end) into the open file at `start`; returns the bytes written. */
async function getInto(
  client: S3Client,
  bucket: string,
  key: string,
  fh: FileHandle,
  start: number,
  end: number | undefined,
  opts: GetOptions & { gets: Get },
): Promise<{ written: number; length?: number }> {
  const input = { Bucket: bucket, Key: key, Range: end === undefined ? undefined : `bytes=${start}-${end}` };
  const out = await opts.gets(client, input);
  let at = start;
  let batch: Buffer[] = [];
  let batched = 0;
  const flush = async (): Promise<void> => {
    if (!batched) return;
    const bufs = batch;
    batch = [];
    batched = 0;
    at += await writeAll(fh, bufs, at);
  };
  for await (const chunk of out.Body as Readable) {
    const buf = chunk as Buffer;
    batch.push(buf);
    batched += buf.length;
    opts.onBytes?.(buf.length);
    if (batched >= WRITE_BATCH) await flush();
  }
  await flush();
  return { written: at - start, length: out.ContentLength };
}

/** Temp names `<random>-<n>`: random per download, so two downloads into one folder never meet. */
function tempNames(): () => string {
  const run = randomBytes(4).toString('hex');
  let n = 0;
  return () => `${run}-${(n++).toString(36)}`;
}

/** Stream one object to `target` through a temp file renamed into place (a large one in parallel ranges). */
export async function downloadTo(
  client: S3Client,
  bucket: string,
  key: string,
  target: string,
  opts: GetOptions = {},
): Promise<void> {
  const parent = dirname(target);
  if (!opts.made?.has(parent)) {
    await mkdir(parent, { recursive: true });
    opts.made?.add(parent);
  }
  const o = { ...opts, gets: opts.gets ?? signedGets(opts.signal) };
  const temp = join(parent, `.${basename(target)}.${(opts.temp ?? tempNames())()}.part`);
  let fh: FileHandle | undefined;
  try {
    fh = await open(temp, 'wx', 0o644);
    const size = opts.size ?? 0;
    if (size > 2 * RANGE_SIZE) {
      let next = 0;
      const ranges = Math.ceil(size / RANGE_SIZE);
      const file = fh;
      const worker = async (): Promise<void> => {
        while (next < ranges && !opts.signal?.aborted) {
          const start = next++ * RANGE_SIZE;
          const end = Math.min(size, start + RANGE_SIZE) - 1;
          const got = await getInto(client, bucket, key, file, start, end, o);
          if (got.written !== end - start + 1) throw new Error(l10n.t('{0}: a range came back short', key));
        }
      };
      await Promise.all(Array.from({ length: RANGE_QUEUE }, worker));
      if (opts.signal?.aborted)
        throw Object.assign(new Error(l10n.t('Download cancelled.')), { name: 'AbortError' });
    } else {
      const got = await getInto(client, bucket, key, fh, 0, undefined, o);
      if (got.length !== undefined && got.written !== got.length)
        throw new Error(l10n.t('{0}: received {1} of {2} bytes', key, got.written, got.length));
    }
    await fh.close();
    fh = undefined;
    await rename(temp, target);
  } catch (e) {
    await fh?.close().catch(() => undefined);
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
  const sizes = new Map(objects.map((o) => [o.key, o.size]));
  const { todo, refused } = planDownload(objects, keyOrPrefix, folder);
  result.refused.push(...refused);
  let next = 0;
  const made = new Set<string>();
  const gets = signedGets(opts.signal);
  const temp = tempNames();
  const exists = inTheWay();
  const worker = async (): Promise<void> => {
    while (next < todo.length && !opts.signal?.aborted) {
      const item = todo[next++];
      try {
        if (!opts.overwrite && (await exists(item.path))) {
          result.skipped.push(item.path);
          continue;
        }
        await session.run((c) =>
          downloadTo(c, bucket, item.key, item.path, {
            ...opts,
            made,
            gets,
            temp,
            size: sizes.get(item.key),
          }),
        );
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

/**
 * Whether something is in the way at a path: in a folder that was absent or empty when first looked at,
 * nothing (one look per folder instead of an lstat per file: most downloads go to a new folder); elsewhere,
 * lstat. The temp files and the files of this download itself come later and do not count.
 */
function inTheWay(): (path: string) => Promise<boolean> {
  const emptyAtStart = new Map<string, Promise<boolean>>();
  const isEmpty = async (dir: string): Promise<boolean> => {
    try {
      const d = await opendir(dir);
      try {
        return (await d.read()) === null;
      } finally {
        await d.close();
      }
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT';
    }
  };
  return async (path) => {
    const dir = dirname(path);
    let empty = emptyAtStart.get(dir);
    if (!empty) emptyAtStart.set(dir, (empty = isEmpty(dir)));
    if (await empty) return false;
    return lstat(path).then(
      () => true,
      () => false,
    );
  };
}
