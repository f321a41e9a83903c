/**
 * The one shape of service command the extension understands: an `rsync` (or `scp`) between the job's
 * folder on this machine and a node of the job's cluster. Its words (shellWords.ts) are read option by
 * option against a list of harmless ones; its remote shell (`-e`/`--rsh`, or scp's ssh options) is
 * replaced by ours (the node's key, our known_hosts and the cluster's host-key alias, BatchMode, a
 * connection of its own); its remote side must be `<the node's user>@<a node of the cluster>:<a path in
 * that user's home>` and its local side a path inside the folder. Anything else is not understood: the
 * caller shows it whole and asks every time. Pure: no vscode, no I/O (the folder check is given).
 */
import * as l10n from '@vscode/l10n';

export interface TransferNode {
  readonly user: string;
  readonly host: string;
  /** Our ssh to this node without its destination: `['ssh', '-p', …, '-o', …]`. */
  readonly ssh: readonly string[];
}

export interface TransferContext {
  /** The nodes of the job's cluster (with an address and a user). */
  readonly nodes: readonly TransferNode[];
  /** Whether a local path, relative to the folder the command runs in, stays inside it (links resolved). */
  readonly insideFolder: (local: string) => boolean;
}

export type Transfer =
  | {
      readonly kind: 'transfer';
      readonly program: 'rsync' | 'scp';
      /** What runs, without a shell. */
      readonly argv: readonly string[];
      readonly node: TransferNode;
    }
  /** Not the understood shape, and why (shown in the question). */
  | { readonly kind: 'other'; readonly why: string };

/** rsync's single-letter options that only choose what is copied and how it is shown. */
const RSYNC_LETTERS = new Set('arltpgoDzvqPhcuniSHAXxW'.split(''));
/** rsync's long options without a value, as harmless. */
const RSYNC_LONG = new Set([
  'archive',
  'recursive',
  'links',
  'times',
  'perms',
  'group',
  'owner',
  'devices',
  'specials',
  'compress',
  'verbose',
  'quiet',
  'partial',
  'progress',
  'stats',
  'human-readable',
  'checksum',
  'update',
  'dry-run',
  'itemize-changes',
  'prune-empty-dirs',
  'omit-dir-times',
  'no-perms',
  'no-owner',
  'no-group',
  'protect-args',
  'secluded-args',
  'whole-file',
  'sparse',
  'hard-links',
  'one-file-system',
]);
/** rsync's long options whose value is a pattern (a word of its own or after `=`). */
const RSYNC_PATTERN = new Set(['exclude', 'include']);
const SCP_LETTERS = new Set('rpqCvTsO'.split(''));
/** scp's options with a value that set up its ssh: replaced by ours. */
const SCP_SSH_VALUED = new Set(['P', 'i', 'o', 'S', 'F', 'c']);

