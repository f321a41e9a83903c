/**
 * One transfer of a folder sync that knows what it sent before: before changed paths are sent, a dry run
 * from the node with checksums (only those paths) tells which of them changed there since the last sync;
 * those that changed on both sides are held back as conflicts, never overwritten; a path deleted here whose
 * copy there changed since is not deleted there. What rsync printed of each file is recorded (its state on
 * both sides), so the next transfer and Pull from Node can tell what changed where.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  batchArgv,
  deleteArgv,
  filesFromInput,
  fullSyncArgv,
  nodeStateArgv,
  plannedArgv,
  pullArgv,
  type SyncProgress,
  type SyncTarget,
} from '../../../model/syncPlan';
import type { SentRecord } from '../../../model/syncQueue';
import {
  isFile,
  isTransfer,
  localState,
  planSend,
  sameState,
  type FileState,
  type RsyncItem,
} from '../../../model/syncState';
import { runRsync, type RsyncResult } from './rsyncRun';

export interface SendContext {
  readonly folder: string;
  readonly target: SyncTarget;
  readonly excludes: readonly string[];
  readonly sent: SentRecord;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
  readonly progress?: (p: SyncProgress) => void;
}

/** What a transfer did besides rsync's result: what it held back and why. */
export interface SendOutcome {
  readonly result: RsyncResult;
  /** Changed here and on the node since the last sync: not sent. */
  readonly conflicts: readonly string[];
  /** Changed only on the node: not sent (Pull from Node brings them). */
  readonly nodeOnly: readonly string[];
  /** Deleted here, changed on the node since the last sync: kept there (no longer the sync's to delete). */
  readonly keptThere: readonly string[];
}

const nothing = (result: RsyncResult): SendOutcome => ({
  result,
  conflicts: [],
  nodeOnly: [],
  keptThere: [],
});

/** The whole folder as one rsync (a first sync: nothing recorded yet, so nothing there can be overwritten). */
export async function sendWhole(c: SendContext): Promise<SendOutcome> {
  const result = await runRsync(fullSyncArgv(c.target, c.excludes), c.folder, {
    signal: c.signal,
    progress: c.progress,
    env: c.env,
  });
  record(c.sent, result.items);
  return nothing(result);
}

/** What a whole-folder sync would send now (after earlier syncs): its paths, then sent as a batch. */
export async function sendChangedInFolder(
  c: SendContext,
  held: { has(p: string): boolean },
  forced: ReadonlySet<string>,
): Promise<SendOutcome> {
  const planned = await runRsync(plannedArgv(c.target, c.excludes), c.folder, {
    signal: c.signal,
    env: c.env,
  });
  if (!planned.ok) return nothing(planned);
  const paths = planned.items
    .filter((i) => !i.change.startsWith('*') && i.change[1] !== 'd' && !held.has(i.path))
    .map((i) => i.path);
  const gone = c.sent.toJSON().filter((p) => !exists(c.folder, p) && !held.has(p));
  return sendPaths(c, paths, gone, forced);
}

/**
 * Send `paths` (changed here) and delete `gone` (sent paths no longer here) on the node, after checking the
 * node's copies against the record; `forced` paths are sent or deleted unchecked (the user chose "mine").
 */
export async function sendPaths(
  c: SendContext,
  paths: readonly string[],
  gone: readonly string[],
  forced: ReadonlySet<string>,
): Promise<SendOutcome> {
  const here = paths.filter((p) => exists(c.folder, p));
  const check = [...here, ...gone].filter((p) => !forced.has(p));
  const node = new Map<string, FileState>();
  if (check.length > 0) {
    const r = await runRsync(nodeStateArgv(c.target, c.excludes), c.folder, {
      input: filesFromInput(check),
      signal: c.signal,
      env: c.env,
    });
    if (!r.ok) return nothing(r);
    for (const i of r.items) if (isFile(i)) node.set(i.path, i.state);
  }
  const plan = planSend(
    here.filter((p) => !forced.has(p)),
    node,
    (p) => c.sent.state(p),
    (p) => stateHere(c.folder, p),
  );
  const send = [...here.filter((p) => forced.has(p)), ...plan.send];
  // A deleted path whose copy there is no longer the one synced (changed there): kept, and no longer ours.
  const keptThere = gone.filter((p) => {
    const there = node.get(p);
    const last = c.sent.state(p);
    return !forced.has(p) && there !== undefined && last !== undefined && !sameState(last, there);
  });
  for (const p of keptThere) c.sent.delete(p);
  const remove = gone.filter((p) => !keptThere.includes(p));
  let result: RsyncResult = { ok: true, items: [] };
  if (send.length > 0) {
    result = await runRsync(batchArgv(c.target, c.excludes), c.folder, {
      input: filesFromInput(send),
      signal: c.signal,
      progress: c.progress,
      env: c.env,
    });
    record(c.sent, result.items);
  }
  if (result.ok && remove.length > 0) {
    const vanished = result.vanished;
    result = await runRsync(deleteArgv(c.target), c.folder, {
      input: filesFromInput(remove),
      signal: c.signal,
      env: c.env,
    });
    for (const i of result.items) if (i.change.startsWith('*')) c.sent.delete(i.path);
    if (result.ok && vanished) result = { ...result, vanished };
  }
  return { result, conflicts: plan.conflicts, nodeOnly: plan.nodeOnly, keptThere };
}

/** Bring `paths` from the node into the folder (the node's copy wins), recording their state. */
export async function pullPaths(c: SendContext, paths: readonly string[]): Promise<RsyncResult> {
  const r = await runRsync(pullArgv(c.target), c.folder, {
    input: filesFromInput(paths),
    signal: c.signal,
    progress: c.progress,
    env: c.env,
  });
  record(c.sent, r.items);
  return r;
}

/** What rsync printed, into the record: a file it sent (or pulled) and one it found equal. */
function record(sent: SentRecord, items: readonly RsyncItem[]): void {
  for (const i of items) {
    if (!isFile(i)) continue;
    if (isTransfer(i)) {
      if (i.change.startsWith('<')) sent.add(i.path, i.state);
      else sent.synced(i.path, i.state); // pulled: equal on both sides, not the sync's to delete
      continue;
    }
    // Equal on both sides (`-ii`): keep a checksum known from before when the copy is the same one.
    const before = sent.state(i.path);
    sent.synced(i.path, before && sameState(before, { ...i.state, sum: undefined }) ? before : i.state);
  }
}

/** The state of the local copy now (size and time), undefined when it is gone. */
export function stateHere(folder: string, rel: string): FileState | undefined {
  try {
    const st = fs.statSync(path.join(folder, rel));
    return st.isFile() ? localState(st.size, st.mtimeMs) : undefined;
  } catch {
    return undefined;
  }
}

export function exists(folder: string, rel: string): boolean {
  try {
    fs.lstatSync(path.join(folder, rel));
    return true;
  } catch {
    return false;
  }
}
