/**
 * Follows every asynchronous operation this window starts (cluster create/destroy/edit, volume
 * create/attach/detach/destroy) to COMPLETED or FAILED: each of its request ids through the tracker
 * (Retry-After honoured), its status in the Store (the trees read it there) and in a status-bar item,
 * and one message at the end in the words of its kind. Waiting lives here, not in a view: closing a
 * view does not stop it. Stopping the wait never cancels anything on the server, and nothing is re-sent.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { TrackOutcome } from '../../../api/tracking';
import type { ApiService } from '../apiService';
import { Commands } from '../commands';
import { loadApi } from '../lazyApi';
import type { Log } from '../log';
import type { ClusterOperation, FollowedOperation, Store, VolumeOperation } from '../store';
import { notices } from '../notices';

/** What a kind of operation says: whole sentences, since word order differs between languages. */
export interface OperationWords {
  /** The log's verb ("Creating"; the log is not localised). */
  readonly logVerb: string;
  /** "Creating gpu-box": the status bar and Show Operations. */
  doing(label: string): string;
  /** The service accepted it without a request to follow. */
  accepted(label: string): string;
  /** Following stopped on an error; the operation goes on. */
  lostTrack(label: string, error: string): string;
  failed(label: string, reason: string | undefined): string;
  /** Still in progress after the longest wait: no longer followed. */
  slow(label: string, status: string | undefined, minutes: number): string;
  done(label: string): string;
  /** Buttons offered with `done`, and what each does with the cluster's or volume's id. */
  readonly next?: readonly { readonly title: () => string; readonly run: (id: string) => void }[];
}

/** What the follower needs from the feature an operation belongs to. */
export interface FollowedFeature<O extends FollowedOperation> {
  readonly words: Readonly<Record<O['kind'], OperationWords>>;
  /** The "Refresh" offered when the wait broke off. */
  refresh(): void;
  /** Refresh the list if someone is looking at it (the wait itself goes on regardless). */
  refreshIfVisible(): void;
  /** Called when every request of an operation ended (e.g. remove a destroyed cluster's ssh hosts). */
  onFinished?(op: O, outcomes: readonly TrackOutcome[]): void;
}

type Start<O> = O extends FollowedOperation
  ? Omit<O, 'status' | 'startedAt' | 'serial' | 'requestIds'>
  : never;
export type OperationStart = Start<FollowedOperation>;

