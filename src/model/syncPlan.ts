/**
 * Sync Folder to Node, as argv and checks (no vscode, no I/O): the folder on the node (a path inside the
 * login's home, relative or `~/…`), the rsync of a first sync (the whole folder, rsync's own filter rules:
 * a per-directory merge of `.gitignore` plus the excluded names) and of a batch of changed paths (NUL-
 * separated on stdin, `--from0`, never read as options), the deletions (only paths this sync sent, with
 * `--delete-missing-args`), and rsync's output read back (progress, the names it sent). Every rsync runs
 * with `--protect-args` (no remote shell reads a name) and `--safe-links` (a link out of the folder is
 * not copied, never followed), through the extension's own ssh for the node (transferNodes.ts). No
 * `--partial`: rsync writes each file under a temporary name and renames it, so an interrupted transfer
 * never leaves a cut-off file under its name, on either side.
 */
import * as l10n from '@vscode/l10n';
import { missingProgram } from './sshFailure';
import { ITEM_FORMAT } from './syncState';
import { rsyncRemoteShell, type TransferNode } from './transferCommand';

/** Why `p` is not a folder inside the node user's home (relative or `~/…`), if it is not. */
export function remoteFolderProblem(p: string): string | undefined {
  if (p.trim() === '') return l10n.t('Enter a folder on the node.');
  if (/[\0\r\n]/.test(p)) return l10n.t('The folder on the node cannot hold a line break.');
  const rest = remoteRelative(p);
  if (p.startsWith('/') || (p.startsWith('~') && !p.startsWith('~/') && p !== '~'))
    return l10n.t('{0} is outside your home folder on the node: use a path like ~/project.', p);
  if (rest.split('/').includes('..')) return l10n.t('{0} leaves your home folder on the node.', p);
  if (rest.split('/').every((s) => s === '' || s === '.'))
    return l10n.t('Choose a folder inside your home folder, not the home folder itself.');
  return undefined;
}

