/**
 * The one store the views read. Controllers write it; the tree, the status bar and context keys
 * listen to its change events. It holds no secrets (the token lives only in SecretStorage and in
 * the account controller's memory).
 */
import * as vscode from 'vscode';
import type { PublicCredentials } from '../../api/schemas';
import type { SavedSshKey } from '../../api/sshKeys';
import type { Cluster } from '../../model/cluster';

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

export interface ClusterData {
  /** Undefined when the server answered with text only. */
  readonly clusters: readonly Cluster[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the clusters read from the text (each `source: 'text'`). */
  readonly textClusters?: readonly Cluster[];
  readonly includeOrg: boolean;
  readonly at: number;
  /** The list loaded in an earlier session (shown while the stored token is checked), for this account. */
  readonly lastSession?: { readonly accountId: string };
}

export interface ClustersState {
  /** The last good answer; kept when a later refresh fails, so the tree never goes blank on an error. */
  readonly data: ClusterData | undefined;
  readonly loading: boolean;
  readonly error: { readonly message: string; readonly kind: string } | undefined;
}

/** A create/destroy/edit this window started and is following to its end. */
export interface TrackedRequest {
  readonly requestId: string | undefined;
  readonly kind: 'create' | 'destroy' | 'edit';
  readonly clusterId: string;
  readonly label: string;
  readonly status: string;
  /** The cluster as we know it from the create answer: shown until the list has it. */
  readonly placeholder?: Cluster;
  readonly startedAt: number;
}

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

// --- saved SSH keys (src/vscode/sshKeys/sshKeys.ts) ---
/** A saved key as listed by the API (one type for the API answer and the view row). */
export type SshKeyRow = SavedSshKey;

export interface SshKeysState {
  /** Undefined keys with a message: the server sent its text table only. */
  readonly data:
    | {
        readonly keys: readonly SshKeyRow[] | undefined;
        readonly message?: string;
        readonly includeOrg: boolean;
      }
    | undefined;
  readonly loading: boolean;
  readonly error: string | undefined;
}

export type StoreTopic = 'account' | 'clusters' | 'requests' | 'objectStorage' | 'sshKeys';

export class Store implements vscode.Disposable {
  private accountState: AccountState = { kind: 'signedOut' };
  private clustersState: ClustersState = { data: undefined, loading: false, error: undefined };
  private readonly tracked = new Map<string, TrackedRequest>();
  private objectStorageState: ObjectStorageState = { kind: 'unknown' };
  private sshKeysState: SshKeysState = { data: undefined, loading: false, error: undefined };
  private readonly emitter = new vscode.EventEmitter<StoreTopic>();
  readonly onDidChange = this.emitter.event;

  get account(): AccountState {
    return this.accountState;
  }

  setAccount(state: AccountState): void {
    this.accountState = state;
    this.emitter.fire('account');
  }

  get clusters(): ClustersState {
    return this.clustersState;
  }

  updateClusters(change: Partial<ClustersState>): void {
    this.clustersState = { ...this.clustersState, ...change };
    this.emitter.fire('clusters');
  }

  get objectStorage(): ObjectStorageState {
    return this.objectStorageState;
  }

  setObjectStorage(state: ObjectStorageState): void {
    this.objectStorageState = state;
    this.emitter.fire('objectStorage');
  }

  get sshKeys(): SshKeysState {
    return this.sshKeysState;
  }

  updateSshKeys(change: Partial<SshKeysState>): void {
    this.sshKeysState = { ...this.sshKeysState, ...change };
    this.emitter.fire('sshKeys');
  }

  get requests(): readonly TrackedRequest[] {
    return [...this.tracked.values()];
  }

  /** Keyed by cluster id: one operation per cluster is followed at a time. */
  trackRequest(r: TrackedRequest): void {
    this.tracked.set(r.clusterId, r);
    this.emitter.fire('requests');
  }

  /** Stop showing a cluster's operation; with `requestId`, only if that is still the one shown (a
   *  newer operation on the same cluster, e.g. destroy after an edit, stays). */
  untrackRequest(clusterId: string, requestId?: string): void {
    const current = this.tracked.get(clusterId);
    if (!current || (requestId !== undefined && current.requestId !== requestId)) return;
    this.tracked.delete(clusterId);
    this.emitter.fire('requests');
  }

  requestFor(clusterId: string): TrackedRequest | undefined {
    return this.tracked.get(clusterId);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
