// Folder sync in the bench (issue 43; called by ./index.ts), on a real node of the engine's (its OpenSSH sshd
// on 127.0.0.1) created with the user's key, a tree of TREE_FILES files of random bytes (TREE_BYTES in all) in
// the workspace:
//   - first sync: Sync Folder to Node… (the command, scripted answers: the node, a fresh folder there), from
//     the command to its return (the first sync done), beside a plain `rsync -az` of the same tree over the
//     same ssh (the words the extension gave its rsync's -e, read from its spawn) to a fresh folder of the same
//     node; PAIRS of each, alternating, each once what the one before wrote is on the disk (`sync`). The last
//     sync goes on watching for what follows.
//   - one saved file: an edit of the tree's text file saved through VS Code (TextDocument.save), from the save
//     (save() resolved: the file is written; VS Code's save itself is reported beside) to its new content in
//     the node's folder (read every 2 ms), less the configured debounce
//     (tensorpool.sync.delayMs, its default unless set), beside a plain `rsync -az` of one file of the same
//     size and the same change (outside the watched folder) to the same place in the last plain copy on the
//     node, spawn to exit; SAVES of each, alternating.
//   - watching idle: the host's CPU (own threads, and the children it reaped), the processes it started
//     (./syncProbe.ts) and its live descendants over IDLE_WINDOW_MS with the sync watching and nothing
//     changing, then over the same window with the watch off (the same sync, the same state otherwise); the
//     heap (after a full GC) before the first sync, watching, and with the watch off.
// Injections (../inject.ts): `sync-first-sleep` a sleep before the first sync's rsync (half the plain
// rsync's time); `sync-save-walk` each saved file sent by a whole-tree rsync over an ssh connection of its own
// (the batch's --files-from taken out: rsync walks all TREE_FILES files on both sides); `sync-poll` a 1 s timer
// during the watched window that stats the whole tree and starts `rsync --dry-run` of it, as a polling sync would.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TensorPoolExtensionApi } from '../../../src/extension';
import { ScriptedPrompter } from '../../fixtures/scriptedPrompter';
import { realCluster, removeCluster, type RealCluster } from '../../integration/realCluster';
import { descendants } from '../../shared/processTree';
import { sleep } from '../../shared/wait';
import type { Injection } from '../inject';
import { collector } from './gc';
import { ownConnection, rsyncArgs, saves, type SaveSample } from './syncSave';
import {
  hostCpu,
  profiledWindow,
  SpawnSpy,
  spawnLikeTheExtension,
  walk,
  writeTree,
  type TestTree,
} from './syncProbe';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const TREE_FILES = num('TENSORPOOL_BENCH_SYNC_FILES', 10_000);
const TREE_BYTES = num('TENSORPOOL_BENCH_SYNC_MB', 200) * 1e6;
const PAIRS = num('TENSORPOOL_BENCH_SYNC_PAIRS', 3);
const IDLE_WINDOW_MS = num('TENSORPOOL_BENCH_SYNC_IDLE_MS', 8000);
/** env TENSORPOOL_BENCH_SYNC_ARGV=1: each pair also runs the extension's own rsync argv from the bench (its
 *  output read and dropped), to tell rsync's options from the extension's handling of its output. */
const SAME_ARGV = process.env.TENSORPOOL_BENCH_SYNC_ARGV === '1';

export interface SyncSample {
  files: number;
  bytes: number;
  first: {
    extensionMs: number[];
    rsyncMs: number[];
    /** The extension's own rsync, spawn to close, and the host's CPU (own threads) over each first sync. */
    extensionRsyncMs: number[];
    hostCpuMs: number[];
    /** TENSORPOOL_BENCH_SYNC_ARGV=1: the extension's argv run by the bench, spawn to exit. */
    sameArgvMs?: number[];
  };
  save: SaveSample;
  /** Wall time of the step's parts (s). */
  phasesS: Record<string, number>;
  idle: {
    windowMs: number;
    watched: IdleWindow;
    /** heapUsed after a full GC (MB): before the first sync, watching, the watch off. */
    heapMB: { before: number; watching: number; unwatched: number } | undefined;
  };
  elapsedMs: number;
}

export interface IdleWindow {
  /** The host thread's CPU in the extension's code (V8's sampling profiler, callees included). */
  oursMs: number;
  /** The host thread's CPU in any code (the profiler's non-idle samples). */
  busyMs: number;
  /** Where the extension's time went (its frames nearest the samples' leaves). */
  top: string[];
  /** /proc: the host process's CPU (every thread), and that of the children it reaped. */
  ownMs: number;
  childrenMs: number;
  /** Calls of child_process's functions in the host from the extension (or the injected work). */
  started: string[];
  /** Such calls from VS Code itself or other extensions (the harness turns off its port finder's `ps`). */
  others: number;
  /** Descendants alive at the end that were not at the start. */
  newDescendants: string[];
}

