/**
 * Automatic refresh of the cluster list: only while a TensorPool view is visible and the account is
 * signed in; slow by default (tensorpool.refreshInterval), fast while something is in transition.
 * Nothing polls while nobody is looking.
 */
import type * as vscode from 'vscode';
import { isInTransition } from '../../model/cluster';
import type { ClustersController } from './clusters';
import { RefreshTimer } from '../shared/listScope';
import { readSettings } from '../shared/settings';
import type { Store } from '../shared/store';

const FAST_REFRESH_MS = 5000;

let timeScale = 1;

/** The soak benchmark's accelerated time (test API, outside production): every delay divided by `scale`. */
export function setRefreshTimeScale(scale: number): void {
  timeScale = scale > 0 ? scale : 1;
}

/** The delay before the next automatic refresh of a visible list: fast while something is in transition. */
export function refreshDelay(busy: boolean): number {
  return (busy ? FAST_REFRESH_MS : readSettings().refreshIntervalSeconds * 1000) / timeScale;
}

export class RefreshScheduler implements vscode.Disposable {
  private readonly timer = new RefreshTimer(
    () => this.nextDelay(),
    () => void this.clusters.refresh(),
  );
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: Store,
    private readonly clusters: ClustersController,
    private readonly isVisible: () => boolean,
  ) {
    this.subscription = store.onDidChange((topic) => {
      if (topic === 'account' || topic === 'operations') this.reschedule();
      if (topic === 'clusters' && !store.clusters.loading) this.reschedule();
    });
  }

  /** How long until the next automatic refresh, or undefined when none should happen. */
  nextDelay(): number | undefined {
    if (!this.isVisible() || this.store.account.kind !== 'signedIn') return undefined;
    const busy =
      this.store.clusterOperations.length > 0 ||
      (this.store.clusters.data?.clusters ?? []).some(isInTransition);
    return refreshDelay(busy);
  }

  reschedule(): void {
    this.timer.reschedule();
  }

  dispose(): void {
    this.timer.stop();
    this.subscription.dispose();
  }
}