/** `~/a/b/` or `a//b` as a path relative to the home folder: `a/b` (check it with remoteFolderProblem). */
export function remoteRelative(p: string): string {
  const rest = p === '~' ? '' : p.startsWith('~/') ? p.slice(2) : p;
  return rest
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** The default folder on the node for a local folder named `name`. */
export function defaultRemoteFolder(name: string): string {
  return `~/${name.replace(/[\0\r\n/]/g, '_')}`;
}

export interface SyncTarget {
  readonly node: TransferNode;
  /** The folder on the node, relative to the home (remoteRelative). */
  readonly remote: string;
}

/** The destination as rsync reads it: the folder inside the home, `./`-prefixed (never an option). */
export function destination(t: SyncTarget): string {
  const host = t.node.host.includes(':') ? `[${t.node.host}]` : t.node.host;
  return `${t.node.user}@${host}:./${t.remote}/`;
}

/** The options every sync rsync has: what is copied, how names travel, the extension's ssh. */
function common(t: SyncTarget): string[] {
  const rsh = rsyncRemoteShell(t.node.ssh);
  if (rsh === undefined) throw new Error(l10n.t('the ssh of the extension cannot be written as rsync -e'));
  return ['rsync', '-rltpz', '--protect-args', '--safe-links', '-e', rsh];
}

/** The filter rules: `.gitignore` per directory, then each excluded pattern. */
function filterArgs(excludes: readonly string[]): string[] {
  return ['--filter=:- .gitignore', ...excludes.filter((e) => e.trim() !== '').map((e) => `--exclude=${e}`)];
}

/** A file rsync prints (its `--out-format`) starts with this, apart from its progress lines. */
const NAME_MARK = '>';
/** Each file as `%i\t%C\t%l\t%M\t%n` (syncState.ts reads it back). */
const OUT = `--out-format=${NAME_MARK}${ITEM_FORMAT}`;

/**
 * The first sync (or a whole-folder one): `./` of the folder (the cwd) to the folder on the node. Files
 * already equal there are printed too (`-ii`), so the sync knows the state of every file it made equal. The
 * whole file list is made before the transfer (`--no-inc-recursive`): its progress percent is then of the
 * whole folder, not of the files listed so far, and the notification shows it as a bar that fills (an
 * endless bar is redrawn by the window all the while, CPU taken from the rsync beside it). The list holds
 * about 100 bytes per file in rsync's memory.
 */
export function fullSyncArgv(t: SyncTarget, excludes: readonly string[]): string[] {
  return [
    ...common(t),
    '--mkpath',
    '--no-inc-recursive',
    ...filterArgs(excludes),
    '--info=progress2',
    '-ii',
    OUT,
    './',
    destination(t),
  ];
}

/**
 * What a whole-folder sync would send (a dry run: nothing written), when earlier syncs left a record. Times
 * are compared to the nanosecond (`--modify-window=-1`; rsync's default compares whole seconds): a file
 * rewritten with the same size within the second it was sent in (during the first sync, or while the watch
 * was off) is listed too.
 */
export function plannedArgv(t: SyncTarget, excludes: readonly string[]): string[] {
  return [
    ...common(t),
    ...filterArgs(excludes),
    '--modify-window=-1',
    '--dry-run',
    OUT,
    './',
    destination(t),
  ];
}

/**
 * What the node has of the paths written to stdin, where it differs from the copy here (a dry run from the
 * node with checksums, only those paths: nothing written, no walk of the tree). A path missing on the node
 * is left out of the answer.
 */
export function nodeStateArgv(t: SyncTarget, excludes: readonly string[]): string[] {
  return [
    ...common(t),
    ...filterArgs(excludes),
    '--dry-run',
    '--checksum',
    '--from0',
    '--files-from=-',
    '--ignore-missing-args',
    OUT,
    source(t),
    './',
  ];
}

/**
 * A batch of changed paths (relative to the folder), written NUL-separated to rsync's stdin. Each is sent
 * (`--ignore-times`): they are known to have changed, and rsync's quick check would skip a file saved again
 * with the same size in the same second as the copy on the node (an edit lost).
 */
export function batchArgv(t: SyncTarget, excludes: readonly string[]): string[] {
  return [
    ...common(t),
    '--ignore-times',
    '--mkpath',
    ...filterArgs(excludes),
    '--from0',
    '--files-from=-',
    '--ignore-missing-args',
    '--info=progress2',
    '-ii',
    OUT,
    './',
    destination(t),
  ];
}

/** Deleting on the node the paths written to stdin, all missing here and all sent by this sync. */
export function deleteArgv(t: SyncTarget): string[] {
  return [...common(t), '--from0', '--files-from=-', '--delete-missing-args', OUT, './', destination(t)];
}

/** The source side of a pull: the folder on the node, `./`-prefixed. */
function source(t: SyncTarget): string {
  return destination(t);
}

/** What a pull would bring (a dry run from the node): each file with its size and time, nothing written. */
export function pullListArgv(t: SyncTarget, excludes: readonly string[]): string[] {
  return [...common(t), ...filterArgs(excludes), '--dry-run', OUT, source(t), './'];
}

/** Bringing the chosen files (written NUL-separated to stdin) from the node into the folder (the cwd), each
 *  of them even when its size and second equal the copy here (`--ignore-times`, as a batch). */
export function pullArgv(t: SyncTarget): string[] {
  return [...common(t), '--ignore-times', '--from0', '--files-from=-', OUT, source(t), './'];
}

/** The NUL-separated list rsync reads with `--from0 --files-from=-`. */
export function filesFromInput(paths: readonly string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}

export interface SyncProgress {
  readonly bytes: number;
  readonly percent: number;
  /** Bytes per second. */
  readonly rate: number;
  /** Files transferred so far. */
  readonly files: number;
}

const UNITS: Record<string, number> = {
  B: 1,
  kB: 1024,
  KB: 1024,
  MB: 1024 ** 2,
  GB: 1024 ** 3,
  TB: 1024 ** 4,
};

/** One `--info=progress2` line (`  1,234  45%  1.20MB/s  0:00:01 (xfr#3, to-chk=2/9)`), or undefined. */
export function parseProgress(line: string): SyncProgress | undefined {
  const m = /^\s*([\d,.]+)\s+(\d{1,3})%\s+([\d.]+)([kKMGT]?B)\/s\s+\S+(?:\s+\(xfr#(\d+),)?/.exec(line);
  if (!m) return undefined;
  return {
    bytes: Number(m[1].replace(/[,.]/g, '')),
    percent: Number(m[2]),
    rate: Math.round(Number(m[3]) * (UNITS[m[4]] ?? 1)),
    files: m[5] ? Number(m[5]) : 0,
  };
}

/** A name as rsync prints it: non-printable bytes as `\#ooo` (octal), read back to the name. */
export function unescapeRsyncName(text: string): string {
  if (!text.includes('\\#')) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length;) {
    const m = /^\\#([0-7]{3})/.exec(text.slice(i, i + 5));
    if (m) {
      bytes.push(parseInt(m[1], 8));
      i += 5;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    bytes.push(...Buffer.from(ch, 'utf8'));
    i += ch.length;
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Reads rsync's stdout as it comes (lines end with \n, progress lines with \r), a chunk at a time: the names,
 * and the progress once per chunk (a first sync prints a progress line per file; only the newest counts).
 */
export class RsyncOutputReader {
  private rest = '';
  constructor(
    private readonly onName: (name: string) => void,
    private readonly onProgress: (p: SyncProgress) => void,
  ) {}

  /** A chunk of output: each name read, and of its progress lines only the last one (the newest figures). */
  push(chunk: string): void {
    const parts = (this.rest + chunk).split(/[\r\n]/);
    this.rest = parts.pop() ?? '';
    let progress: string | undefined;
    for (const line of parts) {
      if (line.startsWith(NAME_MARK)) this.name(line);
      else if (line !== '') progress = line;
    }
    if (progress !== undefined) this.progress(progress);
  }

  end(): void {
    if (this.rest.startsWith(NAME_MARK)) this.name(this.rest);
    else if (this.rest) this.progress(this.rest);
    this.rest = '';
  }

  private name(line: string): void {
    const name = unescapeRsyncName(line.slice(NAME_MARK.length));
    if (name && !name.endsWith('/') && name !== '.') this.onName(name);
  }

  private progress(line: string): void {
    const p = parseProgress(line);
    if (p) this.onProgress(p);
  }
}

/** rsync's exit codes that still mean the files reached the node (24: some vanished during the transfer). */
export function rsyncSucceeded(code: number): boolean {
  return code === 0 || code === 24;
}

/**
 * The sentence to show for a failed rsync: rsync's own words for what went wrong (disk full, permission
 * denied…: its first line naming a system error, not the broken connection that followed it), else that
 * the node cannot be reached, else its last words.
 */
export function rsyncFailure(code: number, stderr: string): string {
  // `bash: line 1: rsync: command not found` from the node's shell, before its rsync could answer.
  if (missingProgram(stderr) === 'rsync')
    return l10n.t(
      'rsync was not found on the node: install it there (sudo apt install rsync, or your distribution’s rsync package).',
    );
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^rsync (error|warning): /.test(l));
  const cause = lines.find((l) => SYSTEM_ERROR.test(l) && !CONNECTION_LOST.test(l));
  if (cause) return cause;
  const said = lines.at(-1) ?? stderr.trim().split(/\r?\n/).at(-1) ?? '';
  if (code === 255 || CONNECTION_LOST.test(stderr))
    return l10n.t('The node cannot be reached ({0}).', said || l10n.t('exit code {0}', code));
  return said ? said : l10n.t('rsync ended with exit code {0}.', code);
}

/** A line of rsync naming a system error: `…: No space left on device (28)`, `…: Permission denied (13)`. */
const SYSTEM_ERROR = /\(\d+\)$/;
/** The connection ended under rsync (the node went, or its end of the transfer stopped). */
const CONNECTION_LOST =
  /connection (closed|refused|reset|unexpectedly)|unexplained error|closed by remote host|Broken pipe|timed out/i;

/** The files rsync said vanished while it sent (exit 24), relative to `folder` (its working folder). */
export function vanishedFiles(stderr: string, folder: string): string[] {
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  const out: string[] = [];
  for (const m of stderr.matchAll(/^file has vanished: "(.*)"$/gm)) {
    const p = unescapeRsyncName(m[1]);
    out.push(p.startsWith(prefix) ? p.slice(prefix.length) : p);
  }
  return out;
}
