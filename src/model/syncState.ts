/**
 * What a folder sync knows of each file it made equal on both sides (no vscode, no I/O): the state the two
 * copies shared after the last transfer of it, as rsync itself reported it (its size, modification time
 * and, when rsync gave one, its whole-file checksum). A file is "changed on a side" when that side's copy
 * no longer has this state; a file changed on both sides since the last sync is a conflict, never
 * overwritten silently in either direction. rsync's lines are read from its `--out-format` (ITEM_FORMAT).
 */

export interface FileState {
  readonly size: number;
  /** Modification time, whole seconds since the epoch (rsync's %M, printed in UTC: rsync runs with TZ=UTC). */
  readonly mtime: number;
  /** The whole-file checksum as rsync prints it (%C), when it knew one. */
  readonly sum?: string;
}

/** One line of rsync's output: what it did (%i), the file's state on the sending side, and its name. */
export interface RsyncItem {
  /** rsync's itemized change (`>f+++++++++`, `.f`, `*deleting`…). */
  readonly change: string;
  readonly path: string;
  readonly state: FileState;
}

/** The `--out-format` every sync rsync prints its files in (after the line mark): tab-separated, name last. */
export const ITEM_FORMAT = '%i\t%C\t%l\t%M\t%n';

/** A line printed with ITEM_FORMAT (the mark removed, the name unescaped) as an item, or undefined. */
export function parseItem(line: string): RsyncItem | undefined {
  const m = /^([^\t]*)\t *([0-9a-f]*) *\t(\d+)\t(\d{4})\/(\d\d)\/(\d\d)-(\d\d):(\d\d):(\d\d)\t(.+)$/s.exec(
    line,
  );
  if (!m) return undefined;
  const [, change, sum, size, y, mo, d, h, mi, s, path] = m;
  const mtime = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) / 1000;
  return {
    change: change.trim(),
    path,
    state: { size: Number(size), mtime, ...(sum && !/^0+$/.test(sum) ? { sum } : {}) },
  };
}

/** Whether an item is a file rsync sent or would send (not a folder, a link, an unchanged file, a deletion). */
export function isTransfer(item: RsyncItem): boolean {
  return /^[<>]f/.test(item.change);
}

/** Whether an item is a regular file (sent, or unchanged and listed because of `-ii`). */
export function isFile(item: RsyncItem): boolean {
  return /^[<>.ch]f/.test(item.change);
}

/** Whether two states are the same copy: by checksum when both have one, else by size and time. */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.sum && b.sum) return a.sum === b.sum;
  return a.size === b.size && a.mtime === b.mtime;
}

/** A local file's state from its size and modification time in milliseconds (no checksum). */
export function localState(size: number, mtimeMs: number): FileState {
  return { size, mtime: Math.floor(mtimeMs / 1000) };
}

/** The state of a file as stored (`size:mtime[:sum]`) and back. */
export function stateText(s: FileState): string {
  return `${s.size}:${s.mtime}${s.sum ? `:${s.sum}` : ''}`;
}

export function parseStateText(t: string): FileState | undefined {
  const m = /^(\d+):(-?\d+)(?::([0-9a-f]+))?$/.exec(t);
  return m ? { size: Number(m[1]), mtime: Number(m[2]), ...(m[3] ? { sum: m[3] } : {}) } : undefined;
}

export interface SendPlan {
  /** Send these: unchanged on the node since the last sync (or absent there, or already equal). */
  readonly send: readonly string[];
  /** Changed here and on the node since the last sync (or never synced, and different there). */
  readonly conflicts: readonly string[];
  /** Changed only on the node (the local copy is still the synced one): not sent. */
  readonly nodeOnly: readonly string[];
}

/**
 * Which changed local paths may be sent. `node`: what a dry run from the node listed for these paths
 * (those that differ from the copy here; absent = equal here and there, or not on the node), with
 * checksums. `synced`: the state both sides had after the last sync. `here`: the local copy's state now.
 */
export function planSend(
  paths: readonly string[],
  node: ReadonlyMap<string, FileState>,
  synced: (p: string) => FileState | undefined,
  here: (p: string) => FileState | undefined,
): SendPlan {
  const send: string[] = [];
  const conflicts: string[] = [];
  const nodeOnly: string[] = [];
  for (const p of paths) {
    const there = node.get(p);
    const last = synced(p);
    if (!there || (last && sameState(last, there))) send.push(p);
    else if (!last) conflicts.push(p);
    else {
      const mine = here(p);
      if (mine && sameState(last, mine)) nodeOnly.push(p);
      else conflicts.push(p);
    }
  }
  return { send, conflicts, nodeOnly };
}

/** How a file the node has differs from here, for Pull from Node. */
export type PullKind = 'new' | 'changedThere' | 'changedBoth' | 'changedHere';

/**
 * A file a dry run from the node listed (it differs here): new (not here), changed only on the node (the
 * copy here is still the synced one), changed on both sides (or never synced and different here), or
 * changed only here (the node still has the synced copy: nothing to bring back).
 */
export function pullKind(
  there: FileState,
  last: FileState | undefined,
  mine: FileState | undefined,
): PullKind {
  if (!mine) return 'new';
  if (!last) return 'changedBoth';
  const nodeChanged = !sameState(last, there);
  const localChanged = !sameState(last, mine);
  if (nodeChanged && localChanged) return 'changedBoth';
  return nodeChanged ? 'changedThere' : 'changedHere';
}