const stopSync = () => vscode.commands.executeCommand('tensorpool.stopSync');

/** Before each timed transfer: the data the one before wrote (200 MB here and on the node, the same disk) on
 *  the disk, so that neither side of a pair pays for the other's write-back (`sync`, then a short rest). */
async function settled(): Promise<void> {
  await new Promise<void>((resolve) => spawn('sync', [], { stdio: 'ignore' }).once('close', () => resolve()));
  await sleep(200);
}

async function firstSyncs(
  api: TensorPoolExtensionApi,
  c: RealCluster,
  tree: TestTree,
  spy: SpawnSpy,
  inject: ReadonlySet<Injection>,
): Promise<SyncSample['first'] & { rsh: string; login: string; plain: string }> {
  const home = path.join(c.nodeDir, 'home');
  const extensionMs: number[] = [];
  const extensionRsyncMs: number[] = [];
  const hostCpuMs: number[] = [];
  const sameArgvMs: number[] = [];
  const rsyncMs: number[] = [];
  let rsh = '';
  let login = '';
  let plain = '';
  let sleepS = 2;
  spy.rewrite = (s) =>
    inject.has('sync-first-sleep') && s.file === 'rsync' && s.cwd === tree.root
      ? {
          ...s,
          file: '/bin/sh',
          args: ['-c', `sleep ${sleepS.toFixed(2)}; exec "$0" "$@"`, 'rsync', ...s.args],
        }
      : s;
  try {
    const plainSync = async (i: number) => {
      plain = `sync-bench-plain-${i}`;
      await settled();
      const ms = await rsyncArgs(rsh, ['./', `${login}:./${plain}/`], tree.root, spy);
      rsyncMs.push(ms);
      sleepS = ms / 2000;
    };
    for (let i = 0; i < PAIRS; i++) {
      // Alternating which goes first (the extension's first: its ssh words are read from its rsync).
      if (i % 2 === 1) await plainSync(i);
      const remote = `sync-bench-ext-${i}`;
      const before = spy.started.length;
      api.setPrompter(new ScriptedPrompter([c.name, `~/${remote}`]));
      await settled();
      const cpu0 = hostCpu().ownMs;
      const t0 = performance.now();
      const r = await vscode.commands.executeCommand<{ ok: boolean; why?: string }>(
        'tensorpool.syncFolderToNode',
        vscode.Uri.file(tree.root),
      );
      extensionMs.push(performance.now() - t0);
      hostCpuMs.push(hostCpu().ownMs - cpu0);
      api.setPrompter(undefined);
      if (!r?.ok) throw new Error(`the first sync failed: ${JSON.stringify(r)}`);
      const sent = fs.readdirSync(path.join(home, remote), { recursive: true }).length;
      if (sent < tree.files) throw new Error(`the first sync left ${sent} entries on the node`);
      const own = spy.started.slice(before).find((s) => s.args.includes('-e') && s.cwd === tree.root);
      if (!own) throw new Error("the extension's rsync was not seen");
      extensionRsyncMs.push((own.closedAt ?? NaN) - own.at);
      const args = own.file === 'rsync' ? own.args : own.args.slice(3);
      rsh = ownConnection(args[args.indexOf('-e') + 1]);
      const dest = args[args.length - 1];
      login = dest.slice(0, dest.indexOf(':'));
      // The last sync goes on watching (the saves and the idle window); the copies stay until the end.
      if (i + 1 < PAIRS) await stopSync();
      // The last goes on: its watch's first read of the tree and the whole-folder check after the first sync
      // (what changed while it ran) end before anything else is timed.
      else await api.testing.sync.flushed();
      if (i % 2 === 0) await plainSync(i);
      if (SAME_ARGV) {
        const argv = [...args.slice(0, -1), `${login}:./sync-bench-argv-${i}/`];
        await settled();
        const t1 = performance.now();
        const child = spy.spawn('rsync', argv, { cwd: tree.root, stdio: ['ignore', 'pipe', 'ignore'] });
        child.stdout.on('data', () => undefined);
        await new Promise((r) => child.once('close', r));
        sameArgvMs.push(performance.now() - t1);
      }
    }
  } finally {
    spy.rewrite = undefined;
    api.setPrompter(undefined);
  }
  return {
    extensionMs,
    rsyncMs,
    extensionRsyncMs,
    hostCpuMs,
    ...(SAME_ARGV ? { sameArgvMs } : {}),
    rsh,
    login,
    plain,
  };
}

