/**
 * Where our SSH hosts live, in one of two ways the user chooses:
 *
 *  - include (default): our hosts in a file of our own, ~/.ssh/tensorpool/config, and one line
 *    `Include ~/.ssh/tensorpool/config` at the very top of ~/.ssh/config, added only after asking
 *    the user once. It has to be the first line: an Include after a `Host`/`Match` line only
 *    applies to hosts matching that line, and ssh uses the first value it finds for each option,
 *    so from the top our entries also win over the user's `Host *` defaults.
 *  - block: our hosts in a marked block at the END of ~/.ssh/config, between
 *    `# >>> tensorpool (…) >>>` and `# <<< tensorpool <<<`. Appending after the user's last
 *    section is safe even when that section is an unterminated `Host`/`Match`: the lines of a
 *    section only run to the next `Host`/`Match` line, and our block (after its comments) starts
 *    with a `Host` line, so none of our options is read as part of the user's section and none of
 *    theirs as part of ours. Being last, the user's earlier `Host *` options win over ours.
 *
 * Either way nothing outside our file / our block / our Include line is changed, and a block that
 * is malformed (begin twice, begin without end, end before begin, end twice) is refused with the
 * reason, leaving the file as it was. The functions on texts are pure; the file functions write
 * atomically, 0600 for new files, in a 0700 directory. The Include line's rules are in sshInclude.ts,
 * the block's in sshBlock.ts.
 */
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import {
  editTextFile,
  NEW_DIR_MODE,
  NEW_FILE_MODE,
  readTextFile,
  type AtomicWriteOptions,
  type WriteResult,
} from './atomicWrite';
import { ConfigError } from './errors';
import { editBlockText } from './sshBlock';
import { editHostsLines, type HostsEdit, type RenderOptions } from './sshHosts';
import { ensureInclude, includeState, removeInclude, type IncludeState } from './sshInclude';
import { isBlank, newLines, parseDoc, renderDoc } from './text';

export * from './sshBlock';
export * from './sshInclude';

/* eslint-disable tensorpool/l10n -- the comment written at the top of ~/.ssh/tensorpool */
const OWN_FILE_HEADER = [
  '# TensorPool SSH hosts, written by the TensorPool VS Code extension and included from ~/.ssh/config.',
  "# A cluster's hosts are rewritten when the cluster changes and removed when it is destroyed, so edits",
  '# here do not last: put settings of your own in ~/.ssh/config.',
];
/* eslint-enable tensorpool/l10n */

export interface SshPaths {
  /** ~/.ssh/config */
  readonly userConfig: string;
  /** ~/.ssh/tensorpool */
  readonly dir: string;
  /** ~/.ssh/tensorpool/config */
  readonly hostsFile: string;
  /** ~/.ssh/tensorpool/known_hosts */
  readonly knownHosts: string;
}

export function sshPaths(home: string): SshPaths {
  const dir = join(home, '.ssh', 'tensorpool');
  return {
    userConfig: join(home, '.ssh', 'config'),
    dir,
    hostsFile: join(dir, 'config'),
    knownHosts: join(dir, 'known_hosts'),
  };
}

// ---------------------------------------------------------------------------------------------
// Our own file

/** Apply a hosts edit to our own file's text (undefined when it does not exist yet). */
export function editOwnHostsText(
  text: string | undefined,
  edit: HostsEdit,
  opts: RenderOptions = {},
): string {
  if (text === undefined && (edit.kind !== 'set' || edit.hosts.length === 0)) return '';
  const doc = parseDoc(text ?? '');
  const old = doc.lines.map((l) => l.text);
  const lines = editHostsLines(old.some((l) => !isBlank(l)) ? old : OWN_FILE_HEADER, edit, opts);
  if (text !== undefined && lines.length === old.length && lines.every((l, i) => l === old[i])) return text;
  doc.lines = newLines(doc, lines);
  return renderDoc(doc);
}

// ---------------------------------------------------------------------------------------------
// Files

function inFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof ConfigError ? err.inFile(file) : err;
  }
}

/** How ~/.ssh/config refers to our file now (a missing file counts as `absent`). */
export async function readIncludeState(paths: SshPaths, home?: string): Promise<IncludeState> {
  return includeState((await readTextFile(paths.userConfig)) ?? '', home);
}

/** Add our Include line to ~/.ssh/config. Call only after the user agreed (once). */
export async function addIncludeLine(
  paths: SshPaths,
  home?: string,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editTextFile(paths.userConfig, (old) => ensureInclude(old ?? '', home), opts);
}

/** Remove our Include line from ~/.ssh/config (when the user switches to block mode or uninstalls). */
export async function removeIncludeLine(
  paths: SshPaths,
  home?: string,
  opts: AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editTextFile(paths.userConfig, (old) => (old === undefined ? '' : removeInclude(old, home)), opts);
}

/** Create our directory (0700) and an empty known_hosts (0600) when missing, so ssh can record node keys there. */
export async function ensureKnownHostsFile(paths: SshPaths): Promise<void> {
  await mkdir(paths.dir, { recursive: true, mode: NEW_DIR_MODE });
  try {
    await (await open(paths.knownHosts, 'wx', NEW_FILE_MODE)).close();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

function writesHosts(edit: HostsEdit): boolean {
  return edit.kind === 'set' && edit.hosts.length > 0;
}

/** Include mode: edit our own hosts file (a removal from a missing file writes nothing). */
export function editOwnHostsFile(
  paths: SshPaths,
  edit: HostsEdit,
  opts: RenderOptions & AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editHosts(paths, paths.hostsFile, edit, opts, (old) => editOwnHostsText(old, edit, opts));
}

/** Block mode: edit our block in ~/.ssh/config (a removal where there is no block writes nothing). */
export function editBlockFile(
  paths: SshPaths,
  edit: HostsEdit,
  opts: RenderOptions & AtomicWriteOptions = {},
): Promise<WriteResult> {
  return editHosts(paths, paths.userConfig, edit, opts, (old) => editBlockText(old ?? '', edit, opts));
}

/** Make sure the known_hosts file exists when hosts are written, then edit `file` with `editText`. */
async function editHosts(
  paths: SshPaths,
  file: string,
  edit: HostsEdit,
  opts: AtomicWriteOptions,
  editText: (old: string | undefined) => string,
): Promise<WriteResult> {
  if (writesHosts(edit)) await ensureKnownHostsFile(paths);
  return editTextFile(file, (old) => inFile(file, () => editText(old)), opts);
}
