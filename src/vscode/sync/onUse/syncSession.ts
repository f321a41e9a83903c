/**
 * One folder kept in sync with a folder on a node: the first (whole-folder) sync with progress and Cancel,
 * then, while watching, the changed paths of the folder (VS Code's file watcher: no polling, no process
 * while nothing changes) after `tensorpool.sync.delayMs`, batched, one rsync at a time, only those paths.
 * A deletion reaches the node only for a file this sync sent (the record is kept per folder and node).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SyncFilter } from '../../../model/syncFilter';
import {
  batchArgv,
  deleteArgv,
  filesFromInput,
  fullSyncArgv,
  type SyncTarget,
} from '../../../model/syncPlan';
import { ChangeQueue, isInsidePath, type Batch, type SentRecord } from '../../../model/syncQueue';
import type { Log } from '../../shared/log';
import type { RunningSync, SyncState } from '../index';
import { runRsync, type RsyncResult } from './rsyncRun';

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
}

export class SyncSession implements RunningSync {
  readonly clusterId: string;
  readonly label: string;
  readonly folder: string;
  private readonly queue = new ChangeQueue();
  private readonly filter: SyncFilter;
  private readonly abort = new AbortController();
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

  /** The first sync, with progress and Cancel; then the watch when asked for. */
  async start(): Promise<RsyncResult> {
    const r = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Syncing {0} to {1}', path.basename(this.folder), this.label),
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => this.stop(vscode.l10n.t('cancelled')));
        return this.transfer({ whole: true }, (files, bytes, rate) =>
          progress.report({
            message: vscode.l10n.t('{0} files, {1} MB, {2} MB/s', files, mb(bytes), mb(rate)),
          }),
        );
      },
    );
    return r;
  }

  toggleWatch(): void {
    this.wantWatch = !this.watching;
    if (this.watching) this.stopWatch();
    else {
      this.startWatch();
      this.queue.everything(); // what changed while not watching
      this.schedule();
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
    this.d.log.info(`Stopped syncing ${this.folder} to ${this.label}: ${why}.`);
    this.d.ended(this);
    for (const r of this.idle.splice(0)) r();
  }

  private startWatch(): void {
    if (this.watching || this.stopped) return;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '**/*'));
    const changed = (uri: vscode.Uri) => this.changed(uri);
    const ws = vscode.workspace;
    this.watcher = [
      w,
      w.onDidCreate(changed),
      w.onDidChange(changed),
      w.onDidDelete(changed),
      // What VS Code itself saved, created, deleted or renamed (the file watcher may miss an editor's save in
      // a folder created after the window opened): the same paths, coalesced by the queue.
      ws.onDidSaveTextDocument((d) => changed(d.uri)),
      ws.onDidCreateFiles((e) => e.files.forEach(changed)),
      ws.onDidDeleteFiles((e) => e.files.forEach(changed)),
      ws.onDidRenameFiles((e) => e.files.forEach((f) => (changed(f.oldUri), changed(f.newUri)))),
    ];
  }

  private stopWatch(): void {
    for (const d of this.watcher) d.dispose();
    this.watcher = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private changed(uri: vscode.Uri): void {
    if (uri.scheme !== 'file') return;
    const relative = path.relative(this.folder, uri.fsPath);
    if (path.isAbsolute(relative)) return; // another drive
    const rel = relative.split(path.sep).join('/');
    if (!isInsidePath(rel)) return;
    if (path.posix.basename(rel) === '.gitignore')
      this.filter.forget(path.posix.dirname(rel).replace(/^\.$/, ''));
    if (this.filter.ignored(rel)) return;
    this.queue.add(rel);
    this.schedule();
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

  /** One transfer at a time: the batch (or the whole folder), then the deletions of sent paths now gone. */
  private async transfer(
    batch: Batch,
    report?: (files: number, bytes: number, rate: number) => void,
  ): Promise<RsyncResult> {
    this.busy = true;
    const count = batch.whole ? 0 : batch.paths.length;
    this.show({ kind: 'syncing', files: count });
    const progress = (p: { files: number; bytes: number; rate: number }) => {
      if (batch.whole) this.show({ kind: 'syncing', files: p.files });
      report?.(p.files, p.bytes, p.rate);
    };
    let result: RsyncResult;
    const started = Date.now();
    try {
      const stdin = batch.whole ? undefined : batch.paths.filter((p) => exists(this.folder, p));
      result =
        stdin?.length === 0
          ? { ok: true, names: [] }
          : await runRsync(
              batch.whole
                ? fullSyncArgv(this.d.target, this.d.excludes)
                : batchArgv(this.d.target, this.d.excludes),
              this.folder,
              {
                input: stdin && filesFromInput(stdin),
                signal: this.abort.signal,
                progress,
                env: this.d.env(),
              },
            );
      for (const n of result.names) this.d.sent.add(n);
      if (result.ok) {
        const gone = this.goneSent(batch);
        if (gone.length > 0) {
          result = await runRsync(deleteArgv(this.d.target), this.folder, {
            input: filesFromInput(gone),
            signal: this.abort.signal,
            env: this.d.env(),
          });
          for (const n of result.names) this.d.sent.delete(n);
        }
      }
    } finally {
      this.busy = false;
    }
    // Changes that came during the transfer (their timer may have fired while it ran): the next batch.
    if (this.queue.pending && !this.timer && !this.stopped) this.schedule();
    queueMicrotask(() => this.settle());
    this.d.saveSent();
    if (this.stopped) return result;
    if (result.ok) {
      // The watch starts once the folder is there (the first sync, or its Retry).
      if (this.wantWatch && !this.watching) this.startWatch();
      this.d.log.info(
        `Synced ${batch.whole ? 'the folder' : `${count} path(s)`} of ${this.folder} to ${this.label} in ${Date.now() - started} ms.`,
      );
      this.show({ kind: 'synced', at: Date.now() });
    } else {
      this.lastFailed = batch;
      this.d.log.warn(`Sync of ${this.folder} to ${this.label} failed: ${result.why}`);
      this.show({ kind: 'failed', why: result.why });
    }
    return result;
  }

  /** The sent paths of this batch (or of the whole record) that are no longer here. */
  private goneSent(batch: Batch): string[] {
    const candidates = batch.whole ? this.d.sent.toJSON() : batch.paths.flatMap((p) => this.d.sent.at(p));
    return [...new Set(candidates)].filter((p) => !exists(this.folder, p));
  }
}

function exists(folder: string, rel: string): boolean {
  try {
    fs.lstatSync(path.join(folder, rel));
    return true;
  } catch {
    return false;
  }
}

const mb = (n: number) => (n / (1024 * 1024)).toFixed(1);
