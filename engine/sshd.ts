// OpenSSH's real sshd as a cluster node's SSH server (engine/nodes.ts decides when): finding it, the
// node's own sshd_config, host key and login script, starting it on 127.0.0.1 as a child of the engine,
// and ending it with every process below it. Works as root (logins as root, by key only) and as any
// other user (sshd then needs no privileges: it can only log in as that user).
//
// A stand-in for isolation, not a security boundary: a node is a folder and a port on this machine,
// and whoever logs in runs as the engine's own user.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export const SSHD = '/usr/sbin/sshd';
export const SSH_KEYGEN = '/usr/bin/ssh-keygen';
/** The Debian packages a node needs (the client side: ssh, scp, rsync). */
export const NODE_PACKAGES = 'openssh-server openssh-client rsync';
const SFTP_SERVERS = [
  '/usr/lib/openssh/sftp-server',
  '/usr/libexec/openssh/sftp-server',
  '/usr/libexec/sftp-server',
];
/** Where a root sshd wants its privilege-separation folder (Debian creates it at boot via tmpfiles). */
const PRIVSEP_DIR = '/run/sshd';

/** sshd and ssh-keygen get nothing of the engine's environment (a token there must not reach a node). */
const SERVER_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' };

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The command that installs what nodes need on this machine. */
export function installCommand(): string {
  return `${isRoot() ? '' : 'sudo '}apt-get update && ${isRoot() ? '' : 'sudo '}apt-get install -y ${NODE_PACKAGES}`;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why real nodes cannot run here, or null when they can. */
export function sshdMissing(sshd = SSHD): string | null {
  const missing = [sshd, SSH_KEYGEN].filter((f) => !executable(f));
  if (missing.length) return `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed`;
  if (isRoot() && !fs.existsSync(PRIVSEP_DIR)) {
    try {
      fs.mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });
    } catch (err) {
      return `sshd running as root needs ${PRIVSEP_DIR}, which cannot be created (${(err as Error).message})`;
    }
  }
  return null;
}

/** The node folder's parts: `home/` (the login's HOME), `bin/` (first on PATH), `etc/` (sshd's files). */
export interface NodeLayout {
  dir: string;
  home: string;
  bin: string;
  etc: string;
  config: string;
  hostKey: string;
  authorizedKeys: string;
  pidFile: string;
  login: string;
}

export function nodeLayout(dir: string): NodeLayout {
  const etc = path.join(dir, 'etc');
  return {
    dir,
    home: path.join(dir, 'home'),
    bin: path.join(dir, 'bin'),
    etc,
    config: path.join(etc, 'sshd_config'),
    hostKey: path.join(etc, 'ssh_host_ed25519_key'),
    authorizedKeys: path.join(etc, 'authorized_keys'),
    pidFile: path.join(etc, 'sshd.pid'),
    login: path.join(etc, 'login'),
  };
}

export interface NodeSetup {
  instanceId: string;
  instanceType: string;
  user: string;
  /** dist/nvidia-smi.js when it exists and the node has GPUs: bin/nvidia-smi runs it. */
  nvidiaSmi?: string;
}

/** The usual PATH after the node's bin/, plus the folder of the Node that runs the engine. */
function loginPath(bin: string): string {
  const usual = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  const nodeDir = path.dirname(process.execPath);
  return [bin, ...usual, ...(usual.includes(nodeDir) ? [] : [nodeDir])].join(':');
}

