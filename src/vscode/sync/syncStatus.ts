/**
 * The running folder sync of this window (Sync Folder to Node). In the activation bundle because the
 * reasons a sync ends are here: its cluster leaves the list, the user signs out, the window closes
 * (dispose); and a folder synced before is offered to resume when its cluster is listed again. The sync
 * itself and its status bar item (`⇅ node 1 · synced 2 s ago`, onUse/syncStatusBar.ts) load on first use.
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
  /** Files changed on both sides, held back until the user says which version wins. */
  readonly conflicts: number;
  stop(why: string): void;
  /** Cancel the transfer running now; the sync stays (Retry). */
  cancel(): void;
  resolveConflicts(): Promise<void>;
  retry(): Promise<unknown>;
  toggleWatch(): void;
  /** Resolves once no change waits and no transfer runs (tests). */
  flushed(): Promise<void>;
}

/** The status bar item of a running sync (onUse/syncStatusBar.ts). */
export interface SyncDisplay extends vscode.Disposable {
  readonly state: SyncState | undefined;
  readonly text: string | undefined;
  update(state: SyncState): void;
}

export type SyncState =
  | { readonly kind: 'syncing'; readonly files: number }
  | { readonly kind: 'synced'; readonly at: number }
  | { readonly kind: 'failed'; readonly why: string }
  | { readonly kind: 'cancelled' };

/** What the sync needs of the cluster list (the Clusters section's controller is one). */
export interface SyncClusterList {
  readonly onDidChange: vscode.Event<unknown>;
  readonly data: { readonly lastSession?: unknown } | undefined;
  readonly clusters: readonly Cluster[];
}

export class SyncStatus implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private current: RunningSync | undefined;
  private display: SyncDisplay | undefined;
  /** Resuming this window's stored syncs was offered (once per sign-in). */
  private offered = false;

  constructor(list: SyncClusterList, store: Store, workspaceState: WorkspaceState) {
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
    return this.current ? this.display?.state : undefined;
  }

  /** The status bar item's text while a sync runs (tests read it). */
  get text(): string | undefined {
    return this.current ? this.display?.text : undefined;
  }

  /** A new sync runs in this window, shown by `display` (one at a time: the one before it stops). */
  begin(sync: RunningSync, display: SyncDisplay): void {
    if (this.current && this.current !== sync) this.current.stop(vscode.l10n.t('another sync started'));
    this.display?.dispose();
    this.current = sync;
    this.display = display;
  }

  /** The sync ended: its item goes. */
  end(sync: RunningSync): void {
    if (this.current !== sync) return;
    this.current = undefined;
    this.display?.dispose();
    this.display = undefined;
  }

  update(sync: RunningSync, state: SyncState): void {
    if (this.current === sync) this.display?.update(state);
  }

  dispose(): void {
    this.current?.stop(vscode.l10n.t('the window closed'));
    this.display?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
