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
 * atomically, 0600 for new files, in a 0700 directory.
 */
import { mkdir, open } from 'node:fs/promises';
import { join, posix } from 'node:path';
import {
  editTextFile,
  NEW_DIR_MODE,
  NEW_FILE_MODE,
  readTextFile,
  type AtomicWriteOptions,
  type WriteResult,
} from './atomicWrite';
import { ConfigError } from './errors';
import { editHostsLines, isEmptyHostsLines, type HostsEdit, type RenderOptions } from './sshHosts';
import { appendBlock, isBlank, newLines, parseDoc, removeLines, renderDoc, type Doc } from './text';

export const OWN_CONFIG_REF = '~/.ssh/tensorpool/config';
export const INCLUDE_LINE = `Include ${OWN_CONFIG_REF}`;
export const BLOCK_BEGIN = '# >>> tensorpool (managed by the TensorPool VS Code extension; do not edit) >>>';
export const BLOCK_END = '# <<< tensorpool <<<';

const OWN_FILE_HEADER = [
  '# TensorPool SSH hosts, written by the TensorPool VS Code extension and included from ~/.ssh/config.',
  "# A cluster's hosts are rewritten when the cluster changes and removed when it is destroyed, so edits",
  '# here do not last: put settings of your own in ~/.ssh/config.',
];

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
// ssh_config lines

/** Keyword and arguments of a directive (`Keyword args` or `Keyword=args`), or undefined for blanks and comments. */
function directive(text: string): { keyword: string; args: string } | undefined {
  const t = text.trim();
  if (t === '' || t.startsWith('#')) return undefined;
  const m = /^([A-Za-z]+)(?:\s*=\s*|\s+|$)(.*)$/.exec(t);
  return m ? { keyword: m[1].toLowerCase(), args: m[2] } : undefined;
}

