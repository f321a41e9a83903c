// Known costs the bench can inject (env TENSORPOOL_BENCH_INJECT=all, or a comma-separated list of the names
// below), to show that each gate fails when what it guards gets worse. `npm run bench:gates` runs the bench
// with all of them and passes only when every targeted row is broken (and was not measured twice: an injected
// run does not measure again). Nothing here is in the product: the bench edits the built dist/ files it is
// about to measure (and rebuilds dist/ at the end as always), or the host module does the extra work itself.
export const INJECTIONS = {
  /** A 100 ms busy loop at the top of dist/extension.js (the load part of activation). */
  activation: ["Activation / a reference extension's (same launches)"],
  /** A 400 ms busy loop at the top of dist/api.js (the API layer's first use). */
  api: ["API layer first use / a plain client's (same libraries, same request)"],
  /** One cluster-list refresh through the extension while every section is hidden. */
  'hidden-request': ['Idle 60 s, all 5 sections hidden: requests'],
  /** A setInterval left running over the soak. */
  'timer-leak': ['  timers of ours left'],
  /** An 80 ms busy loop every 120 ms in the extension host while the jobs stream (not while idle). */
  'joblog-stall': ['Job log: event-loop delay p99, streaming / idle (same host, same launch)'],
  /** 8 ms of busy work on the following thread with each batch of metric records (./followLog.ts). */
  'extraction-cost': ['Job log, the follower alone: metric extraction on / off, event-loop p99'],
  /** The GPU telemetry's "open session" opens a new ssh session for every sample (./host/gpuTelemetry.ts). */
  'gpu-fresh-session': [
    'GPU telemetry: a sample over the open session / a fresh ssh nvidia-smi (same node, interleaved)',
  ],
  /** A sleep (a third of the plain rsync's time) before the folder sync's first rsync (./host/syncBench.ts). */
  'sync-first-sleep': ['Folder sync: first sync'],
  /** Each saved file sent by a whole-tree rsync (the batch's --files-from taken out: a walk of every file),
   *  each rsync over an ssh connection of its own (the sync's shared connection taken out). */
  'sync-save-walk': ['Folder sync: one saved file'],
  /** A 1 s timer while the sync watches an idle tree: a walk of the tree and an rsync dry run each tick. */
  'sync-poll': ['Folder sync watching, idle: CPU', 'Folder sync watching, idle: processes started'],
  /** Busy work in the extension host (the plain client's last round trip) as the 1+1 cell's execute reply
   *  arrives on the extension's kernel connection (./host/notebookBench.ts). */
  'notebook-cell-stall': ['Notebook: 1+1 round trip'],
  /** The same for the 100,000-line cell (the plain client's last receive time). */
  'notebook-lines-stall': ['Notebook: 100,000 lines, complete in the notebook'],
  /** A sleep (the last baseline's time) before the ssh probe of the extension's reattach. */
  'notebook-reattach-sleep': ['Notebook: reattach to the running kernel'],
} as const;

export type Injection = keyof typeof INJECTIONS;

/** The injections asked for in the environment (none by default). */
export function injections(value = process.env.TENSORPOOL_BENCH_INJECT): Set<Injection> {
  if (!value) return new Set();
  const names = Object.keys(INJECTIONS) as Injection[];
  const asked = value === 'all' ? names : value.split(',').map((v) => v.trim());
  const unknown = asked.filter((a) => !names.includes(a as Injection));
  if (unknown.length)
    throw new Error(
      `TENSORPOOL_BENCH_INJECT: unknown ${unknown.join(', ')} (known: ${names.join(', ')}, all)`,
    );
  return new Set(asked as Injection[]);
}

/** Busy-waits `ms` milliseconds: the statement the bench puts at the top of a bundle. */
export const busyLoop = (ms: number) => `{const t=Date.now();while(Date.now()-t<${ms});}\n`;
