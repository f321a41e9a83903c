// The official command-line client, `tp` (tensorpool/tensorpool, MIT; vendored in test/vendor/tensorpool-cli at
// commit 4eb9fa6), run with Debian's python3 and its python3-requests, -tqdm and -websockets
// (harness/install.ts ensureCliPackages) against a local engine: TENSORPOOL_ENGINE names the engine and
// TENSORPOOL_KEY the token, as a user sets them.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Debian's python3 (where apt's modules are), not one a version manager puts first on PATH. */
const PYTHON = '/usr/bin/python3';
const CLI_DIR = path.join(__dirname, '..', '..', '..', 'test', 'vendor', 'tensorpool-cli');

/** Why `tp` cannot run here, or undefined. */
export function cliMissing(): string | undefined {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is not installed (Debian: apt-get install python3)`;
  if (!fs.existsSync(path.join(CLI_DIR, 'tensorpool', 'main.py')))
    return `the vendored CLI is not in ${CLI_DIR}`;
  return undefined;
}

/** The argv that runs `tp <args>`: python3 -c "<load the vendored package, run main()>" <args>. */
export function tpCommand(args: string[]): { file: string; args: string[] } {
  const boot = `import sys; sys.path.insert(0, ${JSON.stringify(CLI_DIR)}); from tensorpool.main import main; main()`;
  return { file: PYTHON, args: ['-c', boot, ...args] };
}

export interface TpRun {
  code: number;
  out: string;
}

/** Run `tp <args>` in `cwd` with `env` (PATH, HOME, SSH_AUTH_SOCK, TENSORPOOL_ENGINE, TENSORPOOL_KEY). */
export function tp(args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<TpRun> {
  const cmd = tpCommand(args);
  return new Promise((resolve) => {
    execFile(cmd.file, cmd.args, { cwd, env, timeout: timeoutMs }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}
