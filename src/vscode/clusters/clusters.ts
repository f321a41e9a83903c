/**
 * Loads the cluster list into the store. One request per refresh, never two at once; the last good
 * answer survives a failed refresh; nothing is requested while signed out. While the stored token is
 * checked at startup (GET /me), the list may be asked for alongside (prefetch): its answer reaches the
 * store only through the load that follows that check's signed-in, and is dropped otherwise.
 * The last list loaded is kept (globalState, tensorpool.lastClusters: at most LAST_SESSION_MAX clusters, no
 * secrets) and shown at the next start while the stored token is checked, marked as the last session's, so
 * the view has its rows at once; the account check then keeps it only for the same account (session.ts),
 * the first load replaces it, and signing out drops it.
 */
import type { Cluster, ClusterListing } from '../../model/cluster';
import { isTensorPoolError, errorMessage } from '../../api/errors';
import type { ApiService } from '../shared/apiService';
import { ScopedList } from '../shared/listScope';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import { effectiveApiUrl } from '../shared/settings';
import type { StoredState } from '../shared/storedState';
import { mark } from '../testing';

type Listing = ClusterListing & { skipped: number };

/** A longer list is not kept for the next start (globalState is no place for a large document). */
const LAST_SESSION_MAX = 200;

export class ClustersController extends ScopedList {
  /** The list asked for while the token was checked, for the first load once signed in. */
  private early: { includeOrg: boolean; listing: Promise<Listing>; isCurrent: () => boolean } | undefined;

  /** The last signed-in list written for the next start (JSON), so an unchanged list is not written again. */
  private kept: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly state: StoredState,
    private readonly log: Log,
  ) {
    super(state, 'tensorpool.includeOrg');
  }

  /** Drop what is shown (another account, or a failed check); `forget`: also the list kept for the next
   *  start (signed out). */
  clear(forget = false): void {
    this.store.updateClusters({ data: undefined, loading: false, error: undefined });
    if (forget && this.state.get('tensorpool.lastClusters') !== undefined) {
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
    if (this.store.clusters.data || !last) return;
    if (last.apiUrl !== effectiveApiUrl().url || last.includeOrg !== this.includeOrg) return;
    mark('clusters.lastSession');
    this.store.updateClusters({
      data: {
        clusters: last.clusters,
        message: undefined,
        includeOrg: last.includeOrg,
        at: last.at,
        lastSession: { accountId: last.accountId },
      },
    });
  }

  /** Keep a structured list for the next start (only when it changed). */
  private keep(clusters: readonly Cluster[] | undefined, includeOrg: boolean, at: number): void {
    const account = this.store.account;
    if (account.kind !== 'signedIn' || !account.id || !clusters || clusters.length > LAST_SESSION_MAX) return;
    const json = JSON.stringify([account.id, includeOrg, clusters]);
    if (json === this.kept) return;
    this.kept = json;
    const apiUrl = effectiveApiUrl().url;
    void this.state.update('tensorpool.lastClusters', {
      apiUrl,
      accountId: account.id,
      includeOrg,
      at,
      clusters,
    });
  }

  /**
   * Ask for the list while the account check (GET /me) is under way; nothing reaches the store here.
   * The next load takes the answer if `isCurrent()` still holds (that same check signed in).
   */
  prefetch(isCurrent: () => boolean): void {
    const includeOrg = this.includeOrg;
    mark('clusters.list');
    const listing = this.list(includeOrg);
    listing.catch(() => undefined); // read (or dropped) by the next load
    this.early = { includeOrg, listing, isCurrent };
  }

  /** Forget a prefetched answer that no load took. */
  dropPrefetch(): void {
    this.early = undefined;
  }

  private async list(includeOrg: boolean): Promise<Listing> {
    const client = await this.api.client();
    return client.listClusters({ includeOrg, instances: true });
  }

  protected async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') return;
    const includeOrg = this.includeOrg;
    const early = this.early;
    this.early = undefined;
    const taken = early?.includeOrg === includeOrg && early.isCurrent() ? early.listing : undefined;
    this.store.updateClusters({ loading: true });
    mark('clusters.list');
    try {
      const listing = await (taken ?? this.list(includeOrg));
      if (listing.skipped)
        this.log.warn(`Cluster list: ${listing.skipped} record(s) without an id were skipped.`);
      if (listing.unreadRows?.length)
        this.log.info(
          `Cluster list text: ${listing.unreadRows.length} row(s) could not be read as clusters.`,
        );
      mark('clusters.listEnd');
      const at = Date.now();
      this.store.updateClusters({
        loading: false,
        error: undefined,
        data: {
          clusters: listing.clusters,
          message: listing.message,
          textClusters: listing.textClusters,
          includeOrg,
          at,
        },
      });
      this.keep(listing.clusters, includeOrg, at);
    } catch (e) {
      const message = errorMessage(e);
      this.log.warn(`Cluster list failed: ${message}`);
      this.store.updateClusters({
        loading: false,
        error: { message, kind: isTensorPoolError(e) ? e.kind : 'unknown' },
      });
    }
  }
}
