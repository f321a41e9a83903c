/**
 * SSH command lines: splitting one into argv for a terminal (no shell involved), and the command built
 * from the settings when the service offers none.
 */

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

/** The port and user an ssh argv (one sshCommandPolicy.ts accepted) logs in with, where it says. */
export function sshLoginOf(argv: readonly string[]): { port?: number; user?: string } {
  const out: { port?: number; user?: string } = {};
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (a === '-p' && next !== undefined) out.port = Number(next);
    else if (a.startsWith('-p') && /^-p\d+$/.test(a)) out.port = Number(a.slice(2));
    else if (a === '-l' && next !== undefined) out.user = next;
    else if (a === '-o' && next !== undefined) {
      const m = /^\s*(port|user)\s*(?:=|\s)\s*(\S+)\s*$/i.exec(next);
      if (m && m[1].toLowerCase() === 'port') out.port = Number(m[2]);
      else if (m) out.user = m[2];
    } else if (!a.startsWith('-') && i === argv.length - 1 && a.includes('@'))
      out.user = a.slice(0, a.lastIndexOf('@'));
    if (['-p', '-l', '-o', '-i'].includes(a)) i++;
  }
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
