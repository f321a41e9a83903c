/**
 * Writes a user's config file so that a crash, a full disk or a concurrent editor can never leave
 * it half-written: the new text goes to a temp file in the same directory (random name, O_EXCL,
 * the target's mode or 0600 for a new file), is fsynced, then renamed over the target. Before the
 * rename nothing of the old file has changed, and any failure removes the temp file.
 *
 * Also: parent directories are created 0700 (and removed again if the write fails); a symlinked target
 * (dotfile managers) is written
 * through, so the link stays a link; a file that is not valid UTF-8 is refused rather than
 * re-encoded; an edit whose file changed between our read and our rename is recomputed.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, open, readFile, readlink, rename, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ConfigError } from './errors';

export const NEW_FILE_MODE = 0o600;
export const NEW_DIR_MODE = 0o700;

export interface AtomicWriteOptions {
  /** Mode for a file that does not exist yet (default 0600). An existing file keeps its mode. */
  newFileMode?: number;
  /**
   * Test hook: runs after the temp file is complete and synced, right before the rename. A test
   * makes it throw to simulate a crash at the worst moment.
   */
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

export interface WriteResult {
  /** The file actually written: the end of the symlink chain when `path` was a link. */
  path: string;
  /** Whether the file did not exist before. */
  created: boolean;
  /** False when the new text equalled the old one and nothing was written. */
  changed: boolean;
}

const MAX_LINKS = 40;
const EDIT_ATTEMPTS = 3;

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

/** Follow a chain of symbolic links (relative ones from the link's directory); a dangling chain ends at the
 * missing file. */
export async function resolveTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let st: Stats;
    try {
      st = await lstat(current);
    } catch (err) {
      if (isMissing(err)) return current;
      throw err;
    }
    if (!st.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new ConfigError(
    'symlink-loop',
    l10n.t(
      '{0} is a chain of more than {1} symbolic links; point it at a real file and try again.',
      path,
      MAX_LINKS,
    ),
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(path: string, bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ConfigError(
      'not-utf8',
      l10n.t(
        '{0} is not valid UTF-8 text, so it cannot be edited without changing bytes we do not own. Save it as UTF-8 and try again.',
        path,
      ),
    );
  }
}

/** The file's text (BOM kept), or undefined when it does not exist. */
export async function readTextFile(path: string): Promise<string | undefined> {
  const target = await resolveTarget(path);
  try {
    return decode(path, await readFile(target));
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable on POSIX; directories cannot be opened this way on Windows.
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* best effort */
  }
}

interface InternalOptions extends AtomicWriteOptions {
  /** Runs after `beforeRename`; throwing aborts the write like any failure. */
  precondition?: () => Promise<void>;
}

/** Remove the directories a failed write created, deepest first, up to and including `first`. */
async function removeCreatedDirs(dir: string, first: string | undefined): Promise<void> {
  if (!first) return;
  for (let d = dir; d.length >= first.length; d = dirname(d)) {
    await rmdir(d).catch(() => undefined);
    if (d === first) break;
  }
}

async function writeResolved(target: string, text: string, opts: InternalOptions): Promise<WriteResult> {
  const dir = dirname(target);
  const firstCreated = await mkdir(dir, { recursive: true, mode: NEW_DIR_MODE });
  const existing = await statOrUndefined(target);
  const mode = existing ? existing.mode & 0o7777 : (opts.newFileMode ?? NEW_FILE_MODE);
  const temp = tempPathFor(target);
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    fh = await open(temp, 'wx', mode);
    await fh.writeFile(Buffer.from(text, 'utf8'));
    await fh.sync();
    await fh.chmod(mode); // open() applies the umask; the file must end with exactly the old mode
    if (existing && process.getuid?.() === 0 && existing.uid !== 0)
      await fh.chown(existing.uid, existing.gid);
    await fh.close();
    fh = undefined;
    await opts.beforeRename?.(temp);
    await opts.precondition?.();
    await rename(temp, target);
  } catch (err) {
    await fh?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    await removeCreatedDirs(dir, firstCreated);
    throw err;
  }
  await syncDirectory(dir);
  return { path: target, created: !existing, changed: true };
}

/** Replace the file's content atomically (see the file comment). */
export async function writeFileAtomic(
  path: string,
  text: string,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return writeResolved(await resolveTarget(path), text, opts);
}

class ChangedUnderUs extends Error {}

function sameVersion(a: Stats | undefined, b: Stats | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * Read the file (undefined when missing), let `edit` compute the new text, and write it atomically
 * when it differs. A missing file that would become empty is not created. If the file changes
 * between our read and our rename, the edit is recomputed from the new content.
 */
export async function editTextFile(
  path: string,
  edit: (old: string | undefined) => string,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult & { text: string }> {
  const target = await resolveTarget(path);
  for (let attempt = 1; ; attempt++) {
    const before = await statOrUndefined(target);
    const old = before ? decode(path, await readFile(target)) : undefined;
    const text = edit(old);
    if (text === (old ?? '')) return { path: target, created: false, changed: false, text };
    const precondition = async (): Promise<void> => {
      if (!sameVersion(before, await statOrUndefined(target))) throw new ChangedUnderUs();
    };
    try {
      return { ...(await writeResolved(target, text, { ...opts, precondition })), text };
    } catch (err) {
      if (!(err instanceof ChangedUnderUs)) throw err;
      if (attempt >= EDIT_ATTEMPTS) {
        throw new ConfigError(
          'concurrent-edit',
          l10n.t(
            '{0} kept changing while we were writing it; close other programs editing it and try again.',
            path,
          ),
        );
      }
    }
  }
}
