/**
 * Deleting objects (a key, or everything under a folder prefix, 1,000 keys per request), reading an object
 * (for the read-only file system), presigned GET URLs, and the size of what a delete would remove.
 */
import * as l10n from '@vscode/l10n';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { listAll, type S3Object } from './list';

/** What `keyOrPrefix` names: the object itself, or every object under a prefix ending in `/`. */
export async function objectsUnder(
  client: S3Client,
  bucket: string,
  keyOrPrefix: string,
  signal?: AbortSignal,
): Promise<S3Object[]> {
  if (keyOrPrefix === '' || keyOrPrefix.endsWith('/')) return listAll(client, bucket, keyOrPrefix, signal);
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOrPrefix }), {
    abortSignal: signal,
  });
  return [
    { key: keyOrPrefix, size: head.ContentLength ?? 0, lastModified: head.LastModified, etag: head.ETag },
  ];
}

/** Delete the keys, 1,000 per request; returns the keys S3 could not delete with its reason. */
export async function deleteKeys(
  client: S3Client,
  bucket: string,
  keys: readonly string[],
): Promise<{ key: string; error: string }[]> {
  const errors: { key: string; error: string }[] = [];
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = keys.slice(i, i + 1000);
    const out = await client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    for (const e of out.Errors ?? [])
      errors.push({ key: e.Key ?? '', error: e.Message ?? e.Code ?? l10n.t('not deleted') });
  }
  return errors;
}

export const MAX_READ_BYTES = 64 * 1024 * 1024;

/** An object's bytes (for opening it in the editor); refuses one larger than `max`. */
export async function readObject(
  client: S3Client,
  bucket: string,
  key: string,
  max = MAX_READ_BYTES,
): Promise<{ data: Uint8Array; etag?: string; lastModified?: Date }> {
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if ((out.ContentLength ?? 0) > max) {
    out.Body?.transformToWebStream()
      .cancel()
      .catch(() => undefined);
    throw new Error(l10n.t('{0} is larger than {1} MB', key, Math.round(max / 1024 / 1024)));
  }
  const data = await out.Body!.transformToByteArray();
  return { data, etag: out.ETag, lastModified: out.LastModified };
}

export async function headObject(client: S3Client, bucket: string, key: string): Promise<S3Object> {
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { key, size: head.ContentLength ?? 0, lastModified: head.LastModified, etag: head.ETag };
}

export const PRESIGN_EXPIRY = { '1 hour': 3600, '24 hours': 86400, '7 days': 604800 } as const;

/** A GET URL for the object valid `seconds` (at most 7 days, S3's limit). */
export function presignGet(client: S3Client, bucket: string, key: string, seconds: number): Promise<string> {
  return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), {
    expiresIn: Math.min(seconds, 604800),
  });
}