export class OperationFollower implements vscode.Disposable {
  private readonly waits = new Map<string, AbortController>();
  /** "TensorPool operations" in the status bar (the test API reads it). */
  readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;
  private serial = 0;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly features: {
      readonly cluster: FollowedFeature<ClusterOperation>;
      readonly volume: FollowedFeature<VolumeOperation>;
    },
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
      if (t === 'operations') this.render();
    });
  }

  private feature(op: FollowedOperation): FollowedFeature<FollowedOperation> {
    return this.features[op.target] as FollowedFeature<FollowedOperation>;
  }

  private words(op: FollowedOperation): OperationWords {
    return (this.feature(op).words as Record<string, OperationWords>)[op.kind];
  }

  private render(): void {
    const ops = this.store.operations;
    if (ops.length === 0) {
      this.item.hide();
      return;
    }
    const doing = (o: FollowedOperation): string => this.words(o).doing(o.label);
    this.item.text =
      ops.length === 1
        ? vscode.l10n.t('$(loading~spin) {0}: {1}', doing(ops[0]), ops[0].status)
        : vscode.l10n.t('$(loading~spin) {0} TensorPool operations', ops.length);
    this.item.tooltip = vscode.l10n.t(
      '{0}\n\nClick to see them or stop waiting (the operations go on).',
      ops.map((o) => vscode.l10n.t('{0}: {1}', doing(o), o.status)).join('\n'),
    );
    this.item.show();
  }

  /** Follow every request of one operation; resolves when all have ended or the wait stopped. A newer
   *  operation on the same cluster or volume stops the wait for the older one. */
  async follow(start: OperationStart, requestIds: readonly string[]): Promise<TrackOutcome[]> {
    const key = `${start.target}:${start.id}`;
    this.waits.get(key)?.abort();
    const op = {
      ...start,
      requestIds,
      status: requestIds.length ? 'PENDING' : 'ACCEPTED',
      startedAt: Date.now(),
      serial: ++this.serial,
    } as FollowedOperation;
    const feature = this.feature(op);
    const say = this.words(op);
    this.store.setOperation(op);
    feature.refreshIfVisible();
    if (requestIds.length === 0) {
      // Accepted without a way to follow it: the list refreshes as it progresses.
      void notices.showInformationMessage(say.accepted(op.label));
      this.store.endOperation(op);
      return [];
    }
    const ac = new AbortController();
    this.waits.set(key, ac);
    let outcomes: TrackOutcome[] | undefined;
    try {
      const [{ trackRequest }, client] = await Promise.all([loadApi(), this.api.client()]);
      outcomes = await Promise.all(
        requestIds.map((id) =>
          trackRequest(this.api.follower(client), id, {
            signal: ac.signal,
            maxTotalMs: this.maxWaitMs,
            onStatus: (info) => {
              this.log.info(`${say.logVerb} ${op.label}: request ${id} is ${info.status}`);
              this.store.updateOperation(op, info.status);
              feature.refreshIfVisible();
            },
          }),
        ),
      );
    } catch (e) {
      ac.abort(); // the operation's other requests (if any) are not followed on alone
      this.log.warn(`Stopped following ${op.label} (${requestIds.join(', ')}): ${errorMessage(e)}`);
      void notices
        .showWarningMessage(say.lostTrack(op.label, errorMessage(e)), vscode.l10n.t('Refresh'))
        .then((p) => {
          if (p) feature.refresh();
        });
    } finally {
      if (this.waits.get(key) === ac) this.waits.delete(key);
      this.store.endOperation(op);
      feature.refreshIfVisible();
    }
    if (!outcomes) return [];
    feature.onFinished?.(op, outcomes);
    this.announce(op, outcomes, say);
    return outcomes;
  }

  private announce(op: FollowedOperation, outcomes: readonly TrackOutcome[], say: OperationWords): void {
    if (outcomes.some((o) => o.kind === 'stopped')) return;
    const failed = outcomes.find((o) => o.kind === 'failed');
    const slow = outcomes.find((o) => o.kind === 'gave-up');
    if (failed) {
      void notices
        .showErrorMessage(
          say.failed(op.label, failed.info.external_message ?? undefined),
          vscode.l10n.t('Show Log'),
        )
        .then((p) => {
          if (p) void vscode.commands.executeCommand(Commands.showLog);
        });
    } else if (slow) {
      void notices.showWarningMessage(
        say.slow(op.label, slow.info?.status, Math.round(slow.afterMs / 60_000)),
      );
    } else {
      const next = say.next ?? [];
      void notices
        .showInformationMessage(say.done(op.label), ...next.map((n) => n.title()))
        .then((p) => next.find((n) => n.title() === p)?.run(op.id));
    }
  }

  /** Stop waiting for one operation (nothing is cancelled on the server). */
  stop(op: Pick<FollowedOperation, 'target' | 'id'>): void {
    this.waits.get(`${op.target}:${op.id}`)?.abort();
  }

  async showOperations(): Promise<void> {
    const ops = this.store.operations;
    if (ops.length === 0) {
      void notices.showInformationMessage(vscode.l10n.t('No TensorPool operations are being followed.'));
      return;
    }
    const pick = await vscode.window.showQuickPick(
      ops.map((o) => ({
        label: this.words(o).doing(o.label),
        description: o.status,
        detail: vscode.l10n.t(
          'Request {0} · select to stop waiting (the operation goes on)',
          o.requestIds.join(', ') || vscode.l10n.t('(none)'),
        ),
        o,
      })),
      {
        title: vscode.l10n.t('TensorPool operations'),
        placeHolder: vscode.l10n.t('Select an operation to stop waiting for it'),
      },
    );
    if (pick) this.stop(pick.o);
  }

  dispose(): void {
    for (const ac of this.waits.values()) ac.abort();
    this.subscription.dispose();
    this.item.dispose();
  }
}
