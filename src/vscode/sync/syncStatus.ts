/**
 * The running folder sync of this window (Sync Folder to Node) as the status bar shows it: `⇅ node 1 ·
 * synced 2 s ago`, `syncing 3 files…`, `sync failed: <why>` (a click offers the log, Retry, Stop). In the
 * activation bundle because the reasons a sync ends are here: its cluster leaves the list, the user signs
 * out, the window closes (dispose). The sync itself (sync/onUse/syncSession.ts) loads on first use.
 */
import * as vscode from 'vscode';
import type { Cluster } from '../../model/cluster';
import { Commands } from '../shared/commands';
import type { Store } from '../shared/store';
import type { WorkspaceState } from '../shared/storedState';

/** What the status bar needs of a running sync. */
export interface RunningSync {
  readonly clusterId: string;
  /** `node 1`, for the status bar. */
  readonly label: string;
  readonly folder: string;
  readonly watching: boolean;
  stop(why: string): void;
  retry(): Promise<unknown>;
  toggleWatch(): void;
  /** Resolves once no change waits and no transfer runs (tests). */
  flushed(): Promise<void>;
}

export type SyncState =
  | { readonly kind: 'syncing'; readonly files: number }
  | { readonly kind: 'synced'; readonly at: number }
  | { readonly kind: 'failed'; readonly why: string };

/** What the sync needs of the cluster list (the Clusters section's controller is one). */
export interface SyncClusterList {
  readonly onDidChange: vscode.Event<unknown>;
  readonly data: { readonly lastSession?: unknown } | undefined;
  readonly clusters: readonly Cluster[];
}

export class SyncStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[];
  private current: RunningSync | undefined;
  private state: SyncState | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Resuming this window's stored syncs was offered (once per sign-in). */
  private offered = false;

  constructor(list: SyncClusterList, store: Store, workspaceState: WorkspaceState) {
    this.item = vscode.window.createStatusBarItem('tensorpool.sync', vscode.StatusBarAlignment.Left, 40);
    this.item.name = vscode.l10n.t('TensorPool folder sync');
    this.item.command = Commands.syncMenu;
    this.subscriptions = [
      list.onDidChange(() => {
        const c = this.current;
        if (!list.data || list.data.lastSession) return;
        if (c && !list.clusters.some((x) => x.id === c.clusterId))
          c.stop(vscode.l10n.t('its cluster is gone'));
        // A folder this workspace synced before, to a cluster listed again: offer to resume (sync/onUse).
        const stored = Object.values(workspaceState.get('tensorpool.syncs', {}));
        if (!c && !this.offered && stored.some((s) => list.clusters.some((x) => x.id === s.clusterId))) {
          this.offered = true;
          void vscode.commands.executeCommand(Commands.resumeSync);
        }
      }),
      store.onDidChange((topic) => {
        if (topic !== 'account' || store.account.kind !== 'signedOut') return;
        this.current?.stop(vscode.l10n.t('signed out'));
        this.offered = false;
      }),
    ];
  }

  get running(): RunningSync | undefined {
    return this.current;
  }

  /** The state the status bar shows (tests read it). */
  get shown(): SyncState | undefined {
    return this.current ? this.state : undefined;
  }

  /** The status bar item's text while a sync runs (tests read it). */
  get text(): string | undefined {
    return this.current ? this.item.text : undefined;
  }

  /** A new sync runs in this window (one at a time: the one before it stops). */
  begin(sync: RunningSync): void {
    if (this.current && this.current !== sync) this.current.stop(vscode.l10n.t('another sync started'));
    this.current = sync;
  }

  /** The sync ended: the item goes. */
  end(sync: RunningSync): void {
    if (this.current !== sync) return;
    this.current = undefined;
    this.state = undefined;
    this.clearTimer();
    this.item.hide();
  }

  update(sync: RunningSync, state: SyncState): void {
    if (this.current !== sync) return;
    this.state = state;
    this.clearTimer();
    // "synced N s ago" is redrawn while it shows (a timer of this window only: nothing is asked of anyone).
    if (state.kind === 'synced') this.timer = setInterval(() => this.draw(), 5000);
    this.draw();
    this.item.show();
  }

  private draw(): void {
    const sync = this.current;
    const state = this.state;
    if (!sync || !state) return;
    const eye = sync.watching ? '' : vscode.l10n.t(' (not watching)');
    switch (state.kind) {
      case 'syncing':
        this.item.text = vscode.l10n.t('$(sync~spin) {0} · syncing {1} files…', sync.label, state.files);
        this.item.backgroundColor = undefined;
        break;
      case 'synced': {
        const s = Math.max(0, Math.round((Date.now() - state.at) / 1000));
        const ago = s < 60 ? vscode.l10n.t('{0} s ago', s) : vscode.l10n.t('{0} min ago', Math.floor(s / 60));
        this.item.text = vscode.l10n.t('⇅ {0} · synced {1}{2}', sync.label, ago, eye);
        this.item.backgroundColor = undefined;
        break;
      }
      case 'failed':
        this.item.text = vscode.l10n.t('$(error) {0} · sync failed: {1}', sync.label, state.why);
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
    this.item.tooltip = vscode.l10n.t('{0} ⇄ {1}: click for the log, Retry, Stop', sync.folder, sync.label);
  }

  private clearTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.current?.stop(vscode.l10n.t('the window closed'));
    this.clearTimer();
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
