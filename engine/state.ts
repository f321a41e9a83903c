// The engine's in-memory domain state: users and their organisation, clusters, tracked requests,
// SSH keys, object storage and buckets. HTTP-agnostic: methods take the caller and the current time
// and return domain results; routes.ts turns them into status codes and bodies.
//
// Asynchrony without timers: a request stores when it started, its durations and its destined
// outcome. Its status (PENDING -> PROCESSING -> COMPLETED/FAILED) is computed from the elapsed time
// whenever somebody looks, and a cluster's status is computed from its requests. Nothing keeps the
// event loop alive, tests can use tiny durations, and a reader always sees a consistent instant.

import { randomBytes } from 'node:crypto';
import { DEFAULT_INSTANCE_TYPES } from './offered';
import type {
  Bucket,
  Cluster,
  ClusterStatus,
  ClusterView,
  EngineConfig,
  Instance,
  ObjectStorageRecord,
  Org,
  RequestStatus,
  RequestType,
  SshKey,
  TrackedRequest,
  User,
} from './types';
import { objectCount } from './types';
import type { ObjectStoreHooks } from './objectStore';
import type { NodeHooks } from './nodes';
import type { CreateInput, EditInput, SshKeyInput } from './validate';
import { VolumeStore } from './volumes';
import { DEFAULT_JOB_CONFIG, JobStore } from './jobs';

export const DEFAULT_TOKEN = 'tp_local_dev_token';
export const ORG_ID = 'org_local';
export const ORG_NAME = 'Local Dev Org';
export const STORAGE_ENDPOINT = 'https://storage.tensorpool.local';
export const STORAGE_REGION = 'us-east-1';

export const DEFAULT_CONFIG: EngineConfig = {
  pendingMs: 1500,
  processingMs: 6000,
  retryAfterSeconds: 2,
  failCreates: 0,
  failDestroys: 0,
  stuck: false,
  retrying: false,
  listMode: 'both',
  instanceTypes: [...DEFAULT_INSTANCE_TYPES],
  minClientVersion: null,
  answers: {},
  balanceUsd: 2500,
  jobs: DEFAULT_JOB_CONFIG,
};

/** Outcome of an operation that can be refused: ok with a value, or an HTTP-ish refusal. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: 404 | 409; message: string };

const refuse = (code: 404 | 409, message: string): { ok: false; code: 404 | 409; message: string } => ({
  ok: false,
  code,
  message,
});

export function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

function randomKey(alphabet: string, length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

const ADJECTIVES = [
  'amber',
  'brisk',
  'calm',
  'deft',
  'eager',
  'fleet',
  'grand',
  'hardy',
  'keen',
  'lucid',
  'nimble',
  'quiet',
  'rapid',
  'steady',
  'swift',
  'vivid',
];
const NOUNS = [
  'falcon',
  'otter',
  'comet',
  'cedar',
  'harbor',
  'lynx',
  'meteor',
  'orca',
  'pine',
  'quasar',
  'raven',
  'summit',
  'tundra',
  'vertex',
  'willow',
  'zephyr',
];

export interface StateOptions {
  tokens: string[];
  readonlyTokens: string[];
  config: EngineConfig;
  /** The S3 server the credentials point at (engine/objectStore.ts), when the engine runs one. */
  objectStore?: ObjectStoreHooks;
  /** Real nodes (engine/nodes.ts), when the engine runs them. */
  nodes?: NodeHooks;
}

export interface StoredRequestSpec {
  startedMs: number;
  pendingMs: number;
  processingMs: number;
  outcome: 'COMPLETED' | 'FAILED';
  externalMessage?: string | null;
  stuck?: boolean;
  retrying?: boolean;
}

/** What seeds (demo, bulk) may insert directly, bypassing validation and config. */
export interface ClusterSeed {
  owner: User;
  name: string;
  instanceType: string;
  numNodes: number;
  deletionProtection?: boolean;
  container?: string | null;
  createdMs: number;
  /** null: already running, no request history (bulk seeds). */
  claim: StoredRequestSpec | null;
  /** Boot real nodes (when the engine runs them) whose keys follow the saved keys (demo seed). */
  realNodes?: boolean;
}

