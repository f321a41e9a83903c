/**
 * The cluster list, a ViewedList like every other section's (one request at a time, the last good answer
 * kept on error, nothing requested while signed out, automatic refresh only while the view is visible,
 * fast while a cluster is in transition or an operation on one is followed). Two things only it does:
 *
 * - While the stored token is checked at startup (GET /me), the list may be asked for alongside
 *   (prefetch): its answer is taken only by the load that follows that check's sign-in, and dropped
 *   otherwise.
 * - The last list loaded is kept (globalState, tensorpool.lastClusters: at most LAST_SESSION_MAX clusters,
 *   no secrets) and shown at the next start while the stored token is checked, marked as the last
 *   session's, so the view has its rows at once; it stays only for the same account, the first load
 *   replaces it, and signing out drops it.
 * - Clusters that a structured list of the same account, service and scope had and the next one has not
 *   (destroyed elsewhere: the command line, another window, a job's teardown) are reported to `onGone`,
 *   which removes their ssh host entries. A text-only answer, an error or another scope reports nothing:
 *   an Organisation list is not the whole of the user's clusters for Mine, nor the other way round.
 */
import type * as vscode from 'vscode';
import { isInTransition, knownClusters, type Cluster, type ClusterListing } from '../../model/cluster';
import type { ApiService } from '../shared/apiService';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import { effectiveApiUrl } from '../shared/settings';
import type { StoredState } from '../shared/storedState';
import { ViewedList, type ApiClient } from '../shared/viewedList';
import { mark } from '../testing';

export interface ClusterData {
  /** Undefined when the server answered with text only. */
  readonly clusters: readonly Cluster[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the clusters read from the text (each `source: 'text'`). */
  readonly textClusters?: readonly Cluster[];
  readonly includeOrg: boolean;
  readonly at: number;
  /** The list loaded in an earlier session (shown while the stored token is checked), for this account. */
  readonly lastSession?: { readonly accountId: string };
}

type Listing = ClusterListing & { skipped: number };

/** A longer list is not kept for the next start (globalState is no place for a large document). */
const LAST_SESSION_MAX = 200;

export class ClustersController extends ViewedList<ClusterData> {
  /** The list asked for while the token was checked, for the first load once signed in. */
  private early: { includeOrg: boolean; listing: Promise<Listing>; isCurrent: () => boolean } | undefined;
  /** What the load under way took of `early`. */
  private taken: Promise<Listing> | undefined;
  /** The last signed-in list written for the next start (JSON), so an unchanged list is not written again. */
  private kept: string | undefined;
  private readonly subscription: vscode.Disposable;
  /** The ids the last structured list had, and for which account, service and scope. */
  private listedBefore: { key: string; ids: ReadonlySet<string> } | undefined;
  /** Told the ids of clusters a complete list no longer has (see the module comment). */
  onGone: ((clusterIds: readonly string[]) => void) | undefined;

  constructor(
    store: Store,
    api: ApiService,
    private readonly state: StoredState,
    log: Log,
  ) {
    super(store, api, state, 'tensorpool.includeOrg', log, 'Cluster');
    this.subscription = store.onDidChange((topic) => {
      // A followed operation refreshes the list faster.
      if (topic === 'operations') this.reschedule();
      if (topic === 'account') this.accountChanged();
    });
  }

  /** The clusters as records, or as read from a text-only answer. */
  get clusters(): readonly Cluster[] {
    return knownClusters(this.data);
  }

  /** The last session's list stays only for the same account; a check that did not sign in drops the
   *  prefetched answer. */
  private accountChanged(): void {
    const account = this.store.account;
    if (account.kind === 'checking') return;
    const last = this.data?.lastSession;
    if (last && (account.kind !== 'signedIn' || account.id !== last.accountId)) this.clear();
    if (account.kind !== 'signedIn') this.dropPrefetch();
  }

  override signedIn(): void {
    mark('account.signedIn');
    super.signedIn();
    this.dropPrefetch(); // taken by that refresh, or not wanted (the view is hidden)
  }

  /** Signed out: also the list kept for the next start goes. */
  override signedOut(): void {
    this.clear();
    if (this.state.get('tensorpool.lastClusters') !== undefined) {
      this.kept = undefined;
      void this.state.update('tensorpool.lastClusters', undefined);
    }
  }

