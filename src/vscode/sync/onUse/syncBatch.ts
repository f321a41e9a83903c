/**
 * What one transfer of a folder sync sends: first the files whose conflict was decided for the node's
 * version (pulled here, then equal on both sides); then the whole folder on a first sync, what differs in
 * it on a whole-folder check, or else the batch's paths, with the sent paths now gone here deleted there.
 * Held conflicts are left out until decided; `forced` are sent over the node's newer version.
 */
import type { SyncFilter } from '../../../model/syncFilter';
import type { Batch } from '../../../model/syncQueue';
import type { Conflicts } from './syncConflicts';
import { filesOf } from './syncWatch';
import {
  exists,
  pullPaths,
  sendChangedInFolder,
  sendPaths,
  sendWhole,
  type SendContext,
  type SendOutcome,
} from './syncSend';

export async function sendBatch(
  c: SendContext,
  batch: Batch,
  opts: { first: boolean; held: Conflicts; filter: SyncFilter; forced: ReadonlySet<string> },
): Promise<SendOutcome> {
  const { held, forced } = opts;
  const out = await pullDecided(c, held);
  if (!out.result.ok) return out;
  if (opts.first) return sendWhole(c);
  if (batch.whole) return sendChangedInFolder(c, held, forced);
  const paths = filesOf(c.folder, batch.paths, opts.filter).filter((p) => !held.has(p));
  const gone = [...new Set(paths.flatMap((p) => c.sent.at(p)))].filter(
    (p) => !exists(c.folder, p) && !held.has(p),
  );
  return sendPaths(c, paths, gone, forced);
}

/** The files decided for the node's version: pulled here first (then equal on both sides). */
async function pullDecided(c: SendContext, held: Conflicts): Promise<SendOutcome> {
  const theirs = [...held.keepTheirs];
  const none = { conflicts: [], nodeOnly: [], keptThere: [] };
  if (theirs.length === 0) return { result: { ok: true, items: [] }, ...none };
  const result = await pullPaths(c, theirs);
  if (result.ok) for (const p of theirs) held.keepTheirs.delete(p);
  return { result, ...none };
}