export class EngineState {
  config: EngineConfig;
  readonly org: Org;
  readonly users = new Map<string, User>();
  /** token -> uid. Tokens are never exposed by any read of the state. */
  private readonly tokens = new Map<string, string>();
  /** Member without a token; the demo seed gives them a cluster so include_org shows a difference. */
  readonly teammate: User;

  private readonly clusters = new Map<string, Cluster>();
  /** ownerUid -> name -> cluster id: O(1) duplicate checks (bulk seeds insert 10,000 clusters). */
  private readonly names = new Map<string, Map<string, string>>();
  /** instance id -> cluster id. */
  private readonly instanceIndex = new Map<string, string>();
  readonly requests = new Map<string, TrackedRequest>();
  /** Clusters with a release under way; the only ones the sweep needs to look at. */
  private readonly releasing = new Set<string>();
  private readonly sshKeys = new Map<string, SshKey>();
  private storage: ObjectStorageRecord | null = null;
  private readonly buckets = new Map<string, Bucket>();
  private nextHost = 0;
  /** Storage volumes (engine/volumes.ts). */
  readonly volumes: VolumeStore = new VolumeStore(this);
  /** Jobs (engine/jobs.ts). */
  readonly jobs: JobStore = new JobStore(this);

  private readonly objectStore: ObjectStoreHooks | undefined;
  private readonly nodes: NodeHooks | undefined;

  constructor(opts: StateOptions) {
    this.config = { ...opts.config };
    this.objectStore = opts.objectStore;
    this.nodes = opts.nodes;
    // The balance is a config knob (POST /_engine/config {balanceUsd}), read live.
    const config = () => this.config;
    this.org = {
      id: ORG_ID,
      name: ORG_NAME,
      get balanceUsd() {
        return config().balanceUsd;
      },
    };
    let n = 0;
    const add = (token: string | null, user: Omit<User, 'uid' | 'orgId'>): User => {
      const u: User = { uid: `usr_${++n}`, orgId: ORG_ID, ...user };
      this.users.set(u.uid, u);
      if (token !== null) this.tokens.set(token, u.uid);
      return u;
    };
    opts.tokens.forEach((t, i) =>
      add(t, { email: `dev${i + 1}@tensorpool.local`, name: `Developer ${i + 1}`, readonly: false }),
    );
    opts.readonlyTokens.forEach((t, i) =>
      add(t, { email: `readonly${i + 1}@tensorpool.local`, name: `Read-only ${i + 1}`, readonly: true }),
    );
    this.teammate = add(null, { email: 'teammate@tensorpool.local', name: 'Teammate', readonly: false });
  }

  // --- identity ----------------------------------------------------------------------------------

  userForToken(token: string): User | undefined {
    const uid = this.tokens.get(token);
    return uid === undefined ? undefined : this.users.get(uid);
  }

  /** The user of the first full-access token (owner of the demo clusters, default bulk owner). */
  get primaryUser(): User {
    for (const u of this.users.values()) if (!u.readonly && u !== this.teammate) return u;
    return this.teammate;
  }

  members(orgId: string): User[] {
    return [...this.users.values()].filter((u) => u.orgId === orgId);
  }

  // --- requests ------------------------------------------------------------------------------------

  requestStatus(r: TrackedRequest, now: number): RequestStatus {
    const elapsed = now - r.createdMs;
    if (elapsed < r.pendingMs) return 'PENDING';
    if (r.stuck) return 'PROCESSING';
    let rest = elapsed - r.pendingMs;
    // With `retrying`, the first attempt "fails" at once and the retry takes the processing time.
    if (r.retrying) {
      if (rest < r.processingMs) return 'RETRYING';
      rest -= r.processingMs;
    }
    if (rest < r.processingMs) return 'PROCESSING';
    // A claim is done when its real nodes listen (engine/nodes.ts), not before.
    if (r.outcome === 'COMPLETED' && r.type === 'CLUSTER_CLAIM' && this.booting(r.objectId))
      return 'PROCESSING';
    return r.outcome;
  }

