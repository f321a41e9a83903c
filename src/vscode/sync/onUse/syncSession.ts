/**
 * One folder kept in sync with a folder on a node: the first (whole-folder) sync with progress and Cancel,
 * then, while watching, the changed paths of the folder (syncWatch.ts: the system's file events, no polling,
 * no process while nothing changes) after `tensorpool.sync.delayMs`, batched, one rsync at a time, only those
 * paths.
 * A deletion reaches the node only for a file this sync sent (the record is kept per folder and node).
 * A file changed on both sides since the last sync is held back and asked about (syncConflicts.ts): the
 * version kept here is sent, the node's is pulled. Cancel of the first sync leaves the sync "cancelled".
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SyncFilter } from '../../../model/syncFilter';
import type { SyncProgress, SyncTarget } from '../../../model/syncPlan';
import { ChangeQueue, type Batch, type SentRecord } from '../../../model/syncQueue';
import type { Prompter } from '../../../wizards/prompter';
import type { Log } from '../../shared/log';
import type { RunningSync, SyncState } from '../index';
import type { RsyncResult } from './rsyncRun';
import { Conflicts, tellOutcome } from './syncConflicts';
import { SshMaster } from './syncMaster';
import { sendBatch } from './syncBatch';
import { watchFolder } from './syncWatch';
import type { SendContext, SendOutcome } from './syncSend';

export interface SessionDeps {
  readonly folder: string;
  readonly target: SyncTarget;
  readonly label: string;
  readonly clusterId: string;
  readonly excludes: readonly string[];
  readonly delayMs: number;
  readonly watch: boolean;
  readonly sent: SentRecord;
  /** The record of what was sent changed: store it. */
  readonly saveSent: () => void;
  readonly show: (s: RunningSync, state: SyncState) => void;
  readonly ended: (s: RunningSync) => void;
  readonly log: Log;
  /** The environment rsync runs with (the host seam's). */
  readonly env: () => Readonly<Record<string, string | undefined>>;
  /** Where conflicts are asked. */
  readonly prompts: () => Prompter;
}

export class SyncSession implements RunningSync {
  readonly clusterId: string;
  readonly label: string;
  readonly folder: string;
  private readonly queue = new ChangeQueue();
  private readonly filter: SyncFilter;
  private readonly abort = new AbortController();
  /** The transfer running now (Cancel of the first sync ends it, not the sync). */
  private running: AbortController | undefined;
  /** Changed on both sides, held back until the user says which version wins. */
  private readonly held = new Conflicts();
  /** The one ssh connection the sync's rsyncs share (ended with the sync). */
  private readonly master: SshMaster;
  private watcher: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private stopped = false;
  private lastFailed: Batch | undefined;
  /** What the status bar shows of this sync. */
  private shown: SyncState | undefined;
  /** Watch after each successful transfer (the setting, then the Watch toggle). */
  private wantWatch: boolean;
  /** When the last transfer finished (resolves the waiting `flushed` calls; tests). */
  private idle: Array<() => void> = [];

  constructor(readonly d: SessionDeps) {
    this.clusterId = d.clusterId;
    this.label = d.label;
    this.folder = d.folder;
    this.wantWatch = d.watch;
    this.master = new SshMaster(d.target.node, d.env);
    this.filter = new SyncFilter(d.excludes, (dir) => {
      try {
        return fs.readFileSync(path.join(d.folder, dir, '.gitignore'), 'utf8');
      } catch {
        return undefined;
      }
    });
  }

  get watching(): boolean {
    return this.watcher.length > 0;
  }

  get conflicts(): number {
    return this.held.size;
  }

