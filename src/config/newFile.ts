/**
 * Creates a new file under the first free name of a list, never replacing an existing file and never
 * leaving a half-written one under its final name: the text goes to a temp file in the same folder
 * (O_EXCL, fsynced), which is then hard-linked to the final name (fails if the name exists, even when
 * another process created it a moment ago) and removed. On a file system without hard links the final
 * name is created with O_EXCL and written directly.
 */
import * as l10n from '@vscode/l10n';
import { randomBytes } from 'node:crypto';
import { link, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const NEW_FILE_MODE = 0o644;
const MAX_NAMES = 1000;

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

async function writeExclusive(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', NEW_FILE_MODE);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw err;
  }
  await handle.close();
}

/** Link `temp` to `path`; false when hard links are not supported here (the caller writes directly). */
async function linkNew(temp: string, path: string): Promise<boolean> {
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code(err) ?? '')) return false;
    throw err;
  }
}

/**
 * Write `text` to `dir/<name>` for the first name of `names` that does not exist; returns that path.
 * Throws when the folder cannot be written (the caller shows why).
 */
export async function createNewFile(dir: string, names: Iterable<string>, text: string): Promise<string> {
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  await writeExclusive(temp, text);
  let linked = true;
  try {
    let tried = 0;
    for (const name of names) {
      if (tried++ >= MAX_NAMES) break;
      const path = join(dir, name);
      try {
        if (linked) linked = await linkNew(temp, path);
        if (!linked) await writeExclusive(path, text);
        return path;
      } catch (err) {
        if (code(err) !== 'EEXIST') throw err;
      }
    }
    throw new Error(l10n.t('No free file name in {0} (tried {1}).', dir, Math.min(tried, MAX_NAMES)));
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}
