// Clusters (spec "Clusters"): their records, the per-owner name index and the instance index. A
// cluster's status is derived from its CLUSTER_* requests (engine/requests.ts) and the clock whenever
// somebody looks; real nodes (engine/nodes.ts) are told when a cluster comes and goes.

import { generateClusterName } from './clusterNames';
import { ClusterIndex } from './clusterIndex';
import { refuse, type Outcome } from './ids';
import type { NodeHooks } from './nodes';
import type { RequestStore, StoredRequestSpec } from './requests';
import type { SshKeyStore } from './sshKeyStore';
import type {
  Cluster,
  ClusterStatus,
  ClusterView,
  Instance,
  RequestStatus,
  TrackedRequest,
  User,
} from './types';
import type { CreateInput, EditInput } from './validate';

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

/** A cluster's status while its claim is in each state (RETRYING and PROCESSING: PROVISIONING). */
const CLAIM_STATUS: Partial<Record<RequestStatus, ClusterStatus>> = {
  COMPLETED: 'RUNNING',
  FAILED: 'FAILED',
  PENDING: 'PENDING',
};

/** The service's answer to a second cluster of the same owner and name. */
const nameClash = (name: string) =>
  refuse(409, `A cluster named '${name}' already exists. Cluster names must be unique; choose another name.`);

/** What the cluster store needs from its neighbours. */
export interface ClusterStoreDeps {
  requests: RequestStore;
  /** Owners by uid and the members of an organisation (engine/identity.ts). */
  users: ReadonlyMap<string, User>;
  members(orgId: string): User[];
  /** The saved keys a new cluster's nodes accept (engine/sshKeyStore.ts). */
  sshKeys: Pick<SshKeyStore, 'listSshKeys' | 'savedKeys'>;
  nodes?: NodeHooks;
}

export class ClusterStore {
  private readonly clusters = new ClusterIndex();
  /** Clusters with a release under way; the only ones the sweep needs to look at. */
  private readonly releasing = new Set<string>();
  private readonly requests: RequestStore;
  private readonly nodes: NodeHooks | undefined;

  constructor(private readonly deps: ClusterStoreDeps) {
    ({ requests: this.requests, nodes: this.nodes } = deps);
  }

  /** Whether a cluster still has real nodes booting (its claim is not done before they listen). */
  booting(clusterId: string): boolean {
    return this.clusters.byId(clusterId)?.instances.some((i) => i.node?.state === 'booting') ?? false;
  }

  /** Who may log in to a new cluster's nodes: the create's keys plus the keys saved for the user and the
   *  organisation (spec: public_keys "are combined with the keys saved for the user and for the
   *  organization"). */
  private clusterKeys(user: User, extra: string[]): string[] {
    return [
      ...new Set(
        [...extra, ...this.deps.sshKeys.listSshKeys(user, true).map((k) => k.publicKey)].map((k) => k.trim()),
      ),
    ];
  }

  /** Record a request in the cluster's history (/cluster/operations). */
  private track(cluster: Cluster, r: TrackedRequest): TrackedRequest {
    cluster.requestIds.push(r.id);
    return r;
  }

  private remove(cluster: Cluster): void {
    this.clusters.remove(cluster);
    this.releasing.delete(cluster.id);
    this.nodes?.clusterGone(cluster);
  }

  /** Drop clusters whose release has completed; forget releases that failed. Cheap: only looks at
   *  clusters with a release under way. Called before every read. */
  sweep(now: number): void {
    for (const id of this.releasing) {
      const cluster = this.clusters.byId(id);
      const release = cluster?.releaseId ? this.requests.get(cluster.releaseId) : undefined;
      if (!cluster || !release) {
        this.releasing.delete(id);
        continue;
      }
      const s = this.requests.status(release, now);
      if (s === 'COMPLETED') this.remove(cluster);
      else if (s === 'FAILED') this.releasing.delete(id);
    }
  }

