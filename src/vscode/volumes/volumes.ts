/**
 * Storage volumes: the list (single-flight refresh, last good answer kept on error, Mine /
 * Organisation), automatic refresh only while the Volumes view is visible (fast while something is
 * in transition), and following STORAGE_* requests to their end with one message at the end (the words
 * come from the caller: volumeMessages.ts, loaded with the actions).
 * Following goes on when the view is closed; stopping it never cancels anything on the server.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../api/errors';
import type { TrackOutcome } from '../../api/tracking';
import { isVolumeInTransition, type Volume } from '../../model/volume';
import type { ApiService } from '../shared/apiService';
import { loadApi } from '../shared/lazyApi';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import type { VolumeOpMessages } from './onUse/volumeMessages';
import { ViewedList, type ApiClient } from '../shared/viewedList';

export interface VolumeData {
  /** Undefined when the server answered with text only. */
  readonly volumes: readonly Volume[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the volumes read from its table. */
  readonly textVolumes?: readonly Volume[];
  readonly includeOrg: boolean;
}

export type VolumeOpKind = 'create' | 'attach' | 'detach' | 'destroy';

export interface VolumeOp {
  readonly kind: VolumeOpKind;
  readonly volumeId: string;
  readonly label: string;
  readonly status: string;
  /** The volume as the create answer describes it: shown until the list has it. */
  readonly placeholder?: Volume;
}

const VERB: Record<VolumeOpKind, string> = {
  create: 'Creating',
  attach: 'Attaching',
  detach: 'Detaching',
  destroy: 'Destroying',
};

export class VolumesController extends ViewedList<VolumeData> {
  private readonly ops = new Map<string, VolumeOp>();
  private readonly waits = new Set<AbortController>();
  private readonly owners = new Map<string, AbortController>();

  constructor(store: Store, api: ApiService, state: StoredState, log: Log) {
    super(store, api, state, 'tensorpool.volumesIncludeOrg', log, 'Volume');
  }

  get volumes(): readonly Volume[] {
    return this.data?.volumes ?? this.data?.textVolumes ?? [];
  }

  get operations(): readonly VolumeOp[] {
    return [...this.ops.values()];
  }

  opFor(volumeId: string): VolumeOp | undefined {
    return this.ops.get(volumeId);
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
    return this.ops.size > 0 || this.volumes.some(isVolumeInTransition);
  }

  /** Follow every request of one operation to its end; one message (from `messages`) when all have ended. */
  async follow(
    op: Omit<VolumeOp, 'status'>,
    requestIds: readonly string[],
    messages: Readonly<Record<VolumeOpKind, VolumeOpMessages>>,
  ): Promise<TrackOutcome[]> {
    const say = messages[op.kind];
    const ac = new AbortController();
    // Only this operation's own entry is removed at its end: a newer one on the volume stays.
    this.owners.set(op.volumeId, ac);
    this.ops.set(op.volumeId, { ...op, status: requestIds.length ? 'PENDING' : 'ACCEPTED' });
    this.changed();
    this.refreshIfVisible();
    if (requestIds.length === 0) {
      void vscode.window.showInformationMessage(say.accepted(op.label));
      this.owners.delete(op.volumeId);
      this.ops.delete(op.volumeId);
      this.changed();
      return [];
    }
    this.waits.add(ac);
    let outcomes: TrackOutcome[] = [];
    try {
      const [{ trackRequest }, client] = await Promise.all([loadApi(), this.api.client()]);
      outcomes = await Promise.all(
        requestIds.map((id) =>
          trackRequest(this.api.follower(client), id, {
            signal: ac.signal,
            maxTotalMs: 60 * 60_000,
            onStatus: (info) => {
              this.log.info(`${VERB[op.kind]} ${op.label}: request ${id} is ${info.status}`);
              const current = this.owners.get(op.volumeId) === ac ? this.ops.get(op.volumeId) : undefined;
              if (current) this.ops.set(op.volumeId, { ...current, status: info.status });
              this.changed();
              this.refreshIfVisible();
            },
          }),
        ),
      );
    } catch (e) {
      ac.abort(); // the operation's other requests (if any) are not followed on alone
      this.log.warn(`Stopped following ${op.label}: ${errorMessage(e)}`);
      void vscode.window.showWarningMessage(say.lostTrack(op.label, errorMessage(e)));
    } finally {
      this.waits.delete(ac);
      if (this.owners.get(op.volumeId) === ac) {
        this.owners.delete(op.volumeId);
        this.ops.delete(op.volumeId);
        this.changed();
      }
      this.refreshIfVisible();
    }
    this.announce(op, outcomes, say);
    return outcomes;
  }

  private announce(op: Omit<VolumeOp, 'status'>, outcomes: TrackOutcome[], say: VolumeOpMessages): void {
    if (outcomes.length === 0 || outcomes.some((o) => o.kind === 'stopped')) return;
    const failed = outcomes.find((o) => o.kind === 'failed');
    if (failed) {
      void vscode.window.showErrorMessage(say.failed(op.label, failed.info.external_message ?? undefined));
    } else if (outcomes.some((o) => o.kind === 'gave-up')) {
      void vscode.window.showWarningMessage(say.slow(op.label));
    } else {
      void vscode.window.showInformationMessage(say.done(op.label));
    }
  }

  override dispose(): void {
    for (const ac of this.waits) ac.abort();
    super.dispose();
  }
}
