/**
 * Follows create/destroy requests to COMPLETED or FAILED (Retry-After honoured by the tracker),
 * shows them on the tree item and in a status-bar progress item, and says one thing at the end.
 * Waiting lives here, not in the view: closing the view does not stop it. Stopping the wait never
 * cancels anything on the server.
 */
import { errorMessage } from '../../../api/errors';
import * as vscode from 'vscode';
import type { TrackOutcome } from '../../../api/tracking';
import type { Cluster } from '../../../model/cluster';
import type { ApiService } from '../../shared/apiService';
import type { ClustersController } from '../clusters';
import { Commands } from '../../shared/commands';
import { loadApi } from '../../shared/lazyApi';
import type { Log } from '../../shared/log';
import type { Store, TrackedRequest } from '../../shared/store';

export interface FollowRequest {
  readonly kind: TrackedRequest['kind'];
  readonly requestId: string | undefined;
  readonly clusterId: string;
  readonly label: string;
  readonly placeholder?: Cluster;
}

/** The log's words for the kinds (the log is not localised). */
const LOG_VERB: Record<TrackedRequest['kind'], string> = {
  create: 'Creating',
  destroy: 'Destroying',
  edit: 'Updating',
};

/** "Creating gpu-box" and the like: one message per kind (word order differs between languages). */
function doing(kind: TrackedRequest['kind'], label: string): string {
  if (kind === 'create') return vscode.l10n.t('Creating {0}', label);
  if (kind === 'destroy') return vscode.l10n.t('Destroying {0}', label);
  return vscode.l10n.t('Updating {0}', label);
}

/** Said when the wait for an operation broke off (the operation itself goes on). */
function lostTrack(kind: TrackedRequest['kind'], label: string, why: string): string {
  if (kind === 'create')
    return vscode.l10n.t(
      'Lost track of creating {0}: {1}. The operation goes on; refresh the list to see where it stands.',
      label,
      why,
    );
  if (kind === 'destroy')
    return vscode.l10n.t(
      'Lost track of destroying {0}: {1}. The operation goes on; refresh the list to see where it stands.',
      label,
      why,
    );
  return vscode.l10n.t(
    'Lost track of updating {0}: {1}. The operation goes on; refresh the list to see where it stands.',
    label,
    why,
  );
}