/** Whitespace-separated arguments; double quotes group. */
function splitArgs(args: string): string[] {
  return [...args.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function isOurIncludePath(arg: string, home: string | undefined): boolean {
  const norm = (p: string): string => posix.normalize(p.replace(/\\/g, '/')).toLowerCase();
  const p = norm(arg);
  const candidates = [
    OWN_CONFIG_REF,
    'tensorpool/config',
    ...(home ? [`${home}/.ssh/tensorpool/config`] : []),
  ].map(norm);
  return candidates.includes(p);
}

/** Lines of `Include` directives whose only argument is our file. `global` ones come before any Host/Match. */
function ourIncludes(doc: Doc, home: string | undefined): Array<{ line: number; global: boolean }> {
  const found: Array<{ line: number; global: boolean }> = [];
  let global = true;
  doc.lines.forEach(({ text }, line) => {
    const d = directive(text);
    if (!d) return;
    if (d.keyword === 'host' || d.keyword === 'match') global = false;
    if (d.keyword !== 'include') return;
    const args = splitArgs(d.args);
    if (args.length === 1 && isOurIncludePath(args[0], home)) found.push({ line, global });
  });
  return found;
}

/**
 * `global`: ~/.ssh/config includes our file for every host. `scoped`: it includes it only inside
 * a Host/Match section (not enough; `ensureInclude` adds the top line). `absent`: not at all.
 */
export type IncludeState = 'global' | 'scoped' | 'absent';

export function includeState(text: string, home?: string): IncludeState {
  const found = ourIncludes(parseDoc(text), home);
  return found.some((f) => f.global) ? 'global' : found.length ? 'scoped' : 'absent';
}

/** Our Include line as the very first line (after a BOM), unless an equivalent one is already in force. */
export function ensureInclude(text: string, home?: string): string {
  if (includeState(text, home) === 'global') return text;
  const doc = parseDoc(text);
  doc.lines.unshift(...newLines(doc, [INCLUDE_LINE]));
  return renderDoc(doc);
}

/** Remove the global Include lines of our file (ones inside a Host/Match section are the user's). */
export function removeInclude(text: string, home?: string): string {
  const doc = parseDoc(text);
  const ours = ourIncludes(doc, home).filter((f) => f.global);
  for (const { line } of ours.reverse()) removeLines(doc, line, line + 1);
  return ours.length ? renderDoc(doc) : text;
}

// ---------------------------------------------------------------------------------------------
// The marked block

const IS_BEGIN = /^\s*#\s*>>>\s*tensorpool\b/i;
const IS_END = /^\s*#\s*<<<\s*tensorpool\b/i;

function lineList(lines: number[]): string {
  return lines.map((l) => l + 1).join(' and ');
}

/** The block's marker lines, undefined when there is none; ConfigError('malformed-block') when it is not
 * exactly one well-ordered pair. */
function locateBlock(doc: Doc): { begin: number; end: number } | undefined {
  const begins: number[] = [];
  const ends: number[] = [];
  doc.lines.forEach(({ text }, i) => {
    if (IS_BEGIN.test(text)) begins.push(i);
    else if (IS_END.test(text)) ends.push(i);
  });
  const refuse = (why: string): never => {
    throw new ConfigError(
      'malformed-block',
      `${why} TensorPool changes nothing until there is exactly one "${BLOCK_BEGIN}" line followed by one "${BLOCK_END}" line (or neither).`,
    );
  };
  if (begins.length > 1)
    refuse(
      `the TensorPool begin marker appears ${begins.length} times (lines ${lineList(begins)}); delete the duplicate block.`,
    );
  if (ends.length > 1)
    refuse(
      `the TensorPool end marker appears ${ends.length} times (lines ${lineList(ends)}); delete the extra one.`,
    );
  if (begins.length === 1 && ends.length === 0)
    refuse(`the TensorPool begin marker on line ${begins[0] + 1} has no end marker after it.`);
  if (begins.length === 0 && ends.length === 1)
    refuse(`the TensorPool end marker on line ${ends[0] + 1} has no begin marker before it.`);
  if (begins.length === 0) return undefined;
  if (ends[0] < begins[0])
    refuse(
      `the TensorPool end marker (line ${ends[0] + 1}) comes before the begin marker (line ${begins[0] + 1}).`,
    );
  return { begin: begins[0], end: ends[0] };
}

/** The lines inside our block, or undefined when there is none (throws when malformed). */
export function readBlock(text: string): string[] | undefined {
  const doc = parseDoc(text);
  const block = locateBlock(doc);
  return block && doc.lines.slice(block.begin + 1, block.end).map((l) => l.text);
}

/**
 * Apply a hosts edit inside our block: replace only what is between the markers, append the block
 * at the end when absent, and remove it (with the blank line we put before it) when no host is left.
 */
export function editBlockText(text: string, edit: HostsEdit, opts: RenderOptions = {}): string {
  const doc = parseDoc(text);
  const block = locateBlock(doc);
  const inside = block ? doc.lines.slice(block.begin + 1, block.end).map((l) => l.text) : [];
  const next = editHostsLines(inside, edit, opts);
  if (isEmptyHostsLines(next)) {
    if (!block) return text;
    removeLines(doc, block.begin, block.end + 1, true);
    return renderDoc(doc);
  }
  if (!block) {
    appendBlock(doc, [BLOCK_BEGIN, ...next, BLOCK_END]);
    return renderDoc(doc);
  }
  const old = doc.lines.slice(block.begin + 1, block.end);
  if (old.length === next.length && old.every((l, i) => l.text === next[i])) return text;
  doc.lines.splice(block.begin + 1, block.end - block.begin - 1, ...newLines(doc, next));
  return renderDoc(doc);
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
export async function editOwnHostsFile(
  paths: SshPaths,
  edit: HostsEdit,
  opts: RenderOptions & AtomicWriteOptions = {},
): Promise<WriteResult> {
  if (writesHosts(edit)) await ensureKnownHostsFile(paths);
  return editTextFile(
    paths.hostsFile,
    (old) => inFile(paths.hostsFile, () => editOwnHostsText(old, edit, opts)),
    opts,
  );
}

/** Block mode: edit our block in ~/.ssh/config (a removal where there is no block writes nothing). */
export async function editBlockFile(
  paths: SshPaths,
  edit: HostsEdit,
  opts: RenderOptions & AtomicWriteOptions = {},
): Promise<WriteResult> {
  if (writesHosts(edit)) await ensureKnownHostsFile(paths);
  return editTextFile(
    paths.userConfig,
    (old) => inFile(paths.userConfig, () => editBlockText(old ?? '', edit, opts)),
    opts,
  );
}