function quoted(value: string): string {
  if (/["\n\r]/.test(value)) throw new Error(`a node path cannot contain quotes or newlines: ${value}`);
  return `"${value}"`;
}

/** What a login (and a job) on the node finds in its environment, beside what sshd sets itself. */
export function loginEnv(
  layout: NodeLayout,
  setup: Pick<NodeSetup, 'instanceId' | 'instanceType'>,
): Record<string, string> {
  return {
    TP_NODE: setup.instanceId,
    TP_NODE_DIR: layout.dir,
    TP_INSTANCE_TYPE: setup.instanceType,
    HOME: layout.home,
    PATH: loginPath(layout.bin),
  };
}

/** Write the node's files and generate its host key (a new one for every node). */
export async function prepareNode(layout: NodeLayout, setup: NodeSetup, keys: string[]): Promise<void> {
  for (const d of [layout.home, layout.bin, layout.etc]) fs.mkdirSync(d, { recursive: true });
  fs.chmodSync(layout.etc, 0o700);
  writeAuthorizedKeys(layout, keys);
  await new Promise<void>((resolve, reject) =>
    execFile(
      SSH_KEYGEN,
      ['-q', '-t', 'ed25519', '-N', '', '-C', `tensorpool-node-${setup.instanceId}`, '-f', layout.hostKey],
      { env: SERVER_ENV },
      (err, _out, stderr) =>
        err ? reject(new Error(`ssh-keygen failed: ${stderr || err.message}`)) : resolve(),
    ),
  );
  const env = Object.entries(loginEnv(layout, setup)).map(([k, v]) => `${k}=${v}`);
  const sftp = SFTP_SERVERS.find(executable);
  // ForceCommand is only our login script: sshd always starts a session in the passwd home, and the
  // script moves it to the node's HOME before it runs the user's own shell (a login shell, or -c with
  // the command asked for, which is also how rsync, scp and the sftp subsystem arrive).
  const config = [
    `# Written by the TensorPool local engine for node ${setup.instanceId}: a stand-in for isolation, not a security boundary.`,
    'ListenAddress 127.0.0.1',
    `HostKey ${quoted(layout.hostKey)}`,
    `PidFile ${quoted(layout.pidFile)}`,
    `AuthorizedKeysFile ${quoted(layout.authorizedKeys)}`,
    'UsePAM no',
    'StrictModes no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    `AllowUsers ${setup.user}`,
    'PermitUserEnvironment no',
    'PrintMotd no',
    'PrintLastLog no',
    'UseDNS no',
    'X11Forwarding no',
    `SetEnv ${env.map(quoted).join(' ')}`,
    `ForceCommand ${quoted(layout.login)}`,
    ...(sftp ? [`Subsystem sftp ${sftp}`] : []),
    '',
  ].join('\n');
  fs.writeFileSync(layout.config, config, { mode: 0o600 });
  fs.writeFileSync(
    layout.login,
    [
      '#!/bin/sh',
      '# The node login: start in the node home, then the user shell as asked (TensorPool local engine).',
      'cd "$HOME" || exit 1',
      'if [ -n "${SSH_ORIGINAL_COMMAND+x}" ]; then exec "$SHELL" -c "$SSH_ORIGINAL_COMMAND"; fi',
      'exec "$SHELL" -l',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  // A login shell reads /etc/profile, which resets PATH: the node's profile puts bin/ first again.
  fs.writeFileSync(
    path.join(layout.home, '.profile'),
    [
      '# TensorPool local engine node profile',
      'case ":$PATH:" in *":$TP_NODE_DIR/bin:"*) ;; *) PATH="$TP_NODE_DIR/bin:$PATH" ;; esac',
      'export PATH',
      'if [ -n "$BASH_VERSION" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(layout.home, '.bashrc'),
    ['# TensorPool local engine node shell', 'case $- in *i*) PS1="\\u@$TP_NODE:\\w\\$ " ;; esac', ''].join(
      '\n',
    ),
  );
  if (setup.nvidiaSmi) {
    const wrapper = `#!/bin/sh\nexec ${shellWord(process.execPath)} ${shellWord(setup.nvidiaSmi)} "$@"\n`;
    fs.writeFileSync(path.join(layout.bin, 'nvidia-smi'), wrapper, { mode: 0o755 });
  }
}

function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** One key a line, written atomically (sshd reads the file on every login). */
export function writeAuthorizedKeys(layout: NodeLayout, keys: string[]): void {
  const tmp = `${layout.authorizedKeys}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, keys.map((k) => `${k.trim()}\n`).join(''), { mode: 0o600 });
  fs.renameSync(tmp, layout.authorizedKeys);
}

export interface RunningSshd {
  child: ChildProcess;
  pid: number;
}

/** Start sshd in the foreground (-D, log to stderr -e) and resolve once it listens. Rejects with its
 *  last words when it exits first (e.g. "Address already in use"). */
export function startSshd(layout: NodeLayout, port: number, timeoutMs = 10_000): Promise<RunningSshd> {
  return new Promise((resolve, reject) => {
    const child = spawn(SSHD, ['-D', '-e', '-f', layout.config, '-p', String(port)], {
      env: SERVER_ENV,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let said = '';
    let done = false;
    const finish = (err: Error | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) {
        if (child.exitCode === null) child.kill('SIGKILL');
        reject(err);
      } else resolve({ child, pid: child.pid! });
    };
    const timer = setTimeout(
      () => finish(new Error(`sshd did not listen within ${timeoutMs} ms: ${said.trim()}`)),
      timeoutMs,
    );
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      // Keep only the tail (every login adds lines); the listening line is the sign it is up.
      said = (said + chunk).slice(-4000);
      if (/Server listening on/.test(said)) finish(null);
    });
    child.once('error', (err) => finish(err));
    child.once('exit', (code, signal) =>
      finish(new Error(`sshd exited (${code ?? signal}): ${said.trim().split('\n').slice(-3).join(' | ')}`)),
    );
  });
}

/** `dist/nvidia-smi.js` beside the bundle (dist/engine.js), or the repository's from out/engine/. */
export function findNvidiaSmi(): string | undefined {
  // Bundled: dist/engine.js sits beside it. Transpiled for tests (out/engine/): the repository's dist/.
  const file =
    path.basename(__dirname) === 'dist'
      ? path.join(__dirname, 'nvidia-smi.js')
      : path.resolve(__dirname, '..', '..', 'dist', 'nvidia-smi.js');
  return fs.existsSync(file) ? file : undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}
