/**
 * What the extension does when things change around it, in one place: signing in loads what a visible
 * view shows, signing out drops it; the `when`-clause context keys follow the store; a view becoming
 * visible refreshes it; a settings change re-creates the API client and re-checks the token, or
 * reschedules the automatic refresh. extension.ts builds the services and hands them here.
 */
import * as vscode from 'vscode';
import { Commands } from './commands';
import type { AccountController } from '../account';
import type { ApiService } from './apiService';
import { knownClusters } from '../../model/cluster';
import type { ClustersController } from '../clusters';
import type { ContextKeys } from './contextKeys';
import type { ObjectStorageController } from '../objectStorage';
import type { RefreshScheduler } from '../clusters';
import { affectsApi, affectsRefreshInterval } from './settings';
import { isNewSignIn, type AccountState, type Store } from './store';
import { mark } from '../testing';

export interface SessionParts {
  readonly store: Store;
  readonly api: ApiService;
  readonly account: AccountController;
  readonly clusters: ClustersController;
  readonly storage: ObjectStorageController;
  readonly scheduler: RefreshScheduler;
  readonly contextKeys: ContextKeys;
  readonly clustersView: vscode.TreeView<unknown>;
  readonly storageView: vscode.TreeView<unknown>;
}

export class Session implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[];
  /** The account as of the last change (to tell a new sign-in from its organisation details arriving). */
  private account: AccountState;

  constructor(private readonly p: SessionParts) {
    this.account = p.store.account;
    this.disposables = [
      p.store.onDidChange((topic) => {
        if (topic === 'objectStorage')
          p.contextKeys.set('tensorpool.objectStorage', p.store.objectStorage.kind);
        if (topic === 'account') this.accountChanged();
        if (topic === 'clusters' && p.store.clusters.data)
          p.contextKeys.set('tensorpool.hasClusters', knownClusters(p.store.clusters.data).length > 0);
        if (topic === 'clusters') this.lastSessionMessage();
      }),
      p.storageView.onDidChangeVisibility((e) => {
        if (e.visible && p.account.signedIn) void p.storage.refresh();
      }),
      p.clustersView.onDidChangeVisibility((e) => {
        if (e.visible && p.account.signedIn) void p.clusters.refresh();
        else p.scheduler.reschedule();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => this.configurationChanged(e)),
    ];
    p.contextKeys.set('tensorpool.account', p.store.account.kind);
    p.contextKeys.set('tensorpool.includeOrg', p.clusters.includeOrg);
    p.contextKeys.set('tensorpool.objectStorage', p.store.objectStorage.kind);
  }

  /** Show the whole organisation's clusters, or only mine (a remembered choice). */
  async setIncludeOrg(include: boolean): Promise<void> {
    await this.p.clusters.setIncludeOrg(include);
    this.p.contextKeys.set('tensorpool.includeOrg', include);
  }

  /** Mine / Organisation for the Clusters section (the other sections' own are their list views',
   *  listViewSetup.ts). */
  scopeCommands(): vscode.Disposable[] {
    const command = (id: string, fn: () => unknown) => vscode.commands.registerCommand(id, fn);
    return [
      command(Commands.showMine, () => this.setIncludeOrg(false)),
      command(Commands.showOrganization, () => this.setIncludeOrg(true)),
    ];
  }

  /** Refresh the cluster list if someone is looking at it. */
  refreshClustersIfVisible(): void {
    if (this.p.clustersView.visible) void this.p.clusters.refresh();
  }

  private accountChanged(): void {
    const { store, contextKeys, clusters, storage } = this.p;
    const before = this.account;
    this.account = store.account;
    contextKeys.set('tensorpool.account', store.account.kind);
    // The last session's list (shown while the stored token was checked) stays only for the same account.
    const last = store.clusters.data?.lastSession;
    if (last && store.account.kind !== 'checking') {
      if (store.account.kind !== 'signedIn' || store.account.id !== last.accountId) clusters.clear();
    }
    if (store.account.kind === 'signedIn') {
      // The organisation details arriving for the same account (account.ts) load nothing again.
      if (!isNewSignIn(before, store.account)) return;
      mark('account.signedIn');
      this.refreshClustersIfVisible();
      clusters.dropPrefetch(); // taken by that refresh, or not wanted (the view is hidden)
      if (this.p.storageView.visible) void storage.refresh();
    } else if (store.account.kind !== 'checking') clusters.dropPrefetch();
    if (store.account.kind === 'signedOut') {
      clusters.clear(true);
      storage.clear();
    }
  }

  /** Above the Clusters rows while they are the last session's. */
  private lastSessionMessage(): void {
    const last = this.p.store.clusters.data?.lastSession !== undefined;
    const message = last ? vscode.l10n.t('From your last session; updating…') : undefined;
    if (this.p.clustersView.message !== message) this.p.clustersView.message = message;
  }

  private configurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (affectsRefreshInterval(e)) this.p.scheduler.reschedule();
    if (!affectsApi(e)) return;
    this.p.api.reset();
    void this.p.account.check();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
