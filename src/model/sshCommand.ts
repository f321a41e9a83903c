/**
 * SSH command lines: splitting one into argv for a terminal (no shell involved), and the command built
 * from the settings when the service offers none.
 */
import * as l10n from '@vscode/l10n';
import { isHostKeyAlias } from './sshAddress';

/** Split a command line into argv (no shell is involved, so nothing in it is interpreted). */
export function splitCommand(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let has = false;
  for (const ch of command.trim()) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) {
        out.push(cur);
        cur = '';
        has = false;
      }
    } else {
      cur += ch;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

export interface SshTarget {
  readonly user: string;
  readonly host: string;
  readonly port: number;
  /** Private key file for -i. */
  readonly identity?: string;
  /** Our known_hosts (as ssh reads it, e.g. `~/.ssh/tensorpool/known_hosts`): with it, a new node's key
   *  is accepted on first use and a changed one refused (StrictHostKeyChecking=accept-new). */
  readonly knownHosts?: string;
  /** The name the node's key is stored under (the host entry's HostKeyAlias). */
  readonly hostKeyAlias?: string;
}

/** `ssh [-p port] [-i key] [-o UserKnownHostsFile=… -o StrictHostKeyChecking=accept-new -o HostKeyAlias=…]
 *  user@host` as argv (port 22 is not spelt out); run without a shell. */
export function buildSshArgv(t: SshTarget): string[] {
  // The alias comes from the cluster id (the service's text): one word ssh reads as a name, or nothing runs.
  if (t.hostKeyAlias !== undefined && !isHostKeyAlias(t.hostKeyAlias))
    throw new Error(
      l10n.t('{0} is not a host key alias ssh can be given', JSON.stringify(t.hostKeyAlias.slice(0, 80))),
    );
  return [
    'ssh',
    ...(t.port !== 22 ? ['-p', String(t.port)] : []),
    ...(t.identity ? ['-i', t.identity] : []),
    ...(t.knownHosts
      ? ['-o', `UserKnownHostsFile=${t.knownHosts}`, '-o', 'StrictHostKeyChecking=accept-new']
      : []),
    ...(t.hostKeyAlias ? ['-o', `HostKeyAlias=${t.hostKeyAlias}`] : []),
    `${t.user}@${t.host}`,
  ];
}

/** ssh's options that take a value (its getopt string), so a bundle like `-tp2222` or `-Cp 2222` reads right. */
const SSH_VALUE_FLAGS = new Set('bceilmopBDEFIJLOPQRSwW');

/** The port and user an ssh argv (one sshCommandPolicy.ts accepted) logs in with, where it says: `-p`,
 *  `-l` and `-o Port=`/`-o User=` alone, joined (`-p2222`) or bundled after flags (`-tp2222`), and the
 *  destination's `user@`. */
export function sshLoginOf(argv: readonly string[]): { port?: number; user?: string } {
  const out: { port?: number; user?: string } = {};
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    for (let j = 1; j < a.length; j++) {
      if (!SSH_VALUE_FLAGS.has(a[j])) continue;
      const value = j + 1 < a.length ? a.slice(j + 1) : argv[++i];
      if (value === undefined) break;
      if (a[j] === 'p') out.port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
      else if (a[j] === 'l') out.user = value;
      else if (a[j] === 'o') {
        const m = /^\s*(port|user)\s*(?:=|\s)\s*(\S+)\s*$/i.exec(value);
        if (m && m[1].toLowerCase() === 'port') out.port = /^\d{1,5}$/.test(m[2]) ? Number(m[2]) : NaN;
        else if (m) out.user = m[2];
      }
      break;
    }
  }
  const dest = argv[i];
  // ssh takes the destination's user only when -l (or -o User) did not name one.
  if (dest !== undefined && dest.includes('@')) out.user ??= dest.slice(0, dest.lastIndexOf('@'));
  if (out.port !== undefined && !(Number.isInteger(out.port) && out.port >= 1 && out.port <= 65535))
    delete out.port;
  return out;
}

/** `ssh [-p port] [-i key] user@host`, as the user would type it (see formatCommand). */
export function buildSshCommand(t: SshTarget): string {
  return formatCommand(buildSshArgv(t));
}

/**
 * An argv as one command line that splitCommand reads back to the same argv: a word with a space (or
 * nothing in it) in double quotes, one with a double quote in single quotes.
 */
export function formatCommand(argv: readonly string[]): string {
  return argv
    .map((a) => (a === '' || /[\s"']/.test(a) ? (a.includes('"') ? `'${a}'` : `"${a}"`) : a))
    .join(' ');
}

/** The Remote-SSH host when there is no alias: user@host, with :port unless it is 22. */
export function remoteSshHost(user: string, host: string, port: number): string {
  return `${user}@${host}${port !== 22 ? `:${port}` : ''}`;
}

/** The home folder of a user on the nodes (where a new Remote-SSH window opens). */
export function remoteHomeFolder(user: string): string {
  return user === 'root' ? '/root' : `/home/${user}`;
}

/** The private key file for a public key path (drops a trailing .pub). */
export function privateKeyPath(publicKeyPath: string): string {
  return publicKeyPath.replace(/\.pub$/, '');
}
