/**
 * Loads the cluster list into the store. One request per refresh, never two at once; the last good
 * answer survives a failed refresh; nothing is requested while signed out. While the stored token is
 * checked at startup (GET /me), the list may be asked for alongside (prefetch): its answer reaches the
 * store only through the load that follows that check's signed-in, and is dropped otherwise.
 */
import type { ClusterListing } from '../model/cluster';
import { isTensorPoolError, errorMessage } from '../api/errors';
import type { ApiService } from './apiService';
import { ScopedList } from './listScope';
import type { Log } from './log';
import type { Store } from './store';
import type { StoredState } from './storedState';
import { mark } from './timingMarks';

type Listing = ClusterListing & { skipped: number };

export class ClustersController extends ScopedList {
  /** The list asked for while the token was checked, for the first load once signed in. */
  private early: { includeOrg: boolean; listing: Promise<Listing>; isCurrent: () => boolean } | undefined;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    state: StoredState,
    private readonly log: Log,
  ) {
    super(state, 'tensorpool.includeOrg');
  }

  /** Drop what is shown (signed out, or another account). */
  clear(): void {
    this.store.updateClusters({ data: undefined, loading: false, error: undefined });
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
      this.store.updateClusters({
        loading: false,
        error: undefined,
        data: {
          clusters: listing.clusters,
          message: listing.message,
          textClusters: listing.textClusters,
          includeOrg,
          at: Date.now(),
        },
      });
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
