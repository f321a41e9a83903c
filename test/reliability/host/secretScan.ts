// The secrets the host session knows about (the token from the harness, plus whatever the tests
// register: wrong tokens typed, object-storage secret keys the engine handed out) and where the
// extension host can look for them on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findSecrets, type Secret } from '../catalogue';

const registered: Secret[] = [];

/** Add a secret to look for (its name is printed in findings, its value never). */
export function registerSecret(name: string, value: string): void {
  if (!registered.some((s) => s.value === value)) registered.push({ name, value });
}

export async function hostSecrets(): Promise<Secret[]> {
  const out: Secret[] = [...registered];
  const token = process.env.TENSORPOOL_TEST_TOKEN;
  if (token) out.unshift({ name: 'the API token', value: token });
  return out;
}

export function scanForSecrets(text: string, secrets: readonly Secret[]): string[] {
  return findSecrets(text, secrets);
}

/**
 * code-server's folders for this run: the harness puts TMPDIR, the user-data dir (settings, state,
 * logs) and its own log side by side in one scratch folder, and the extension host inherits TMPDIR.
 */
export function codeServerState(): { root: string; userData: string; logFile: string } | undefined {
  const tmp = process.env.TMPDIR;
  if (!tmp) return undefined;
  const root = path.dirname(tmp);
  const userData = path.join(root, 'ud');
  return fs.existsSync(userData)
    ? { root, userData, logFile: path.join(root, 'code-server.log') }
    : undefined;
}

/** Every regular file under `dir` (recursively), with its content as latin1 text (binary-safe for ASCII secrets). */
export function filesUnder(dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (d: string) => {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const n of names) {
      const p = path.join(d, n.name);
      if (n.isDirectory()) walk(p);
      else if (n.isFile()) {
        try {
          out.push({ file: p, text: fs.readFileSync(p).toString('latin1') });
        } catch {
          /* vanished */
        }
      }
    }
  };
  walk(dir);
  return out;
}
