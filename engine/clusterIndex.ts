// The cluster records and their indexes: by id, by owner and name (O(1) duplicate checks: bulk seeds
// insert 10,000 clusters), and by instance id. No statuses or rules: engine/clusterStore.ts has those.

import { hex } from './ids';
import type { Cluster, Instance, User } from './types';

export type ClusterFields = Omit<
  Cluster,
  'id' | 'ownerUid' | 'orgId' | 'instances' | 'claimId' | 'releaseId' | 'requestIds'
>;

export class ClusterIndex {
  private readonly clusters = new Map<string, Cluster>();
  /** ownerUid -> name -> cluster id. */
  private readonly names = new Map<string, Map<string, string>>();
  /** instance id -> cluster id. */
  private readonly instances = new Map<string, string>();
  private nextHost = 0;

  get size(): number {
    return this.clusters.size;
  }

  values(): IterableIterator<Cluster> {
    return this.clusters.values();
  }

  byId(id: string): Cluster | undefined {
    return this.clusters.get(id);
  }

  byName(ownerUid: string, name: string): Cluster | undefined {
    const id = this.names.get(ownerUid)?.get(name);
    return id === undefined ? undefined : this.clusters.get(id);
  }

  byInstance(instanceId: string): Cluster | undefined {
    const id = this.instances.get(instanceId);
    return id === undefined ? undefined : this.clusters.get(id);
  }

  nameTaken(ownerUid: string, name: string): boolean {
    return this.names.get(ownerUid)?.has(name) ?? false;
  }

  insert(owner: User, fields: ClusterFields): Cluster {
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
    for (const inst of cluster.instances) this.instances.set(inst.id, cluster.id);
    return cluster;
  }

  rename(cluster: Cluster, name: string): void {
    this.names.get(cluster.ownerUid)?.delete(cluster.name);
    cluster.name = name;
    this.indexName(cluster.ownerUid, cluster.name, cluster.id);
  }

  remove(cluster: Cluster): void {
    this.clusters.delete(cluster.id);
    this.names.get(cluster.ownerUid)?.delete(cluster.name);
    for (const inst of cluster.instances) this.instances.delete(inst.id);
  }

  private indexName(ownerUid: string, name: string, id: string): void {
    let m = this.names.get(ownerUid);
    if (!m) this.names.set(ownerUid, (m = new Map()));
    m.set(name, id);
  }

  private allocateInstances(count: number): Instance[] {
    const out: Instance[] = [];
    for (let i = 0; i < count; i++) {
      // Documentation ranges only (RFC 5737): 203.0.113.0/24 public, 198.51.100.0/24 private.
      const host = (this.nextHost++ % 254) + 1;
      let id = `i-${hex(8)}`;
      while (this.instances.has(id)) id = `i-${hex(8)}`;
      out.push({ id, publicIp: `203.0.113.${host}`, privateIp: `198.51.100.${host}` });
    }
    return out;
  }
}
