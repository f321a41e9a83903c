// The engine's data folder: where its nodes live (`nodes/<instance id>/`, engine/nodes.ts) and ended real
// jobs keep their outputs (`outputs/<job id>/`, engine/jobRunner.ts). Either the
// folder given with --data-dir (kept at stop, its nodes removed), or a temporary one created at start and
// removed at stop. Its `engine.pid` names the engine using it, so a later start can tell an engine that
// was killed (SIGKILL, a crash) and end the sshd processes it left behind, then tidy its folder.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alive, commandLine, killTreeNow } from './processTree';

const TEMP_PREFIX = 'tensorpool-engine-';
const PID_FILE = 'engine.pid';

export interface DataDir {
  dir: string;
  /** The folder every node's folder is created in. */
  nodes: string;
  /** Created by us (a temporary folder): removed at stop. */
  owned: boolean;
  /** Remove what the engine made: the whole folder when owned, else its nodes, outputs and pid file. */
  remove(): void;
}

export function openDataDir(explicit?: string): DataDir {
  reapStale(explicit);
  const owned = explicit === undefined;
  const dir = owned ? fs.mkdtempSync(path.join(os.tmpdir(), TEMP_PREFIX)) : path.resolve(explicit);
  const nodes = path.join(dir, 'nodes');
  fs.mkdirSync(nodes, { recursive: true });
  fs.writeFileSync(path.join(dir, PID_FILE), `${process.pid}\n`);
  return {
    dir,
    nodes,
    owned,
    remove() {
      if (owned) fs.rmSync(dir, { recursive: true, force: true });
      else {
        fs.rmSync(nodes, { recursive: true, force: true });
        fs.rmSync(path.join(dir, 'outputs'), { recursive: true, force: true });
        fs.rmSync(path.join(dir, PID_FILE), { force: true });
      }
    },
  };
}

/** The engine pid a data folder names, when that engine is gone (null: in use, or not an engine's). */
function deadEngine(dir: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, PID_FILE), 'utf8');
  } catch {
    return false;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  return pid !== process.pid && !alive(pid);
}

/** End the sshd of every node in a dead engine's folder: only a process whose command line names that
 *  node's own config (a pid may have been reused since). */
function reapNodes(nodesDir: string): void {
  let ids: string[];
  try {
    ids = fs.readdirSync(nodesDir);
  } catch {
    return;
  }
  for (const id of ids) {
    const etc = path.join(nodesDir, id, 'etc');
    try {
      const pid = Number(fs.readFileSync(path.join(etc, 'sshd.pid'), 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && commandLine(pid).includes(path.join(etc, 'sshd_config')))
        killTreeNow(pid);
    } catch {
      // no pid file: that sshd never started or already ended
    }
  }
}

/** Cheap: one listing of the temp folder, and only folders with our prefix are read. */
function reapStale(explicit: string | undefined): void {
  const candidates: { dir: string; temp: boolean }[] = [];
  if (explicit !== undefined) candidates.push({ dir: path.resolve(explicit), temp: false });
  try {
    for (const name of fs.readdirSync(os.tmpdir()))
      if (name.startsWith(TEMP_PREFIX)) candidates.push({ dir: path.join(os.tmpdir(), name), temp: true });
  } catch {
    // no temp folder listing: nothing to reap
  }
  for (const c of candidates) {
    if (!deadEngine(c.dir)) continue;
    reapNodes(path.join(c.dir, 'nodes'));
    try {
      if (c.temp) fs.rmSync(c.dir, { recursive: true, force: true });
      else fs.rmSync(path.join(c.dir, 'nodes'), { recursive: true, force: true });
    } catch {
      // another user's folder, or busy: leave it
    }
  }
}
