// Domain types of the local engine. Plain data: no HTTP, no Node APIs. Everything that depends on
// time (request status, cluster status, instance addresses) is *derived* from these records and the
// current clock by the stores, never stored, so the engine needs no timers (see requests.ts).

import type { JobConfig } from './jobs';
import type { PriceTable } from './quotes';

export type RequestType =
  | 'CLUSTER_CLAIM'
  | 'CLUSTER_RELEASE'
  | 'CLUSTER_EDIT'
  | 'STORAGE_CREATE'
  | 'STORAGE_DESTROY'
  | 'STORAGE_ATTACH'
  | 'STORAGE_DETACH'
  | 'STORAGE_EDIT';
export type RequestStatus = 'PENDING' | 'PROCESSING' | 'RETRYING' | 'COMPLETED' | 'FAILED';
export type ClusterStatus = 'PENDING' | 'PROVISIONING' | 'RUNNING' | 'FAILED' | 'DESTROYING';
export type ListMode = 'both' | 'text' | 'structured';
/** How text answers draw their tables: the styles the official CLI and Python's table printers use. */
/** `fieldValue`: a cluster's info as a two-column `Field | Value` table in rich's default box, its
 *  instances listed in one wrapped cell (`i-… (203.0.113.5), i-… (203.0.113.6)`); other answers as `heavy`. */
export type TextStyle = 'plain' | 'markdown' | 'grid' | 'box' | 'heavy' | 'keyValue' | 'fieldValue';
/** Endpoints whose answer shape a test can choose (see POST /_engine/config `answers`). */
export type AnswerEndpoint = 'clusterList' | 'clusterInfo' | 'me' | 'sshKeyList' | 'jobList' | 'storageList';
export interface AnswerShape {
  mode: ListMode;
  style: TextStyle;
}
export type SeedName = 'demo' | 'none';

/** Knobs that tests change at run time through POST /_engine/config. */
export interface EngineConfig {
  /** How long a new request stays PENDING. */
  pendingMs: number;
  /** How long it then stays PROCESSING (and, with `retrying`, RETRYING) before it ends. */
  processingMs: number;
  /** Value of the Retry-After header on non-terminal request info answers. */
  retryAfterSeconds: number;
  /** The next N cluster creations end FAILED. */
  failCreates: number;
  /** The next N cluster destructions end FAILED. */
  failDestroys: number;
  /** New requests never leave PROCESSING. */
  stuck: boolean;
  /** New requests pass through RETRYING once before they end. */
  retrying: boolean;
  /** Shape of cluster list/info answers: text `message`, structured fields, or both. */
  listMode: ListMode;
  /** Instance types a create may ask for; any other is refused with 422 on instance_type. */
  instanceTypes: string[];
  /** POST /health refuses clients whose package_version is older (426 + message); null = any. */
  minClientVersion: string | null;
  /** Per-endpoint shape and text style; an endpoint not listed follows listMode (cluster list/info)
   *  or its usual shape, in the plain style. Replaced, never mutated (config copies are shallow). */
  answers: Partial<Record<AnswerEndpoint, AnswerShape>>;
  /** The organisation's balance in USD (storage volume creates need 24 h of cost covered). */
  balanceUsd: number;
  /** Job timings, log length and extra outputs (engine/jobs.ts). */
  jobs: JobConfig;
  /** The quote routes' price table (engine/quotes.ts); undefined = its default table. */
  prices?: PriceTable;
  /** false: GET /cluster/quote and /storage/quote answer 404 as a service without them would. */
  quotes?: boolean;
}

export interface User {
  uid: string;
  email: string;
  name: string;
  orgId: string;
  /** Read-only users get 403 on every mutating call. */
  readonly: boolean;
}

export interface Org {
  id: string;
  name: string;
  balanceUsd: number;
}

/** A tracked asynchronous operation (GET /request/info/{id}). */
export interface TrackedRequest {
  id: string;
  type: RequestType;
  /** The cluster the request acts on. */
  objectId: string;
  ownerUid: string;
  orgId: string;
  createdMs: number;
  /** Durations and behaviour are captured when the request starts, so later config changes only
   *  affect later requests (deterministic for tests). */
  pendingMs: number;
  processingMs: number;
  stuck: boolean;
  retrying: boolean;
  outcome: 'COMPLETED' | 'FAILED';
  externalMessage: string | null;
}

export interface Instance {
  id: string;
  /** Addresses come from the documentation ranges (RFC 5737), never real hosts, until a real node
   *  (engine/nodes.ts) is up: then 127.0.0.1. */
  publicIp: string;
  privateIp: string;
  /** The real node behind the instance, when the engine runs them: 'booting' until its sshd listens
   *  (the cluster stays PROVISIONING), 'up' with its address, 'down' (its sshd ended: the address
   *  answers nothing), 'failed' (never started: unreachable documentation addresses). */
  node?: NodeState;
}

export type NodeState =
  { state: 'booting' | 'failed' } | { state: 'up' | 'down'; host: string; port: number; user: string };

export interface Cluster {
  id: string;
  name: string;
  instanceType: string;
  numNodes: number;
  deletionProtection: boolean;
  createdMs: number;
  ownerUid: string;
  orgId: string;
  /** The image, whichever of `container` / `experimental_container` carried it. */
  container: string | null;
  containerField: 'container' | 'experimental_container' | null;
  publicKeys: string[];
  instances: Instance[];
  /** The CLUSTER_CLAIM request; null for clusters seeded as already running. */
  claimId: string | null;
  /** The latest CLUSTER_RELEASE request, if a destroy was asked for. */
  releaseId: string | null;
  /** Every request that acted on this cluster, oldest first (GET /cluster/operations). */
  requestIds: string[];
}

export interface SshKey {
  id: string;
  name: string;
  publicKey: string;
  keyType: string;
  fingerprint: string;
  ownerUid: string;
  orgId: string;
  createdMs: number;
}

export interface ObjectStorageRecord {
  org_id: string;
  access_key_id: string;
  secret_access_key: string;
  endpoint: string;
  region: string;
  profile_id: string;
  iam_username: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface Bucket {
  name: string;
  createdMs: number;
  objects: Set<string>;
  /** Objects in the engine's S3 server (engine/objectStore.ts), when it runs one. */
  storedObjects?: () => number;
}

/** Objects put through POST /_engine/objects plus those stored in the S3 server. */
export function objectCount(b: Bucket): number {
  return b.objects.size + (b.storedObjects?.() ?? 0);
}

/** A cluster as seen at one instant: the stored record plus its derived status. */
export interface ClusterView {
  cluster: Cluster;
  status: ClusterStatus;
  instanceStatus: string;
  /** Whether the instances have addresses yet (after the claim completed). */
  addressed: boolean;
  owner: User | undefined;
}
