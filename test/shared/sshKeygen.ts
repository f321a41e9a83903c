/** Whether ssh-keygen is installed (tests that need it are skipped without it). */
import { execFileSync } from 'node:child_process';

export function hasSshKeygen(): boolean {
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
  } catch (e) {
    // ssh-keygen -? exits 1 with its usage: it exists.
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
  return true;
}