/** Read `words` as an understood transfer, or say why not. */
export function readTransfer(words: readonly string[], ctx: TransferContext): Transfer {
  const other = (why: string): Transfer => ({ kind: 'other', why });
  const program = words[0];
  if (program !== 'rsync' && program !== 'scp') return other(l10n.t('not rsync or scp'));
  const kept: string[] = [];
  const operands: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!w.startsWith('-') || w === '-') {
      operands.push(w);
      continue;
    }
    if (program === 'rsync' && w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = w.slice(2, eq < 0 ? undefined : eq);
      if (name === 'rsh') {
        if (eq < 0) i++; // `--rsh CMD`: its value goes too
        continue;
      }
      if (RSYNC_PATTERN.has(name)) {
        const value = eq < 0 ? words[++i] : w.slice(eq + 1);
        if (value === undefined) return other(l10n.t('{0} without a value', `--${name}`));
        kept.push(`--${name}=${value}`);
        continue;
      }
      if (eq < 0 && RSYNC_LONG.has(name)) {
        kept.push(w);
        continue;
      }
      return other(l10n.t('the option {0}', w));
    }
    // A cluster of single letters; `-e` (rsync) or a valued scp option takes the rest or the next word.
    const letters = w.slice(1);
    let keptLetters = '';
    for (let k = 0; k < letters.length; k++) {
      const c = letters[k];
      const valued = program === 'rsync' ? c === 'e' : SCP_SSH_VALUED.has(c);
      if (valued) {
        if (k === letters.length - 1) i++;
        break;
      }
      if (!(program === 'rsync' ? RSYNC_LETTERS : SCP_LETTERS).has(c))
        return other(l10n.t('the option {0}', `-${c}`));
      keptLetters += c;
    }
    if (keptLetters) kept.push(`-${keptLetters}`);
  }
  if (operands.length !== 2)
    return other(l10n.t('{0} paths, not a source and a destination', operands.length));
  const sides = operands.map((o) => remoteSide(o));
  const remoteAt = sides.findIndex((s) => s !== undefined);
  if (remoteAt < 0 || sides.every((s) => s !== undefined))
    return other(l10n.t('not between this folder and one node'));
  const remote = sides[remoteAt]!;
  if ('bad' in remote) return other(remote.bad);
  const node = ctx.nodes.find((n) => n.user === remote.user && n.host === remote.host);
  if (!node) return other(l10n.t("{0} is not a node of the job's cluster", `${remote.user}@${remote.host}`));
  const whyRemote = remotePathProblem(remote.path);
  if (whyRemote) return other(whyRemote);
  const local = operands[1 - remoteAt];
  const whyLocal = localPathProblem(local);
  if (whyLocal) return other(whyLocal);
  if (!ctx.insideFolder(local)) return other(l10n.t('{0} is outside the folder', local));
  if (program === 'rsync') {
    const rsh = rsyncRemoteShell(node.ssh);
    if (rsh === undefined) return other(l10n.t('the ssh of the extension cannot be written as rsync -e'));
    return { kind: 'transfer', program, argv: ['rsync', ...kept, '-e', rsh, ...operands], node };
  }
  // scp takes ssh's options itself; its port option is -P (its -p keeps times).
  const sshOptions = node.ssh
    .slice(1)
    .map((a, n, all) => (a === '-p' && all[n + 1] !== undefined ? '-P' : a));
  return { kind: 'transfer', program, argv: ['scp', ...kept, ...sshOptions, ...operands], node };
}

/** `user@host:path` as rsync and scp read a remote side (a colon before any slash); undefined when local. */
function remoteSide(
  operand: string,
): { user: string; host: string; path: string } | { bad: string } | undefined {
  const colon = operand.indexOf(':');
  const slash = operand.indexOf('/');
  if (colon < 0 || (slash >= 0 && slash < colon)) return undefined;
  if (operand.startsWith('rsync://') || operand[colon + 1] === ':') return { bad: l10n.t('an rsync daemon') };
  const login = operand.slice(0, colon);
  const at = login.lastIndexOf('@');
  if (at <= 0) return { bad: l10n.t('{0} names no user', login) };
  return { user: login.slice(0, at), host: login.slice(at + 1), path: operand.slice(colon + 1) };
}

/** Why a remote path is not one inside the user's home (relative, or `~/…`), if it is not. */
function remotePathProblem(p: string): string | undefined {
  if (!/^[A-Za-z0-9._~+=,@/-]*$/.test(p))
    return l10n.t('the remote path {0} has characters a remote shell reads', p);
  const rest = p === '~' ? '' : p.startsWith('~/') ? p.slice(2) : p;
  if (rest.startsWith('/') || rest.startsWith('~'))
    return l10n.t('the remote path {0} is outside the home folder', p);
  if (rest.split('/').includes('..')) return l10n.t('the remote path {0} leaves the home folder', p);
  return undefined;
}

/** Why a local path is not a plain relative one, if it is not. */
function localPathProblem(p: string): string | undefined {
  if (p === '' || p.startsWith('/') || p.startsWith('~') || p.startsWith('\\') || /^[A-Za-z]:/.test(p))
    return l10n.t('the local path {0} is not relative to the folder', p);
  if (p.split(/[\\/]/).includes('..')) return l10n.t('the local path {0} leaves the folder', p);
  return undefined;
}

/**
 * An argv as rsync's `-e` reads it: split at spaces, single or double quotes keeping a space (no
 * backslashes). Undefined when a word cannot be written so (it has both kinds of quote, or other blanks).
 */
export function rsyncRemoteShell(argv: readonly string[]): string | undefined {
  const out: string[] = [];
  for (const a of argv) {
    if (/[\t\n\r]/.test(a) || (a.includes("'") && a.includes('"'))) return undefined;
    if (a !== '' && !/[ '"]/.test(a)) out.push(a);
    else out.push(a.includes("'") ? `"${a}"` : `'${a}'`);
  }
  return out.join(' ');
}