  private booting(clusterId: string): boolean {
    return this.clusters.get(clusterId)?.instances.some((i) => i.node?.state === 'booting') ?? false;
  }

  /** Who may log in to a new cluster's nodes: the create's keys plus the keys saved for the user and the
   *  organisation (spec: public_keys "are combined with the keys saved for the user and for the
   *  organization"). */
  private clusterKeys(user: User, extra: string[]): string[] {
    return [
      ...new Set([...extra, ...this.listSshKeys(user, true).map((k) => k.publicKey)].map((k) => k.trim())),
    ];
  }

  private addRequest(
    type: RequestType,
    cluster: Cluster,
    owner: User,
    spec: StoredRequestSpec,
  ): TrackedRequest {
    const r: TrackedRequest = {
      id: `req_${hex(10)}`,
      type,
      objectId: cluster.id,
      ownerUid: owner.uid,
      orgId: owner.orgId,
      createdMs: spec.startedMs,
      pendingMs: spec.pendingMs,
      processingMs: spec.processingMs,
      stuck: spec.stuck ?? false,
      retrying: spec.retrying ?? false,
      outcome: spec.outcome,
      externalMessage: spec.externalMessage ?? null,
    };
    this.requests.set(r.id, r);
    cluster.requestIds.push(r.id);
    return r;
  }

  /** A request that follows the current config (and consumes one pending failure if asked). */
  private startConfiguredRequest(
    type: 'CLUSTER_CLAIM' | 'CLUSTER_RELEASE',
    cluster: Cluster,
    owner: User,
    now: number,
  ): TrackedRequest {
    const c = this.config;
    let outcome: 'COMPLETED' | 'FAILED' = 'COMPLETED';
    let externalMessage: string | null = null;
    if (type === 'CLUSTER_CLAIM' && c.failCreates > 0) {
      c.failCreates--;
      outcome = 'FAILED';
      externalMessage = `Could not provision ${cluster.numNodes} x ${cluster.instanceType}: insufficient capacity (simulated failure)`;
    } else if (type === 'CLUSTER_RELEASE' && c.failDestroys > 0) {
      c.failDestroys--;
      outcome = 'FAILED';
      externalMessage = `Could not release the instances of cluster ${cluster.id} (simulated failure); the cluster is still running`;
    }
    return this.addRequest(type, cluster, owner, {
      startedMs: now,
      pendingMs: c.pendingMs,
      processingMs: c.processingMs,
      stuck: c.stuck,
      retrying: c.retrying,
      outcome,
      externalMessage,
    });
  }

  /** A request on any object (storage volumes) following the current config; `immediate`: already
   *  COMPLETED (edits). */
  startObjectRequest(
    type: RequestType,
    objectId: string,
    owner: User,
    now: number,
    immediate = false,
  ): TrackedRequest {
    const c = this.config;
    const r: TrackedRequest = {
      id: `req_${hex(10)}`,
      type,
      objectId,
      ownerUid: owner.uid,
      orgId: owner.orgId,
      createdMs: now,
      pendingMs: immediate ? 0 : c.pendingMs,
      processingMs: immediate ? 0 : c.processingMs,
      stuck: immediate ? false : c.stuck,
      retrying: immediate ? false : c.retrying,
      outcome: 'COMPLETED',
      externalMessage: null,
    };
    this.requests.set(r.id, r);
    return r;
  }

  /** A request visible to the caller (same organisation), by id. */
  findRequest(user: User, id: string): TrackedRequest | undefined {
    const r = this.requests.get(id);
    return r && r.orgId === user.orgId ? r : undefined;
  }

  // --- clusters ------------------------------------------------------------------------------------

  private allocateInstances(count: number): Instance[] {
    const out: Instance[] = [];
    for (let i = 0; i < count; i++) {
      // Documentation ranges only (RFC 5737): 203.0.113.0/24 public, 198.51.100.0/24 private.
      const host = (this.nextHost++ % 254) + 1;
      let id = `i-${hex(8)}`;
      while (this.instanceIndex.has(id)) id = `i-${hex(8)}`;
      out.push({ id, publicIp: `203.0.113.${host}`, privateIp: `198.51.100.${host}` });
    }
    return out;
  }

