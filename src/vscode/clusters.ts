/**
 * Loads the cluster list into the store. One request per refresh, never two at once; the last good
 * answer survives a failed refresh; nothing is requested while signed out.
 */
import { isTensorPoolError, errorMessage } from '../api/errors';
import type { ApiService } from './apiService';
import { ScopedList } from './listScope';
import type { Log } from './log';
import type { Store } from './store';
import type { StoredState } from './storedState';
import { mark } from './timingMarks';

export class ClustersController extends ScopedList {
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

  protected async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') return;
    const includeOrg = this.includeOrg;
    this.store.updateClusters({ loading: true });
    mark('clusters.list');
    try {
      const client = await this.api.client();
      const listing = await client.listClusters({ includeOrg, instances: true });
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
