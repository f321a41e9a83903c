/**
 * Uploads: a file at or under PART_SIZE in one PUT, a larger one in parallel multipart parts read straight
 * from the file. A cancel (the AbortSignal) or a failed part stops the other parts, waits for them to end,
 * then aborts the multipart upload, so no parts are left behind on the server; only then does the call
 * reject. Several files go in parallel (uploadFiles); existing keys are asked about once per key.
 */
import * as l10n from '@vscode/l10n';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { KeysRejectedError, isAbort, s3ErrorMessage } from './errors';
import { listAll } from './list';
import type { S3Session } from './session';

export const PART_SIZE = 16 * 1024 * 1024;
const PART_QUEUE = 6;

export interface UploadItem {
  readonly file: string;
  readonly key: string;
  readonly size: number;
}

export interface FileUploadOptions {
  readonly signal?: AbortSignal;
  /** Bytes sent since the last call. */
  readonly onBytes?: (n: number) => void;
  readonly partSize?: number;
  readonly queueSize?: number;
}

async function readRange(file: string, start: number, length: number): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await fh.read(buf, done, length - done, start + done);
      if (bytesRead === 0) throw new Error(l10n.t('{0} became shorter while it was uploaded', file));
      done += bytesRead;
    }
    return buf;
  } finally {
    await fh.close();
  }
}

export async function uploadFile(
  client: S3Client,
  bucket: string,
  item: UploadItem,
  opts: FileUploadOptions = {},
): Promise<void> {
  const partSize = opts.partSize ?? PART_SIZE;
  if (opts.signal?.aborted) throw abortError();
  if (item.size <= partSize) {
    const body = await readRange(item.file, 0, item.size);
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: item.key, Body: body, ContentLength: item.size }),
      {
        abortSignal: opts.signal,
      },
    );
    opts.onBytes?.(item.size);
    return;
  }
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: item.key }), {
    abortSignal: opts.signal,
  });
  const uploadId = created.UploadId!;
  const stop = new AbortController();
  const onCancel = (): void => stop.abort();
  opts.signal?.addEventListener('abort', onCancel, { once: true });
  const count = Math.ceil(item.size / partSize);
  const parts: { PartNumber: number; ETag: string }[] = [];
  let nextPart = 1;
  let failure: Error | undefined;
  const worker = async (): Promise<void> => {
    while (!stop.signal.aborted && nextPart <= count) {
      const n = nextPart++;
      const start = (n - 1) * partSize;
      const length = Math.min(partSize, item.size - start);
      try {
        const body = await readRange(item.file, start, length);
        const out = await client.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: item.key,
            UploadId: uploadId,
            PartNumber: n,
            Body: body,
            ContentLength: length,
          }),
          { abortSignal: stop.signal },
        );
        parts.push({ PartNumber: n, ETag: out.ETag! });
        opts.onBytes?.(length);
      } catch (e) {
        failure ??= e instanceof Error ? e : new Error(String(e));
        stop.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.queueSize ?? PART_QUEUE, count) }, worker));
    if (opts.signal?.aborted) throw abortError();
    if (failure !== undefined) throw failure;
    parts.sort((a, b) => a.PartNumber - b.PartNumber);
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: item.key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
  } catch (e) {
    // Every part has ended (Promise.all above); now nothing can add a part after the abort.
    await client
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: item.key, UploadId: uploadId }))
      .catch(() => undefined);
    throw isAbort(e, opts.signal) ? abortError() : e;
  } finally {
    opts.signal?.removeEventListener('abort', onCancel);
  }
}

function abortError(): Error {
  return Object.assign(new Error(l10n.t('Upload cancelled.')), { name: 'AbortError' });
}

/** The files of a local folder as upload items under `prefix` + the folder's name. */
export async function folderItems(folder: string, prefix: string, name: string): Promise<UploadItem[]> {
  const items: UploadItem[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.isFile())
        items.push({
          file: p,
          key: `${prefix}${name}/${relative(folder, p).split(sep).join('/')}`,
          size: (await stat(p)).size,
        });
    }
  };
  await walk(folder);
  return items;
}

export async function fileItem(file: string, key: string): Promise<UploadItem> {
  return { file, key, size: (await stat(file)).size };
}

export type Existing = 'overwrite' | 'skip' | 'cancel';

export interface UploadManyOptions extends FileUploadOptions {
  readonly concurrency?: number;
  /** Asked once when some keys exist already (they are listed first); default: overwrite. */
  readonly onExisting?: (keys: string[]) => Promise<Existing>;
  /** The common prefix to list for existing keys (default: none listed). */
  readonly existingUnder?: string;
}

export interface UploadResult {
  readonly uploaded: string[];
  readonly skipped: string[];
  readonly failed: { key: string; error: string }[];
  readonly cancelled: boolean;
}

export async function uploadFiles(
  session: S3Session,
  bucket: string,
  items: readonly UploadItem[],
  opts: UploadManyOptions = {},
): Promise<UploadResult> {
  const result: UploadResult = { uploaded: [], skipped: [], failed: [], cancelled: false };
  let todo = [...items];
  if (opts.onExisting && opts.existingUnder !== undefined) {
    const present = new Set(
      (await session.run((c) => listAll(c, bucket, opts.existingUnder!, opts.signal))).map((o) => o.key),
    );
    const clash = todo.filter((i) => present.has(i.key)).map((i) => i.key);
    if (clash.length) {
      const answer = await opts.onExisting(clash);
      if (answer === 'cancel') return { ...result, cancelled: true };
      if (answer === 'skip') {
        result.skipped.push(...clash);
        todo = todo.filter((i) => !present.has(i.key));
      }
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length && !opts.signal?.aborted) {
      const item = todo[next++];
      try {
        await session.run((c) => uploadFile(c, bucket, item, opts));
        result.uploaded.push(item.key);
      } catch (e) {
        if (isAbort(e, opts.signal)) return;
        if (e instanceof KeysRejectedError) throw e;
        result.failed.push({ key: item.key, error: s3ErrorMessage(e) });
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 8, todo.length)) }, worker),
  );
  return { ...result, cancelled: opts.signal?.aborted === true };
}
