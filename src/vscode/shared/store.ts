/**
 * What several features share and none owns: the account, the operations this window follows (clusters'
 * and volumes'), the object-storage state. Controllers write it; trees, the status bar and context keys
 * listen to its change events. The lists themselves live in their controllers (ViewedList). It holds no
 * secrets (the token lives only in SecretStorage and in the account controller's memory).
 */
import * as vscode from 'vscode';
import type { PublicCredentials } from '../../api/schemas';
import type { Cluster } from '../../model/cluster';
import type { Volume } from '../../model/volume';

export type { PublicCredentials };

export interface OrgSummary {
  readonly name?: string;
  readonly balance?: number;
  readonly members?: number;
}

export type AccountState =
  | { readonly kind: 'signedOut' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'signedIn'; readonly label: string; readonly id?: string; readonly org?: OrgSummary }
  | { readonly kind: 'rejected'; readonly message: string }
  | { readonly kind: 'forbidden'; readonly message: string }
  | { readonly kind: 'unreachable'; readonly message: string }
  /** POST /health refused this version of the extension; nothing else is requested. */
  | { readonly kind: 'outdated'; readonly message: string };

/** Whether `now` is a sign-in that should load lists, not the same account's organisation details
 *  arriving after it (account.ts sets the account twice). */
export function isNewSignIn(before: AccountState, now: AccountState): boolean {
  if (now.kind !== 'signedIn') return false;
  return !(before.kind === 'signedIn' && now.org && before.id === now.id);
}

export type ClusterOpKind = 'create' | 'destroy' | 'edit';
export type VolumeOpKind = 'create' | 'attach' | 'detach' | 'destroy';

interface OperationBase {
  /** The cluster's or the volume's id: one operation per cluster or volume is shown at a time. */
  readonly id: string;
  readonly label: string;
  /** What the service returned to follow (none: accepted without a way to follow it). */
  readonly requestIds: readonly string[];
  /** The service's last word on it (PENDING, PROCESSING…). */
  readonly status: string;
  readonly startedAt: number;
  /** Which follow() this is: a newer operation on the same cluster or volume replaces it. */
  readonly serial: number;
}

/** A cluster operation this window started and is following to its end (shared/onUse/operationFollower.ts). */
export interface ClusterOperation extends OperationBase {
  readonly target: 'cluster';
  readonly kind: ClusterOpKind;
  /** The cluster as we know it from the create answer: shown until the list has it. */
  readonly placeholder?: Cluster;
}

/** A volume operation this window started and is following to its end. */
export interface VolumeOperation extends OperationBase {
  readonly target: 'volume';
  readonly kind: VolumeOpKind;
  /** The volume as the create answer describes it: shown until the list has it. */
  readonly placeholder?: Volume;
}

export type FollowedOperation = ClusterOperation | VolumeOperation;

export interface BucketInfo {
  readonly name: string;
  readonly createdAt?: string;
  readonly objectCount?: number;
}

export type ObjectStorageState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'disabled' }
  | {
      readonly kind: 'enabled';
      readonly record: PublicCredentials;
      readonly buckets?: readonly BucketInfo[];
      readonly bucketsError?: string;
    }
  | { readonly kind: 'error'; readonly message: string };

export type StoreTopic = 'account' | 'operations' | 'objectStorage';

export class Store implements vscode.Disposable {
  private accountState: AccountState = { kind: 'signedOut' };
  private readonly ops = new Map<string, FollowedOperation>();
  private objectStorageState: ObjectStorageState = { kind: 'unknown' };
  private readonly emitter = new vscode.EventEmitter<StoreTopic>();
  readonly onDidChange = this.emitter.event;

  get account(): AccountState {
    return this.accountState;
  }

  setAccount(state: AccountState): void {
    this.accountState = state;
    this.emitter.fire('account');
  }

  get objectStorage(): ObjectStorageState {
    return this.objectStorageState;
  }

  setObjectStorage(state: ObjectStorageState): void {
    this.objectStorageState = state;
    this.emitter.fire('objectStorage');
  }

  /** Every operation this window is following, clusters' and volumes'. */
  get operations(): readonly FollowedOperation[] {
    return [...this.ops.values()];
  }

  get clusterOperations(): readonly ClusterOperation[] {
    return this.operations.filter((o): o is ClusterOperation => o.target === 'cluster');
  }

  get volumeOperations(): readonly VolumeOperation[] {
    return this.operations.filter((o): o is VolumeOperation => o.target === 'volume');
  }

  clusterOperation(clusterId: string): ClusterOperation | undefined {
    return this.ops.get(`cluster:${clusterId}`) as ClusterOperation | undefined;
  }

  volumeOperation(volumeId: string): VolumeOperation | undefined {
    return this.ops.get(`volume:${volumeId}`) as VolumeOperation | undefined;
  }

  /** Show an operation, replacing an older one on the same cluster or volume. */
  setOperation(op: FollowedOperation): void {
    this.ops.set(`${op.target}:${op.id}`, op);
    this.emitter.fire('operations');
  }

  /** The operation's new status, unless a newer operation replaced it. */
  updateOperation(op: FollowedOperation, status: string): void {
    const current = this.ops.get(`${op.target}:${op.id}`);
    if (current?.serial !== op.serial || current.status === status) return;
    this.setOperation({ ...current, status });
  }

  /** Stop showing `op`; a newer operation on the same cluster or volume (destroy after an edit) stays. */
  endOperation(op: FollowedOperation): void {
    const key = `${op.target}:${op.id}`;
    if (this.ops.get(key)?.serial !== op.serial) return;
    this.ops.delete(key);
    this.emitter.fire('operations');
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
