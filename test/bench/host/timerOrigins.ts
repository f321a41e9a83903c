// Where the timers alive at the soak's end came from. An async_hooks hook records where each Timeout and
// Immediate made while it is on was created, and forgets it when Node destroys it (a timeout that fired, a
// cleared one, an immediate that ran). A timer count that grew is then explained by the timers still alive
// and made during the soak: the extension's (dist/), the bench's, or the host's and other extensions'.
import { createHook } from 'node:async_hooks';
import * as path from 'node:path';

export interface TimerOrigins {
  /** Origins ("file:line:column < file:line:column") of the tracked timers still alive. */
  live(): Promise<string[]>;
  stop(): void;
}

/** The first two frames of the current stack outside Node's own modules and this file (bundles are one
 *  long line: the column says where). */
function origin(): string {
  const frames = (new Error().stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => /\(?([^()\s]+):(\d+:\d+)\)?$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .filter((m) => !m[1].startsWith('node:') && !m[1].endsWith('timerOrigins.js'))
    .map((m) => `${path.basename(m[1])}:${m[2]}`);
  return frames.slice(0, 2).join(' < ') || 'unknown';
}

export function trackTimers(): TimerOrigins {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout' || type === 'Immediate') live.set(id, origin());
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  return {
    // Node reports destroyed timers in a batch on the next turn of the loop: let it pass first.
    live: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      return [...live.values()];
    },
    stop: () => hook.disable(),
  };
}