  /**
   * While the stored token is checked at startup: show the list the last session loaded for this service URL
   * and scope (nothing is requested for it). The account check keeps it only for the same account.
   */
  showLastSession(): void {
    const last = this.state.get('tensorpool.lastClusters');
    if (this.data || !last) return;
    if (last.apiUrl !== effectiveApiUrl().url || last.includeOrg !== this.includeOrg) return;
    mark('clusters.lastSession');
    this.data = {
      clusters: last.clusters,
      message: undefined,
      includeOrg: last.includeOrg,
      at: last.at,
      lastSession: { accountId: last.accountId },
    };
    this.changed();
  }

  /**
   * Ask for the list while the account check (GET /me) is under way; nothing is shown here.
   * The next load takes the answer if `isCurrent()` still holds (that same check signed in).
   */
  prefetch(isCurrent: () => boolean): void {
    const includeOrg = this.includeOrg;
    mark('clusters.list');
    const listing = this.api.client().then((c) => c.listClusters({ includeOrg, instances: true }));
    listing.catch(() => undefined); // read (or dropped) by the next load
    this.early = { includeOrg, listing, isCurrent };
  }

  /** Forget a prefetched answer that no load took. */
  dropPrefetch(): void {
    this.early = undefined;
  }

  /** The prefetched answer is taken when the load starts (the sign-in that ends the check drops it next). */
  protected override load(): Promise<void> {
    const early = this.early;
    this.early = undefined;
    const fits = early?.includeOrg === this.includeOrg && early.isCurrent();
    this.taken = fits ? early.listing : undefined;
    return super.load();
  }

  protected async fetch(client: ApiClient, includeOrg: boolean): Promise<ClusterData> {
    const taken = this.taken;
    this.taken = undefined;
    if (!taken) mark('clusters.list');
    const listing = await (taken ?? client.listClusters({ includeOrg, instances: true }));
    if (listing.skipped)
      this.log.warn(`Cluster list: ${listing.skipped} record(s) without an id were skipped.`);
    if (listing.unreadRows?.length)
      this.log.info(`Cluster list text: ${listing.unreadRows.length} row(s) could not be read as clusters.`);
    mark('clusters.listEnd');
    const at = Date.now();
    this.gone(listing.clusters, includeOrg);
    this.keep(listing.clusters, includeOrg, at);
    return {
      clusters: listing.clusters,
      message: listing.message,
      textClusters: listing.textClusters,
      includeOrg,
      at,
    };
  }

  protected busy(): boolean {
    return this.store.clusterOperations.length > 0 || (this.data?.clusters ?? []).some(isInTransition);
  }

  /** Report the clusters the previous structured list of this account, service and scope had and this one has not. */
  private gone(clusters: readonly Cluster[] | undefined, includeOrg: boolean): void {
    const account = this.store.account;
    if (!clusters || account.kind !== 'signedIn' || !account.id) return;
    const apiUrl = effectiveApiUrl().url;
    const key = JSON.stringify([account.id, apiUrl, includeOrg]);
    const last = this.state.get('tensorpool.lastClusters');
    const before =
      this.listedBefore ??
      (last && JSON.stringify([last.accountId, last.apiUrl, last.includeOrg]) === key
        ? { key, ids: new Set(last.clusters.map((c) => c.id)) }
        : undefined);
    const ids = new Set(clusters.map((c) => c.id));
    this.listedBefore = { key, ids };
    if (before?.key !== key) return;
    const gone = [...before.ids].filter((id) => !ids.has(id));
    if (gone.length) this.onGone?.(gone);
  }

  /** Keep a structured list for the next start (only when it changed). */
  private keep(clusters: readonly Cluster[] | undefined, includeOrg: boolean, at: number): void {
    const account = this.store.account;
    if (account.kind !== 'signedIn' || !account.id || !clusters || clusters.length > LAST_SESSION_MAX) return;
    const json = JSON.stringify([account.id, includeOrg, clusters]);
    if (json === this.kept) return;
    this.kept = json;
    void this.state.update('tensorpool.lastClusters', {
      apiUrl: effectiveApiUrl().url,
      accountId: account.id,
      includeOrg,
      at,
      clusters,
    });
  }

  override dispose(): void {
    this.subscription.dispose();
    super.dispose();
  }
}
