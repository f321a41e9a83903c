// The timers a soak leaves behind, and whose they are. An async_hooks hook records where each Timeout and
// Immediate made while it is on was created, and forgets it when Node destroys it (a timeout that fired, a
// cleared one, an immediate that ran). A timer is ours when the code that made it, the innermost frame of its
// creation stack outside Node, is the code under test (dist/, the extension's bundles, libraries included) or
// the bench's (out/). One VS Code's host made is not, even while serving a call of ours: its RPC protocol
// arms an acknowledgement timer of up to 20 s when the extension sends the workbench a message, and it ends
// on its own. So one of theirs that comes or goes cannot hide a timer we leaked, nor pass for one.
import { createHook } from 'node:async_hooks';
import * as path from 'node:path';

export interface TrackedTimer {
  /** Where it was made: the first two frames outside Node ("file:line:column < file:line:column"). */
  where: string;
  ours: boolean;
}

export interface TimerOrigins {
  /** The tracked timers still alive. */
  live(): Promise<TrackedTimer[]>;
  stop(): void;
}

/** This file is out/test/bench/host/timerOrigins.js: the repository is four folders up. */
const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const OURS = [path.join(REPO, 'dist') + path.sep, path.join(REPO, 'out') + path.sep];

function track(): TrackedTimer {
  const files = (new Error().stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => /\(?([^()\s]+):(\d+:\d+)\)?$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .filter((m) => !m[1].startsWith('node:') && !m[1].endsWith('timerOrigins.js'));
  return {
    // Bundles are one long line: the column says where.
    where:
      files
        .slice(0, 2)
        .map((m) => `${path.basename(m[1])}:${m[2]}`)
        .join(' < ') || 'unknown',
    ours: files.length > 0 && OURS.some((dir) => files[0][1].startsWith(dir)),
  };
}

export function trackTimers(): TimerOrigins {
  const live = new Map<number, TrackedTimer>();
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout' || type === 'Immediate') live.set(id, track());
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  return {
    live: async () => {
      const ids = [...live.keys()];
      // Node reports destroyed timers in a batch on a later turn of the loop: let it pass first (the
      // immediates made for that are not among `ids`).
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      return ids.filter((id) => live.has(id)).map((id) => live.get(id)!);
    },
    stop: () => hook.disable(),
  };
}
