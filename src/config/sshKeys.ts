/**
 * The user's SSH public keys for the create wizard's key step: list ~/.ssh/*.pub, and make a new
 * ed25519 pair with ssh-keygen. The private key never leaves the machine; only the .pub text is read.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/** A public key file (the wizards' LocalKey has the same shape). */
export interface PublicKeyFile {
  /** Path of the .pub file. */
  readonly path: string;
  readonly key: string;
  readonly comment?: string;
}

/** The comment of an OpenSSH public key line ("type base64 comment..."), if any. */
export function keyComment(text: string): string | undefined {
  return text.trim().split(/\s+/).slice(2).join(' ') || undefined;
}

/** Every readable *.pub in `dir`, by name; an unreadable folder or file is skipped, not an error. */
export async function readPublicKeys(dir: string): Promise<PublicKeyFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const keys: PublicKeyFile[] = [];
  for (const n of names.filter((x) => x.endsWith('.pub')).sort()) {
    try {
      const text = (await fs.readFile(path.join(dir, n), 'utf8')).trim();
      keys.push({ path: path.join(dir, n), key: text, comment: keyComment(text) });
    } catch {
      /* unreadable: skip */
    }
  }
  return keys;
}

/** `dir`/tensorpool_ed25519, or the first of tensorpool_ed25519_2, _3, ... that does not exist yet. */
export async function freeKeyPath(dir: string): Promise<string> {
  const exists = (f: string) =>
    fs.stat(f).then(
      () => true,
      () => false,
    );
  let file = path.join(dir, 'tensorpool_ed25519');
  for (let i = 2; await exists(file); i++) file = path.join(dir, `tensorpool_ed25519_${i}`);
  return file;
}

/** Generate a new ed25519 key pair in `dir` (created 0700 if missing) with ssh-keygen, no passphrase. */
export async function generateEd25519Key(dir: string): Promise<PublicKeyFile> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = await freeKeyPath(dir);
  await new Promise<void>((resolve, reject) => {
    execFile(
      'ssh-keygen',
      ['-q', '-t', 'ed25519', '-N', '', '-C', `tensorpool-vscode@${os.hostname()}`, '-f', file],
      (err) => (err ? reject(new Error(err.message)) : resolve()),
    );
  });
  const key = (await fs.readFile(`${file}.pub`, 'utf8')).trim();
  return { path: `${file}.pub`, key, comment: keyComment(key) };
}
