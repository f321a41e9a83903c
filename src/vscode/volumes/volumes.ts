/**
 * Storage volumes: the list (single-flight refresh, last good answer kept on error, Mine /
 * Organisation), automatic refresh only while the Volumes view is visible (fast while something is
 * in transition or followed). Volume operations are followed by shared/onUse/operationFollower.ts, which
 * keeps them in the Store; this list shows them.
 */
import type * as vscode from 'vscode';
import { isVolumeInTransition, type Volume } from '../../model/volume';
import type { ApiService } from '../shared/apiService';
import type { Log } from '../shared/log';
import type { Store, VolumeOperation } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import { ViewedList, type ApiClient } from '../shared/viewedList';

export interface VolumeData {
  /** Undefined when the server answered with text only. */
  readonly volumes: readonly Volume[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the volumes read from its table. */
  readonly textVolumes?: readonly Volume[];
  readonly includeOrg: boolean;
}

export class VolumesController extends ViewedList<VolumeData> {
  private readonly subscription: vscode.Disposable;

  constructor(store: Store, api: ApiService, state: StoredState, log: Log) {
    super(store, api, state, 'tensorpool.volumesIncludeOrg', log, 'Volume');
    // A followed operation's status shows on its row, and refreshes go faster while one is followed.
    this.subscription = store.onDidChange((t) => {
      if (t === 'operations') this.changed();
    });
  }

  get volumes(): readonly Volume[] {
    return this.data?.volumes ?? this.data?.textVolumes ?? [];
  }

  /** The volume operations this window is following. */
  get operations(): readonly VolumeOperation[] {
    return this.store.volumeOperations;
  }

  opFor(volumeId: string): VolumeOperation | undefined {
    return this.store.volumeOperation(volumeId);
  }

  /** Price per GB-hour seen on listed volumes (for the 24-hour sentence), when the server gives it. */
  ratePerGbHour(): number | undefined {
    const v = this.volumes.find((x) => x.hourlyRate !== undefined && x.sizeGb);
    return v ? v.hourlyRate! / v.sizeGb! : undefined;
  }

  protected async fetch(client: ApiClient, includeOrg: boolean): Promise<VolumeData> {
    const listing = await client.volumes.listVolumes({ includeOrg });
    if (listing.skipped)
      this.log.warn(`Volume list: ${listing.skipped} record(s) without an id were skipped.`);
    return {
      volumes: listing.volumes,
      message: listing.message,
      textVolumes: listing.textVolumes,
      includeOrg,
    };
  }

  protected busy(): boolean {
    return this.operations.length > 0 || this.volumes.some(isVolumeInTransition);
  }

  override dispose(): void {
    this.subscription.dispose();
    super.dispose();
  }
}