export class RequestFollower implements vscode.Disposable {
  private readonly waits = new Map<string, AbortController>();
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly clusters: ClustersController,
    private readonly log: Log,
    /** Refresh the list if someone is looking at it (the wait itself goes on regardless). */
    private readonly refreshIfVisible: () => void,
    /** Called when a followed request ends (e.g. remove a destroyed cluster's ssh hosts). */
    private readonly onFinished: (r: FollowRequest, outcome: TrackOutcome) => void = () => undefined,
    private readonly maxWaitMs = 60 * 60_000,
  ) {
    this.item = vscode.window.createStatusBarItem(
      'tensorpool.operations',
      vscode.StatusBarAlignment.Left,
      -101,
    );
    this.item.name = vscode.l10n.t('TensorPool Operations');
    this.item.command = Commands.showOperations;
    this.subscription = store.onDidChange((t) => {
      if (t === 'requests') this.render();
    });
  }

  private render(): void {
    const reqs = this.store.requests;
    if (reqs.length === 0) {
      this.item.hide();
      return;
    }
    const first = reqs[0];
    this.item.text =
      reqs.length === 1
        ? vscode.l10n.t('$(loading~spin) {0}: {1}', doing(first.kind, first.label), first.status)
        : vscode.l10n.t('$(loading~spin) {0} TensorPool operations', reqs.length);
    this.item.tooltip = vscode.l10n.t(
      '{0}\n\nClick to see them or stop waiting (the operations go on).',
      reqs.map((r) => vscode.l10n.t('{0}: {1}', doing(r.kind, r.label), r.status)).join('\n'),
    );
    this.item.show();
  }

  /** Start following; resolves when the request ends or the wait stops. */
  async follow(r: FollowRequest): Promise<TrackOutcome | undefined> {
    this.stop(r.clusterId);
    const tracked: TrackedRequest = {
      ...r,
      status: r.requestId ? 'PENDING' : 'ACCEPTED',
      startedAt: Date.now(),
    };
    this.store.trackRequest(tracked);
    this.refreshIfVisible();
    if (!r.requestId) {
      // No request id: the operation was accepted without a way to follow it. Refresh and move on.
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          '{0}: accepted by TensorPool. The list refreshes as it progresses.',
          doing(r.kind, r.label),
        ),
      );
      this.store.untrackRequest(r.clusterId);
      return undefined;
    }
    const ac = new AbortController();
    this.waits.set(r.clusterId, ac);
    let outcome: TrackOutcome | undefined;
    try {
      const [{ trackRequest }, client] = await Promise.all([loadApi(), this.api.client()]);
      outcome = await trackRequest(this.api.follower(client), r.requestId, {
        signal: ac.signal,
        maxTotalMs: this.maxWaitMs,
        onStatus: (info) => {
          this.log.info(`${LOG_VERB[r.kind]} ${r.label}: request ${r.requestId} is ${info.status}`);
          // Only a new status changes the row: an unchanged one would just redraw it.
          const current = this.store.requestFor(r.clusterId);
          if (current && current.status !== info.status)
            this.store.trackRequest({ ...current, status: info.status });
          this.refreshIfVisible();
        },
      });
    } catch (e) {
      this.log.warn(`Stopped following ${r.requestId}: ${errorMessage(e)}`);
      void vscode.window
        .showWarningMessage(lostTrack(r.kind, r.label, errorMessage(e)), vscode.l10n.t('Refresh'))
        .then((p) => {
          if (p) void this.clusters.refresh();
        });
    } finally {
      if (this.waits.get(r.clusterId) === ac) this.waits.delete(r.clusterId);
      // A newer operation on this cluster (destroy right after an edit) stays followed.
      this.store.untrackRequest(r.clusterId, r.requestId);
      this.refreshIfVisible();
    }
    if (outcome) {
      this.onFinished(r, outcome);
      this.announce(r, outcome);
    }
    return outcome;
  }

  private announce(r: FollowRequest, outcome: TrackOutcome): void {
    switch (outcome.kind) {
      case 'completed':
        if (r.kind === 'create') {
          const copy = vscode.l10n.t('Copy SSH Command');
          const show = vscode.l10n.t('Show in TensorPool');
          void vscode.window
            .showInformationMessage(vscode.l10n.t('Cluster {0} is ready.', r.label), copy, show)
            .then((p) => {
              if (p === copy) void vscode.commands.executeCommand(Commands.copySshCommand, r.clusterId);
              if (p === show) void vscode.commands.executeCommand('workbench.view.extension.tensorpool');
            });
        } else {
          void vscode.window.showInformationMessage(
            r.kind === 'destroy'
              ? vscode.l10n.t('Cluster {0} was destroyed.', r.label)
              : vscode.l10n.t('Cluster {0} was updated.', r.label),
          );
        }
        break;
      case 'failed':
        void vscode.window
          .showErrorMessage(
            vscode.l10n.t(
              '{0} failed: {1}',
              doing(r.kind, r.label),
              outcome.info.external_message ?? vscode.l10n.t('TensorPool reported FAILED without a reason.'),
            ),
            vscode.l10n.t('Show Log'),
          )
          .then((p) => {
            if (p) void vscode.commands.executeCommand(Commands.showLog);
          });
        break;
      case 'gave-up':
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            '{0} is still {1} after {2} minutes. Stopped waiting; the operation goes on.',
            doing(r.kind, r.label),
            outcome.info?.status ?? vscode.l10n.t('in progress'),
            Math.round(outcome.afterMs / 60_000),
          ),
        );
        break;
      case 'stopped':
        break;
    }
  }

  /** Stop waiting for one cluster's operation (nothing is cancelled on the server). */
  stop(clusterId: string): void {
    this.waits.get(clusterId)?.abort();
  }

  async showOperations(): Promise<void> {
    const reqs = this.store.requests;
    if (reqs.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('No TensorPool operations are being followed.'),
      );
      return;
    }
    const pick = await vscode.window.showQuickPick(
      reqs.map((r) => ({
        label: doing(r.kind, r.label),
        description: r.status,
        detail: vscode.l10n.t(
          'Request {0} · select to stop waiting (the operation goes on)',
          r.requestId ?? vscode.l10n.t('(none)'),
        ),
        r,
      })),
      {
        title: vscode.l10n.t('TensorPool operations'),
        placeHolder: vscode.l10n.t('Select an operation to stop waiting for it'),
      },
    );
    if (pick) this.stop(pick.r.clusterId);
  }

  dispose(): void {
    for (const ac of this.waits.values()) ac.abort();
    this.subscription.dispose();
    this.item.dispose();
  }
}
