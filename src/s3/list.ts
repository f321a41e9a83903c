/**
 * Listing a bucket one page at a time: the folders (common prefixes under `/`) and objects directly under a
 * prefix, and the continuation token for the next page. Nothing lists a whole bucket at once except
 * listAll(), which the transfers use for a folder (and which pages too). ListObjects (version 1, marker
 * paging) rather than V2: every S3-compatible server has it, and some (s3rver) cannot make V2's continuation
 * tokens under OpenSSL 3.
 */
import { ListObjectsCommand, type ListObjectsCommandOutput, type S3Client } from '@aws-sdk/client-s3';

export interface S3Object {
  readonly key: string;
  readonly size: number;
  readonly lastModified?: Date;
  readonly etag?: string;
}

export interface ListPage {
  /** Full prefixes of the folders, each ending in `/`. */
  readonly folders: string[];
  readonly objects: S3Object[];
  /** Pass back to get the next page; undefined at the end. */
  readonly next?: string;
}

export const PAGE_SIZE = 200;

export async function listPage(
  client: S3Client,
  bucket: string,
  prefix: string,
  opts: { continuation?: string; pageSize?: number; signal?: AbortSignal } = {},
): Promise<ListPage> {
  const out = await client.send(
    new ListObjectsCommand({
      Bucket: bucket,
      Prefix: prefix || undefined,
      Delimiter: '/',
      MaxKeys: opts.pageSize ?? PAGE_SIZE,
      Marker: opts.continuation,
    }),
    { abortSignal: opts.signal },
  );
  return {
    folders: (out.CommonPrefixes ?? []).map((p) => p.Prefix ?? '').filter((p) => p !== ''),
    objects: (out.Contents ?? [])
      .filter((o) => o.Key !== undefined && o.Key !== prefix)
      .map((o) => ({ key: o.Key!, size: o.Size ?? 0, lastModified: o.LastModified, etag: o.ETag })),
    next: nextMarker(out),
  };
}

/** Every object under a prefix (no delimiter), page by page. */
export async function listAll(
  client: S3Client,
  bucket: string,
  prefix: string,
  signal?: AbortSignal,
): Promise<S3Object[]> {
  const found: S3Object[] = [];
  let continuation: string | undefined;
  do {
    const out = await client.send(
      new ListObjectsCommand({ Bucket: bucket, Prefix: prefix || undefined, Marker: continuation }),
      { abortSignal: signal },
    );
    for (const o of out.Contents ?? [])
      if (o.Key !== undefined)
        found.push({ key: o.Key, size: o.Size ?? 0, lastModified: o.LastModified, etag: o.ETag });
    continuation = nextMarker(out);
  } while (continuation);
  return found;
}

/** Where the next page starts: NextMarker (sent with a delimiter), else the last key of this page. */
function nextMarker(out: ListObjectsCommandOutput): string | undefined {
  if (!out.IsTruncated) return undefined;
  const last = [
    ...(out.Contents ?? []).map((o) => o.Key ?? ''),
    ...(out.CommonPrefixes ?? []).map((p) => p.Prefix ?? ''),
  ]
    .sort()
    .pop();
  return out.NextMarker ?? last;
}

/** The last segment of a key or folder prefix (`a/b/c.txt` -> `c.txt`, `a/b/` -> `b`). */
export function baseName(keyOrPrefix: string): string {
  const trimmed = keyOrPrefix.endsWith('/') ? keyOrPrefix.slice(0, -1) : keyOrPrefix;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}
