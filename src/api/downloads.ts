/**
 * Download a pull's files (download_map: relative path -> presigned URL) into a folder, safely:
 * - a path that is empty, absolute (POSIX or Windows), has a `..` segment or a NUL, or lands outside the
 *   folder once symbolic links are resolved is refused, never written;
 * - each file is streamed to a temp file beside its target (`.<name>.<random>.part`) and renamed over it
 *   only once complete (the announced length checked), so no half-written file ever has the final name;
 * - an existing file is kept unless `overwrite` says otherwise (a function can ask the user per file);
 * - a GET that fails transiently (network, 408, 429, 5xx, a body cut short) is tried again with backoff
 *   (it is idempotent); several files go in parallel. No token is sent: the URLs are presigned.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import type { Dispatcher } from 'undici';
import * as l10n from '@vscode/l10n';
import { request } from './undici';
import { abortableSleep } from './retry';

export interface DownloadOptions {
  /** Files at once (default 6, as the official client). */
  readonly concurrency?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: { done: number; total: number; path: string; outcome: FileOutcome }) => void;
  /** Replace existing files: a boolean for all, or asked per file. Default false (kept, reported skipped). */
  readonly overwrite?: boolean | ((path: string) => Promise<boolean>);
  /** Tries per file after the first (default 3) and the first backoff step (default 500 ms, doubled). */
  readonly retries?: number;
  readonly retryBaseMs?: number;
  readonly dispatcher?: Dispatcher;
}

export type FileOutcome = 'written' | 'skipped' | 'refused' | 'failed' | 'cancelled';

export interface DownloadResult {
  readonly written: string[];
  readonly skipped: string[];
  readonly refused: { path: string; reason: string }[];
  readonly failed: { path: string; error: string }[];
  readonly cancelled: boolean;
}

/** The absolute target for `rel` inside `folder`, or why it is refused (checked before any I/O). */
export function safeOutputPath(folder: string, rel: string): { path: string } | { reason: string } {
  if (typeof rel !== 'string' || rel.trim() === '') return { reason: l10n.t('an empty path') };
  if (rel.includes('\0')) return { reason: l10n.t('a path with a NUL character') };
  if (isAbsolute(rel) || win32.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel))
    return { reason: l10n.t('an absolute path') };
  if (rel.split(/[\\/]+/).some((s) => s === '..'))
    return { reason: l10n.t('a path that climbs out with ..') };
  const root = resolve(folder);
  const path = resolve(root, rel);
  const within = relative(root, path);
  if (!within || within === '..' || within.startsWith(`..${sep}`) || isAbsolute(within))
    return { reason: l10n.t('a path outside the folder') };
  return { path };
}

class Transient extends Error {}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Stream one URL into a temp file beside `target`; rename it over `target` when complete. */
async function fetchTo(url: string, target: string, opts: DownloadOptions): Promise<void> {
  const temp = join(dirname(target), `.${target.split(sep).pop()}.${randomBytes(4).toString('hex')}.part`);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, { method: 'GET', signal: opts.signal, dispatcher: opts.dispatcher });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new Transient(err instanceof Error ? err.message : String(err));
  }
  if (res.statusCode !== 200) {
    await res.body.dump().catch(() => undefined);
    const msg = `HTTP ${res.statusCode}`;
    if (res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500) throw new Transient(msg);
    throw new Error(msg);
  }
  const announced = Number(res.headers['content-length'] ?? NaN);
  const fh = await open(temp, 'wx', 0o644);
  let written = 0;
  try {
    try {
      for await (const chunk of res.body) {
        await fh.write(chunk as Buffer);
        written += (chunk as Buffer).length;
      }
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      throw new Transient(
        l10n.t('the download was cut off ({0})', err instanceof Error ? err.message : String(err)),
      );
    }
    if (Number.isFinite(announced) && announced !== written)
      throw new Transient(l10n.t('the download was cut off ({0} of {1} bytes)', written, announced));
    await fh.sync();
    await fh.close();
    await rename(temp, target);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

type Done = { kind: FileOutcome; detail?: string };

async function one(path: string, url: string, root: string, opts: DownloadOptions): Promise<Done> {
  const safe = safeOutputPath(root, path);
  if ('reason' in safe) return { kind: 'refused', detail: safe.reason };
  // A symbolic link inside the folder could still lead out of it: check before creating anything.
  const realRoot = await realpath(root);
  let existing = dirname(safe.path);
  while (!(await exists(existing)) && existing.length > root.length) existing = dirname(existing);
  const realDir = await realpath(existing);
  if (realDir !== realRoot && !realDir.startsWith(realRoot + sep))
    return { kind: 'refused', detail: l10n.t('a path that leads outside the folder through a link') };
  await mkdir(dirname(safe.path), { recursive: true });
  if (await exists(safe.path)) {
    const ow = opts.overwrite;
    const replace = typeof ow === 'function' ? await ow(path) : ow === true;
    if (!replace) return { kind: 'skipped' };
  }
  const retries = opts.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    try {
      await fetchTo(url, safe.path, opts);
      return { kind: 'written' };
    } catch (err) {
      if (opts.signal?.aborted) return { kind: 'cancelled' };
      if (!(err instanceof Transient) || attempt >= retries)
        return { kind: 'failed', detail: (err as Error).message };
      try {
        await abortableSleep((opts.retryBaseMs ?? 500) * 2 ** attempt, opts.signal);
      } catch {
        return { kind: 'cancelled' };
      }
    }
  }
}

export async function downloadOutputs(
  map: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
  folder: string,
  opts: DownloadOptions = {},
): Promise<DownloadResult> {
  const entries: [string, string][] =
    map instanceof Map
      ? [...(map as ReadonlyMap<string, string>)]
      : Object.entries(map as Readonly<Record<string, string>>);
  const result: DownloadResult = { written: [], skipped: [], refused: [], failed: [], cancelled: false };
  const root = resolve(folder);
  await mkdir(root, { recursive: true });
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < entries.length && !opts.signal?.aborted) {
      const [path, url] = entries[next++];
      let out: Done;
      try {
        out = await one(path, url, root, opts);
      } catch (err) {
        out = opts.signal?.aborted
          ? { kind: 'cancelled' }
          : { kind: 'failed', detail: (err as Error).message };
      }
      const { kind, detail = '' } = out;
      if (kind === 'written') result.written.push(path);
      else if (kind === 'skipped') result.skipped.push(path);
      else if (kind === 'refused') result.refused.push({ path, reason: detail });
      else if (kind === 'failed') result.failed.push({ path, error: detail });
      opts.onProgress?.({ done: ++done, total: entries.length, path, outcome: kind });
    }
  };
  const n = Math.max(1, Math.min(opts.concurrency ?? 6, entries.length));
  await Promise.all(Array.from({ length: n }, worker));
  return { ...result, cancelled: opts.signal?.aborted === true };
}
