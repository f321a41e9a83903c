/**
 * The Clusters tree's top-level rows for the list as it is (fresh elements; clustersTree.ts keeps them):
 * nothing while signed out (the welcome view shows), the last session's list while the stored token is
 * checked, an error row above the last good list, a loading row, the clusters, the ones this window just
 * created that the list does not show yet, "No clusters yet", and with a text-only answer a row that
 * opens the text above the clusters read from it.
 */
import type { Cluster } from '../../model/cluster';
import { firstLine } from '../shared/commonRows';
import type { Store } from '../shared/store';
import type { ClustersController } from './clusters';
import type { ClusterNode } from './clustersTree';

/** Fresh (not yet kept) top-level rows for the list and the store as they are. */
export function rootRows(list: ClustersController, store: Store): ClusterNode[] {
  const { data, loading, error } = list;
  // Signed out: no rows, so the welcome view (Sign in button) shows. While the stored token is checked,
  // the last session's list when there is one (clusters.ts).
  const account = store.account.kind;
  if (account !== 'signedIn' && !(account === 'checking' && data?.lastSession)) return [];
  const rows: ClusterNode[] = [];
  if (error) rows.push({ kind: 'error', message: error.message, errorKind: error.kind });
  if (!data) {
    if (loading && !error) rows.push({ kind: 'loading' });
    return rows;
  }
  if (data.clusters === undefined) {
    // Text only: the server's text (kept for whatever could not be read), the clusters read from
    // it, and what this window created and is following.
    const read = data.textClusters ?? [];
    rows.push({ kind: 'listingText', preview: firstLine(data.message) });
    rows.push(...read.map((cluster) => ({ kind: 'cluster' as const, cluster })));
    rows.push(...placeholders(store, read));
    return rows;
  }
  rows.push(...data.clusters.map((cluster) => ({ kind: 'cluster' as const, cluster })));
  rows.push(...placeholders(store, data.clusters));
  if (rows.length === 0) rows.push({ kind: 'empty', includeOrg: data.includeOrg });
  return rows;
}

/** Clusters this window just created that the list does not show yet. */
function placeholders(store: Store, listed: readonly Cluster[]): ClusterNode[] {
  const ids = new Set(listed.map((c) => c.id));
  return store.clusterOperations
    .filter((r) => r.placeholder && !ids.has(r.id))
    .map((r) => ({ kind: 'cluster' as const, cluster: r.placeholder! }));
}