  private nameTaken(ownerUid: string, name: string): boolean {
    return this.names.get(ownerUid)?.has(name) ?? false;
  }

  private indexName(ownerUid: string, name: string, id: string): void {
    let m = this.names.get(ownerUid);
    if (!m) this.names.set(ownerUid, (m = new Map()));
    m.set(name, id);
  }

  private generateName(ownerUid: string): string {
    for (;;) {
      const b = randomBytes(3);
      const name = `${ADJECTIVES[b[0] % ADJECTIVES.length]}-${NOUNS[b[1] % NOUNS.length]}-${(b[2] % 90) + 10}`;
      if (!this.nameTaken(ownerUid, name)) return name;
    }
  }

  private insert(
    owner: User,
    fields: Omit<Cluster, 'id' | 'ownerUid' | 'orgId' | 'instances' | 'claimId' | 'releaseId' | 'requestIds'>,
  ): Cluster {
    let id = `c-${hex(6)}`;
    while (this.clusters.has(id)) id = `c-${hex(6)}`; // 48 random bits; a clash is unlikely, not impossible
    const cluster: Cluster = {
      id,
      ownerUid: owner.uid,
      orgId: owner.orgId,
      instances: this.allocateInstances(fields.numNodes),
      claimId: null,
      releaseId: null,
      requestIds: [],
      ...fields,
    };
    this.clusters.set(cluster.id, cluster);
    this.indexName(owner.uid, cluster.name, cluster.id);
    for (const inst of cluster.instances) this.instanceIndex.set(inst.id, cluster.id);
    return cluster;
  }

  private remove(cluster: Cluster): void {
    this.clusters.delete(cluster.id);
    this.names.get(cluster.ownerUid)?.delete(cluster.name);
    for (const inst of cluster.instances) this.instanceIndex.delete(inst.id);
    this.releasing.delete(cluster.id);
    this.nodes?.clusterGone(cluster);
  }

  /** Drop clusters whose release has completed; forget releases that failed. Cheap: only looks at
   *  clusters with a release under way. Called before every read. */
  sweep(now: number): void {
    for (const id of this.releasing) {
      const cluster = this.clusters.get(id);
      const release = cluster?.releaseId ? this.requests.get(cluster.releaseId) : undefined;
      if (!cluster || !release) {
        this.releasing.delete(id);
        continue;
      }
      const s = this.requestStatus(release, now);
      if (s === 'COMPLETED') this.remove(cluster);
      else if (s === 'FAILED') this.releasing.delete(id);
    }
  }

  view(cluster: Cluster, now: number): ClusterView {
    const claim = cluster.claimId ? this.requests.get(cluster.claimId) : undefined;
    const claimStatus = claim ? this.requestStatus(claim, now) : 'COMPLETED';
    let status: ClusterStatus =
      claimStatus === 'COMPLETED'
        ? 'RUNNING'
        : claimStatus === 'FAILED'
          ? 'FAILED'
          : claimStatus === 'PENDING'
            ? 'PENDING'
            : 'PROVISIONING';
    const release = cluster.releaseId ? this.requests.get(cluster.releaseId) : undefined;
    if (release) {
      const rs = this.requestStatus(release, now);
      // A failed release leaves the cluster as it was (still running, or still failed).
      if (rs !== 'FAILED') status = 'DESTROYING';
    }
    return {
      cluster,
      status,
      instanceStatus: status,
      addressed: claimStatus === 'COMPLETED',
      owner: this.users.get(cluster.ownerUid),
    };
  }

  /** Clusters of the caller (or of the caller's whole organisation), oldest first. */
  listClusters(user: User, includeOrg: boolean, now: number): ClusterView[] {
    this.sweep(now);
    const out: ClusterView[] = [];
    for (const c of this.clusters.values()) {
      if (includeOrg ? c.orgId === user.orgId : c.ownerUid === user.uid) out.push(this.view(c, now));
    }
    return out;
  }