  /** The first sync, with progress and Cancel; then the watch when asked for. */
  async start(): Promise<RsyncResult> {
    const r = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Syncing {0} to {1}', path.basename(this.folder), this.label),
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => this.cancel());
        // The bar fills with rsync's percent of the whole folder (fullSyncArgv lists it all first). It is a
        // bar at 0 % from the start: without an increment the notification's bar is an endless one, which the
        // window redraws all the while (CPU taken from the rsync beside it) until rsync's first figures.
        progress.report({ increment: 0 });
        let shown = 0;
        // The watch starts when the first sync ends (its first read of the folder would compete with rsync's);
        // what changed meanwhile is found by a whole-folder check then (transfer).
        return this.transfer({ whole: true }, (p) => {
          const increment = Math.max(0, Math.min(100, p.percent) - shown);
          shown += increment;
          progress.report({
            message: vscode.l10n.t('{0} files, {1} MB, {2} MB/s', p.files, mb(p.bytes), mb(p.rate)),
            increment,
          });
        });
      },
    );
    return r;
  }

  /** Cancel the transfer running now (the first sync's Cancel): the sync stays, "cancelled", with Retry. */
  cancel(): void {
    this.running?.abort();
  }

  /** Ask again which version wins for the files held back as conflicts. */
  async resolveConflicts(): Promise<void> {
    if (this.stopped) return;
    const v = await this.held.ask(this.d.prompts(), this.label);
    if (!v || this.stopped) return;
    for (const p of [...v.mine, ...v.theirs]) this.queue.add(p);
    this.d.log.info(
      `Sync of ${this.folder}: ${v.mine.length} kept here, ${v.theirs.length} from ${this.label}.`,
    );
    if (this.shown) this.show(this.shown);
    this.schedule();
    // Files that became conflicts while the question was open: asked next (all asked were decided).
    if (this.held.size > 0) void this.resolveConflicts();
  }

  toggleWatch(): void {
    this.wantWatch = !this.watching;
    if (this.watching) this.stopWatch();
    else {
      this.queue.everything(); // what changed while not watching: checked once the watch is ready
      this.startWatch(true);
    }
    this.d.log.info(`Sync of ${this.folder}: watching ${this.watching ? 'on' : 'off'}.`);
    if (this.shown) this.show(this.shown); // the status bar says whether it watches
  }

  private show(state: SyncState): void {
    this.shown = state;
    this.d.show(this, state);
  }

  /** Send the batch that failed last (or the whole folder) again, after what is queued. */
  retry(): Promise<void> {
    const batch = this.lastFailed ?? { whole: true };
    this.lastFailed = undefined;
    if (batch.whole) this.queue.everything();
    else for (const p of batch.paths) this.queue.add(p);
    void this.flush();
    return this.flushed();
  }

  /** Every queued change sent (tests): resolves once nothing waits or runs. */
  flushed(): Promise<void> {
    if (!this.busy && !this.queue.pending && !this.timer) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  stop(why: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopWatch();
    this.abort.abort();
    this.master.dispose();
    this.d.log.info(`Stopped syncing ${this.folder} to ${this.label}: ${why}.`);
    this.d.ended(this);
    for (const r of this.idle.splice(0)) r();
  }

  /** Watch the folder; `check`: then a whole-folder check (what changed while unwatched). */
  private startWatch(check = false): void {
    if (this.watching || this.stopped) return;
    this.watcher = watchFolder(
      this.folder,
      this.filter,
      (rel) => {
        this.queue.add(rel);
        // Before the folder is there whole (a first sync failed), changes wait for the Retry's whole sync.
        if (!this.lastFailed?.whole || !this.d.sent.empty) this.schedule();
      },
      (message) => this.d.log.warn(`Watching ${this.folder}: ${message}`),
    );
    // Watched from here on (the folders' watches are made as the call returns): what changed unwatched.
    if (check && this.queue.pending && !this.timer) this.schedule();
  }

  private stopWatch(): void {
    for (const d of this.watcher) d.dispose();
    this.watcher = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The next batch after the delay (a later change moves it: a burst is one batch). */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.d.delayMs);
  }

  private async flush(): Promise<void> {
    if (this.busy || this.stopped) return; // the transfer running now schedules what came meanwhile
    if (this.queue.pending) await this.transfer(this.queue.take());
    if (this.stopped) return;
    if (this.queue.pending) {
      if (!this.timer) this.schedule();
      return;
    }
    this.settle();
  }

  /** Nothing queued, waiting or running: the `flushed` calls resolve. */
  private settle(): void {
    if (!this.busy && !this.timer && !this.queue.pending) for (const r of this.idle.splice(0)) r();
  }

  /** One transfer at a time (what it sends: syncBatch.ts); then the state it leaves is shown and logged. */
  private async transfer(batch: Batch, report?: (p: SyncProgress) => void): Promise<RsyncResult> {
    this.busy = true;
    const count = batch.whole ? 0 : batch.paths.length;
    this.show({ kind: 'syncing', files: count });
    const running = new AbortController();
    this.running = running;
    const onStop = () => running.abort();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    const first = batch.whole && this.d.sent.empty;
    const c: SendContext = {
      folder: this.folder,
      // A first sync is one rsync: it connects on its own (a master started beside it would only add a
      // handshake to it); the master starts when it ends, ready for the batches.
      target: first ? this.d.target : { ...this.d.target, node: this.master.through() },
      excludes: this.d.excludes,
      sent: this.d.sent,
      env: this.d.env(),
      signal: running.signal,
      progress: (p) => {
        if (batch.whole) this.show({ kind: 'syncing', files: p.files });
        report?.(p);
      },
    };
    let out: SendOutcome;
    const started = Date.now();
    const forced = new Set(this.held.keepMine);
    try {
      out = await sendBatch(c, batch, { first, held: this.held, filter: this.filter, forced });
    } finally {
      this.busy = false;
      this.running = undefined;
      this.abort.signal.removeEventListener('abort', onStop);
    }
    const result = out.result;
    if (result.ok) for (const p of forced) this.held.keepMine.delete(p);
    // Changes that came during the transfer (their timer may have fired while it ran): the next batch.
    if (this.queue.pending && !this.timer && !this.stopped) this.schedule();
    queueMicrotask(() => this.settle());
    this.d.saveSent();
    if (this.stopped) return result;
    tellOutcome(out, this.label, this.d.log);
    if (out.conflicts.length > 0) {
      this.held.hold(out.conflicts);
      void this.resolveConflicts();
    }
    if (result.ok) {
      // The watch starts once the folder is there (the first sync, or its Retry); what changed here while
      // the first sync ran, unwatched, is sent by a whole-folder check right after it (a dry run first).
      if (this.wantWatch && !this.watching) {
        if (first) this.queue.everything();
        this.startWatch(first);
      }
      if (first) this.master.through(); // the connection the batches share, up before the first save
      this.d.log.info(
        `Synced ${batch.whole ? 'the folder' : `${count} path(s)`} of ${this.folder} to ${this.label} in ${Date.now() - started} ms.`,
      );
      this.show({ kind: 'synced', at: Date.now() });
    } else {
      this.lastFailed = batch;
      const cancelled = running.signal.aborted;
      // The folder is not there whole: nothing is sent piecemeal until a whole sync (Retry) succeeds (the
      // watch goes on: a watcher disposed and made again at once can miss what follows).
      if (first) this.queue.take();
      this.d.log.warn(
        `Sync of ${this.folder} to ${this.label} ${cancelled ? 'cancelled' : `failed: ${result.why}`}`,
      );
      this.show(cancelled ? { kind: 'cancelled' } : { kind: 'failed', why: result.why });
    }
    return result;
  }
}

const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
