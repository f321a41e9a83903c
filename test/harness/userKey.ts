// "The user's own key" for the extension-host suites: a throwaway ed25519 key made in the run's folder and
// held by a real ssh-agent (its socket is SSH_AUTH_SOCK of code-server, which the extension host and every
// ssh/rsync it starts inherit). OpenSSH looks for default keys under the passwd entry's home, not $HOME, so
// an agent is how a test hands ssh a key without touching the real user's ~/.ssh. Tests put the public key
// on the clusters they create (TENSORPOOL_TEST_SSH_PUBKEY), as a user does with their own.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killGroup, spawnGroup } from './processes';
import { sleep } from '../shared/wait';

export interface UserKey {
  /** The agent's socket (SSH_AUTH_SOCK). */
  sock: string;
  /** The private key file (for a test's own `ssh -i`). */
  keyFile: string;
  /** The public key line. */
  publicKey: string;
  /** The environment to give code-server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startUserKey(runDir: string): Promise<UserKey> {
  const dir = path.join(runDir, 'user-ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyFile = path.join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tensorpool-test-user', '-f', keyFile]);
  const sock = path.join(dir, 'agent.sock');
  const agent = spawnGroup('ssh-agent', 'ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
  const stop = () => killGroup(agent.pid!);
  try {
    for (let i = 0; !fs.existsSync(sock); i++) {
      if (i > 100 || agent.exitCode !== null) throw new Error(`ssh-agent did not open ${sock}`);
      await sleep(20);
    }
    execFileSync('ssh-add', ['-q', keyFile], { env: { PATH: process.env.PATH, SSH_AUTH_SOCK: sock } });
  } catch (err) {
    await stop();
    throw err;
  }
  const publicKey = fs.readFileSync(`${keyFile}.pub`, 'utf8').trim();
  return {
    sock,
    keyFile,
    publicKey,
    env: {
      SSH_AUTH_SOCK: sock,
      TENSORPOOL_TEST_SSH_PUBKEY: publicKey,
      TENSORPOOL_TEST_SSH_KEY: keyFile,
    },
    stop,
  };
}