  /** `{cluster}` path segment: the cluster id, or its name (the caller's own clusters first, then
   *  the organisation's). Only clusters of the caller's organisation are visible. */
  findCluster(user: User, ref: string, now: number): Cluster | undefined {
    this.sweep(now);
    const byId = this.clusters.get(ref);
    if (byId) return byId.orgId === user.orgId ? byId : undefined;
    const own = this.names.get(user.uid)?.get(ref);
    if (own) return this.clusters.get(own);
    for (const m of this.members(user.orgId)) {
      const id = this.names.get(m.uid)?.get(ref);
      if (id) return this.clusters.get(id);
    }
    return undefined;
  }

  /** A cluster by id, whoever owns it (volume attachments). */
  findClusterById(id: string): Cluster | undefined {
    return this.clusters.get(id);
  }

  findInstance(
    user: User,
    instanceId: string,
    now: number,
  ): { cluster: Cluster; instance: Instance } | undefined {
    this.sweep(now);
    const cid = this.instanceIndex.get(instanceId);
    const cluster = cid ? this.clusters.get(cid) : undefined;
    if (!cluster || cluster.orgId !== user.orgId) return undefined;
    const instance = cluster.instances.find((i) => i.id === instanceId);
    return instance ? { cluster, instance } : undefined;
  }

  createCluster(
    user: User,
    input: CreateInput,
    now: number,
  ): Outcome<{ cluster: Cluster; request: TrackedRequest }> {
    this.sweep(now);
    if (input.name !== null && this.nameTaken(user.uid, input.name)) {
      return refuse(
        409,
        `A cluster named '${input.name}' already exists. Cluster names must be unique; choose another name.`,
      );
    }
    const cluster = this.insert(user, {
      name: input.name ?? this.generateName(user.uid),
      instanceType: input.instanceType,
      numNodes: input.numNodes,
      deletionProtection: input.deletionProtection,
      createdMs: now,
      container: input.container,
      containerField: input.containerField,
      publicKeys: input.publicKeys,
    });
    const request = this.startConfiguredRequest('CLUSTER_CLAIM', cluster, user, now);
    cluster.claimId = request.id;
    if (request.outcome === 'COMPLETED')
      this.nodes?.clusterCreated(cluster, this.clusterKeys(user, input.publicKeys), false);
    return { ok: true, value: { cluster, request } };
  }

  /** Edits apply at once (the service answers 202; a CLUSTER_EDIT request that is already
   *  COMPLETED is recorded for /cluster/operations). */
  editCluster(
    user: User,
    ref: string,
    input: EditInput,
    now: number,
  ): Outcome<{ cluster: Cluster; changes: string[] }> {
    const cluster = this.findCluster(user, ref, now);
    if (!cluster) return refuse(404, `Cluster '${ref}' not found`);
    if (this.view(cluster, now).status === 'DESTROYING')
      return refuse(409, `Cluster ${cluster.id} is being destroyed and can no longer be edited`);
    const changes: string[] = [];
    if (input.name !== null && input.name !== cluster.name) {
      if (this.nameTaken(cluster.ownerUid, input.name)) {
        return refuse(
          409,
          `A cluster named '${input.name}' already exists. Cluster names must be unique; choose another name.`,
        );
      }
      this.names.get(cluster.ownerUid)?.delete(cluster.name);
      changes.push(`renamed from '${cluster.name}' to '${input.name}'`);
      cluster.name = input.name;
      this.indexName(cluster.ownerUid, cluster.name, cluster.id);
    }
    if (input.deletionProtection !== null && input.deletionProtection !== cluster.deletionProtection) {
      cluster.deletionProtection = input.deletionProtection;
      changes.push(`deletion protection turned ${input.deletionProtection ? 'on' : 'off'}`);
    }
    this.addRequest('CLUSTER_EDIT', cluster, user, {
      startedMs: now,
      pendingMs: 0,
      processingMs: 0,
      outcome: 'COMPLETED',
    });
    return { ok: true, value: { cluster, changes } };
  }