async function idleWindow(
  tree: TestTree,
  spy: SpawnSpy,
  ours: (url: string) => boolean,
  poll: boolean,
): Promise<IdleWindow> {
  const before = descendants();
  const cpu0 = hostCpu();
  const s0 = spy.started.length;
  let timer: NodeJS.Timeout | undefined;
  const profiled = await profiledWindow(IDLE_WINDOW_MS, ours, async () => {
    // The injected cost: a polling sync (a walk of the tree and an rsync dry run every second).
    if (poll)
      timer = setInterval(() => {
        walk(tree.root);
        spawnLikeTheExtension('rsync', ['-rn', './', '/nonexistent-sync-bench/'], tree.root);
      }, 1000);
    await sleep(IDLE_WINDOW_MS);
    if (timer) clearInterval(timer);
  });
  const cpu1 = hostCpu();
  const after = descendants();
  const calls = spy.started.slice(s0);
  return {
    ...profiled,
    ownMs: cpu1.ownMs - cpu0.ownMs,
    childrenMs: cpu1.childrenMs - cpu0.childrenMs,
    started: calls.filter((c) => c.ours).map((c) => `${c.file} ${c.args.slice(0, 3).join(' ')}`),
    others: calls.filter((c) => !c.ours).length,
    newDescendants: [...after].filter(([pid]) => !before.has(pid)).map(([pid, name]) => `${pid} ${name}`),
  };
}

export async function syncBench(
  api: TensorPoolExtensionApi,
  inject: ReadonlySet<Injection>,
): Promise<SyncSample> {
  const started = performance.now();
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!ws) throw new Error('the harness opened no workspace folder');
  const gc = collector();
  const heap = () => {
    gc?.();
    return process.memoryUsage().heapUsed / 2 ** 20;
  };
  const phasesS: Record<string, number> = {};
  let at = performance.now();
  const phase = (name: string) => {
    phasesS[name] = Math.round(performance.now() - at) / 1000;
    at = performance.now();
  };
  const tree = writeTree(path.join(ws, 'sync-bench'), TREE_FILES, TREE_BYTES);
  phase('tree');
  const c = await realCluster(`bench-sync-${Date.now()}`);
  await api.refresh();
  const extPath = vscode.extensions.getExtension('tensorpool.tensorpool-vscode')?.extensionPath;
  if (!extPath) throw new Error('the extension is not loaded');
  // The extension's bundles, and this file (the injected work is ours too).
  const mine = [path.join(extPath, 'dist') + path.sep, __filename];
  const ours = (text: string) => mine.some((m) => text.includes(m));
  const spy = new SpawnSpy(ours);
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    spy.restore();
    await stopSync();
    fs.rmSync(tree.root, { recursive: true, force: true });
    for (const e of fs.readdirSync(path.join(c.nodeDir, 'home')))
      if (e.startsWith('sync-bench-'))
        fs.rmSync(path.join(c.nodeDir, 'home', e), { recursive: true, force: true });
    await removeCluster(c);
    await api.refresh();
  };
  try {
    await sleep(1000); // the file watcher's events of the new tree
    phase('cluster');
    const heapBefore = heap();
    const first = await firstSyncs(api, c, tree, spy, inject);
    phase('first syncs');
    if (api.testing.sync.watching() !== true)
      throw new Error('the sync is not watching after its first sync');
    const ext = `sync-bench-ext-${PAIRS - 1}`;
    const save = await saves(c, tree, spy, inject, { ...first, ext });
    phase('saves');
    await api.testing.sync.flushed();
    // The TensorPool views hidden (they refresh while shown): what the extension runs is then the sync's.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await sleep(1000);
    const heapWatching = heap();
    const watched = await idleWindow(tree, spy, ours, inject.has('sync-poll'));
    if (await vscode.commands.executeCommand('tensorpool.toggleSyncWatch'))
      throw new Error('the watch did not turn off');
    const heapUnwatched = heap();
    phase('idle window');
    await cleanUp();
    phase('clean-up');
    return {
      files: tree.files,
      bytes: tree.bytes,
      first: {
        extensionMs: first.extensionMs,
        rsyncMs: first.rsyncMs,
        extensionRsyncMs: first.extensionRsyncMs,
        hostCpuMs: first.hostCpuMs,
        sameArgvMs: first.sameArgvMs,
      },
      save,
      phasesS,
      idle: {
        windowMs: IDLE_WINDOW_MS,
        watched,
        heapMB: gc ? { before: heapBefore, watching: heapWatching, unwatched: heapUnwatched } : undefined,
      },
      elapsedMs: performance.now() - started,
    };
  } finally {
    await cleanUp();
  }
}