  view(cluster: Cluster, now: number): ClusterView {
    const claim = cluster.claimId ? this.requests.get(cluster.claimId) : undefined;
    const claimStatus = claim ? this.requests.status(claim, now) : 'COMPLETED';
    let status: ClusterStatus = CLAIM_STATUS[claimStatus] ?? 'PROVISIONING';
    const release = cluster.releaseId ? this.requests.get(cluster.releaseId) : undefined;
    if (release) {
      const rs = this.requests.status(release, now);
      // A failed release leaves the cluster as it was (still running, or still failed).
      if (rs !== 'FAILED') status = 'DESTROYING';
    }
    return {
      cluster,
      status,
      instanceStatus: status,
      addressed: claimStatus === 'COMPLETED',
      owner: this.deps.users.get(cluster.ownerUid),
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
    const byId = this.clusters.byId(ref);
    if (byId) return byId.orgId === user.orgId ? byId : undefined;
    const own = this.clusters.byName(user.uid, ref);
    if (own) return own;
    for (const m of this.deps.members(user.orgId)) {
      const theirs = this.clusters.byName(m.uid, ref);
      if (theirs) return theirs;
    }
    return undefined;
  }

  /** A cluster by id, whoever owns it (volume attachments). */
  findClusterById(id: string): Cluster | undefined {
    return this.clusters.byId(id);
  }

  findInstance(
    user: User,
    instanceId: string,
    now: number,
  ): { cluster: Cluster; instance: Instance } | undefined {
    this.sweep(now);
    const cluster = this.clusters.byInstance(instanceId);
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
    if (input.name !== null && this.clusters.nameTaken(user.uid, input.name)) {
      return nameClash(input.name);
    }
    const cluster = this.clusters.insert(user, {
      name: input.name ?? generateClusterName((n) => this.clusters.nameTaken(user.uid, n)),
      instanceType: input.instanceType,
      numNodes: input.numNodes,
      deletionProtection: input.deletionProtection,
      createdMs: now,
      container: input.container,
      containerField: input.containerField,
      publicKeys: input.publicKeys,
    });
    const request = this.track(cluster, this.requests.startConfigured('CLUSTER_CLAIM', cluster, user, now));
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
      if (this.clusters.nameTaken(cluster.ownerUid, input.name)) {
        return nameClash(input.name);
      }
      changes.push(`renamed from '${cluster.name}' to '${input.name}'`);
      this.clusters.rename(cluster, input.name);
    }
    if (input.deletionProtection !== null && input.deletionProtection !== cluster.deletionProtection) {
      cluster.deletionProtection = input.deletionProtection;
      changes.push(`deletion protection turned ${input.deletionProtection ? 'on' : 'off'}`);
    }
    this.track(cluster, this.requests.startObjectRequest('CLUSTER_EDIT', cluster.id, user, now, true));
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
    const request = this.track(cluster, this.requests.startConfigured('CLUSTER_RELEASE', cluster, user, now));
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
    const cluster = this.clusters.insert(seed.owner, {
      name: seed.name,
      instanceType: seed.instanceType,
      numNodes: seed.numNodes,
      deletionProtection: seed.deletionProtection ?? false,
      createdMs: seed.createdMs,
      container: seed.container ?? null,
      containerField: seed.container ? 'container' : null,
      publicKeys: [],
    });
    if (seed.claim)
      cluster.claimId = this.track(
        cluster,
        this.requests.add('CLUSTER_CLAIM', cluster.id, seed.owner, seed.claim),
      ).id;
    if (seed.realNodes && (seed.claim?.outcome ?? 'COMPLETED') === 'COMPLETED') this.seedNodes(cluster);
    return cluster;
  }

  /** Start a claim that follows the current config (demo seed's "provisioning" cluster). */
  seedProvisioning(seed: Omit<ClusterSeed, 'claim'>, now: number): Cluster {
    const cluster = this.seedCluster({ ...seed, claim: null, realNodes: false });
    const claim = this.track(
      cluster,
      this.requests.startConfigured('CLUSTER_CLAIM', cluster, seed.owner, now),
    );
    cluster.claimId = claim.id;
    if (seed.realNodes && claim.outcome === 'COMPLETED') this.seedNodes(cluster);
    return cluster;
  }

  /** Seeded clusters predate the keys a user saves, so their nodes accept the saved keys of the moment. */
  private seedNodes(cluster: Cluster): void {
    this.nodes?.clusterCreated(cluster, this.deps.sshKeys.savedKeys(cluster.orgId), true);
  }

  hasClusterNamed(owner: User, name: string): boolean {
    return this.clusters.nameTaken(owner.uid, name);
  }

  clusterCount(): number {
    return this.clusters.size;
  }

  allClusters(now: number): ClusterView[] {
    this.sweep(now);
    return [...this.clusters.values()].map((c) => this.view(c, now));
  }
}
