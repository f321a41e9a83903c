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
}

/** `ssh [-p port] [-i key] user@host` as argv (port 22 is not spelt out); run without a shell. */
export function buildSshArgv(t: SshTarget): string[] {
  return [
    'ssh',
    ...(t.port !== 22 ? ['-p', String(t.port)] : []),
    ...(t.identity ? ['-i', t.identity] : []),
    `${t.user}@${t.host}`,
  ];
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