  destroyCluster(
    user: User,
    ref: string,
    now: number,
  ): Outcome<{ cluster: Cluster; request: TrackedRequest; already: boolean }> {
    const cluster = this.findCluster(user, ref, now);
    if (!cluster) return refuse(404, `Cluster '${ref}' not found`);
    if (cluster.deletionProtection) {
      return refuse(
        409,
        `Cluster ${cluster.id} ('${cluster.name}') has deletion protection enabled and cannot be destroyed. ` +
          `Turn deletion protection off first with an edit (PATCH /cluster/edit/${cluster.id} with {"deletion_protection": false}), then destroy it.`,
      );
    }
    // A second destroy while one is under way is answered with the same request (idempotent retry).
    if (cluster.releaseId && this.releasing.has(cluster.id)) {
      const existing = this.requests.get(cluster.releaseId);
      if (existing) return { ok: true, value: { cluster, request: existing, already: true } };
    }
    const request = this.startConfiguredRequest('CLUSTER_RELEASE', cluster, user, now);
    cluster.releaseId = request.id;
    this.releasing.add(cluster.id);
    // The nodes go as soon as a destroy that will succeed is accepted (a failing one leaves them up).
    if (request.outcome === 'COMPLETED') this.nodes?.clusterGone(cluster);
    return { ok: true, value: { cluster, request, already: false } };
  }

  operations(cluster: Cluster): TrackedRequest[] {
    return cluster.requestIds
      .map((id) => this.requests.get(id))
      .filter((r): r is TrackedRequest => r !== undefined);
  }

  /** Insert a cluster directly (seeds). */
  seedCluster(seed: ClusterSeed): Cluster {
    const cluster = this.insert(seed.owner, {
      name: seed.name,
      instanceType: seed.instanceType,
      numNodes: seed.numNodes,
      deletionProtection: seed.deletionProtection ?? false,
      createdMs: seed.createdMs,
      container: seed.container ?? null,
      containerField: seed.container ? 'container' : null,
      publicKeys: [],
    });
    if (seed.claim) cluster.claimId = this.addRequest('CLUSTER_CLAIM', cluster, seed.owner, seed.claim).id;
    if (seed.realNodes && (seed.claim?.outcome ?? 'COMPLETED') === 'COMPLETED') this.seedNodes(cluster);
    return cluster;
  }

  /** Start a claim that follows the current config (demo seed's "provisioning" cluster). */
  seedProvisioning(seed: Omit<ClusterSeed, 'claim'>, now: number): Cluster {
    const cluster = this.seedCluster({ ...seed, claim: null, realNodes: false });
    const claim = this.startConfiguredRequest('CLUSTER_CLAIM', cluster, seed.owner, now);
    cluster.claimId = claim.id;
    if (seed.realNodes && claim.outcome === 'COMPLETED') this.seedNodes(cluster);
    return cluster;
  }

  /** Seeded clusters predate the keys a user saves, so their nodes accept the saved keys of the moment. */
  private seedNodes(cluster: Cluster): void {
    this.nodes?.clusterCreated(cluster, this.savedKeys(cluster.orgId), true);
  }

  private savedKeys(orgId: string): string[] {
    return [...this.sshKeys.values()].filter((k) => k.orgId === orgId).map((k) => k.publicKey);
  }

  hasClusterNamed(owner: User, name: string): boolean {
    return this.nameTaken(owner.uid, name);
  }

  clusterCount(): number {
    return this.clusters.size;
  }

  allClusters(now: number): ClusterView[] {
    this.sweep(now);
    return [...this.clusters.values()].map((c) => this.view(c, now));
  }

  // --- SSH keys ------------------------------------------------------------------------------------

  addSshKey(user: User, input: SshKeyInput, now: number): Outcome<SshKey> {
    for (const k of this.sshKeys.values()) {
      if (k.ownerUid === user.uid && k.fingerprint === input.fingerprint) {
        return refuse(409, `This SSH key is already registered as '${k.name}' (${k.id})`);
      }
    }
    const key: SshKey = {
      id: `key_${hex(6)}`,
      name: input.name ?? input.comment ?? `${input.keyType}-${this.sshKeys.size + 1}`,
      publicKey: input.publicKey,
      keyType: input.keyType,
      fingerprint: input.fingerprint,
      ownerUid: user.uid,
      orgId: user.orgId,
      createdMs: now,
    };
    this.sshKeys.set(key.id, key);
    this.nodes?.savedKeysChanged(this.savedKeys(user.orgId));
    return { ok: true, value: key };
  }

  listSshKeys(user: User, includeOrg: boolean): SshKey[] {
    return [...this.sshKeys.values()].filter((k) =>
      includeOrg ? k.orgId === user.orgId : k.ownerUid === user.uid,
    );
  }

  /** Only the owner may remove a key; anybody else's key id is "not found" for them. */
  removeSshKey(user: User, keyId: string): Outcome<SshKey> {
    const key = this.sshKeys.get(keyId);
    if (!key || key.ownerUid !== user.uid) return refuse(404, `SSH key '${keyId}' not found`);
    this.sshKeys.delete(keyId);
    this.nodes?.savedKeysChanged(this.savedKeys(user.orgId));
    return { ok: true, value: key };
  }

  // --- object storage (one record per organisation; this engine has one organisation) ------------

  storageRecord(user: User): ObjectStorageRecord | null {
    return this.storage && this.storage.org_id === user.orgId ? this.storage : null;
  }

  /** Idempotent: enabling again returns the existing record unchanged. */
  enableStorage(user: User, now: number): { record: ObjectStorageRecord; created: boolean } {
    const existing = this.storageRecord(user);
    if (existing) return { record: existing, created: false };
    const at = iso(now);
    this.storage = {
      org_id: user.orgId,
      ...newKeys(),
      endpoint: this.objectStore?.endpoint ?? STORAGE_ENDPOINT,
      region: this.objectStore?.region ?? STORAGE_REGION,
      profile_id: `osp_${hex(8)}`,
      iam_username: `tp-${user.orgId.replace(/_/g, '-')}`,
      status: 'ACTIVE',
      created_at: at,
      updated_at: at,
    };
    this.objectStore?.setKeys(this.storage.access_key_id, this.storage.secret_access_key);
    return { record: this.storage, created: true };
  }

  rotateStorageKeys(user: User, now: number): ObjectStorageRecord | null {
    const record = this.storageRecord(user);
    if (!record) return null;
    Object.assign(record, newKeys(), { updated_at: iso(Math.max(now, Date.parse(record.updated_at) + 1)) });
    this.objectStore?.setKeys(record.access_key_id, record.secret_access_key);
    return record;
  }

  /** Disabling removes the credentials and every bucket of the organisation. */
  disableStorage(user: User): boolean {
    if (!this.storageRecord(user)) return false;
    this.storage = null;
    for (const name of this.buckets.keys()) this.objectStore?.removeBucket(name);
    this.buckets.clear();
    this.objectStore?.setKeys(null, null);
    return true;
  }

  listBuckets(): Bucket[] {
    return [...this.buckets.values()];
  }

  getBucket(name: string): Bucket | undefined {
    return this.buckets.get(name);
  }

  createBucket(name: string, now: number): Outcome<Bucket> {
    if (this.buckets.has(name)) return refuse(409, `Bucket '${name}' already exists`);
    const store = this.objectStore;
    const bucket: Bucket = { name, createdMs: now, objects: new Set() };
    if (store) {
      store.createBucket(name);
      bucket.storedObjects = () => store.objectCount(name);
    }
    this.buckets.set(name, bucket);
    return { ok: true, value: bucket };
  }

  deleteBucket(name: string): Outcome<Bucket> {
    const bucket = this.buckets.get(name);
    if (!bucket) return refuse(404, `Bucket '${name}' not found`);
    const count = objectCount(bucket);
    if (count > 0) {
      return refuse(
        409,
        `Bucket '${name}' is not empty (${count} object${count === 1 ? '' : 's'}); delete its objects first`,
      );
    }
    this.objectStore?.removeBucket(name);
    this.buckets.delete(name);
    return { ok: true, value: bucket };
  }
}

function newKeys(): { access_key_id: string; secret_access_key: string } {
  return {
    access_key_id: 'TPAK' + randomKey('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16),
    secret_access_key: randomKey('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', 40),
  };
}
