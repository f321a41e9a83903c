/**
 * From the server's loosely specified records to the domain model. The listing and info shapes are
 * undocumented ([guess] in the spec), so every field is looked up under the names seen in the wild
 * and anything unreadable is left out rather than invented.
 */
import { sshLogin, type Cluster, type ClusterListing, type Instance } from '../model/cluster';
import type { AttachedVolume } from '../model/volume';
import { bool, first, isRecord, num, str } from './loose';
import { clustersFromText } from './normalizeText';
export { clusterFromText, clustersFromText } from './normalizeText';
import type { LooseRecord } from './schemas';

function toInstance(raw: unknown): Instance | undefined {
  if (typeof raw === 'string') return raw.trim() ? { id: raw } : undefined;
  if (!isRecord(raw)) return undefined;
  const id = str(first(raw, 'id', 'instance_id', 'instanceId'));
  if (!id) return undefined;
  return {
    id,
    status: str(first(raw, 'status', 'state')),
    ip: str(first(raw, 'ip', 'public_ip', 'publicIp', 'ip_address', 'external_ip')),
    privateIp: str(first(raw, 'private_ip', 'privateIp', 'internal_ip')),
    // Only fields that say ssh: a bare `port` or `user` may be something else (a notebook, the owner).
    ...sshLogin(first(raw, 'ssh_port', 'sshPort'), first(raw, 'ssh_user', 'sshUser', 'ssh_username')),
  };
}

export function toCluster(raw: unknown): Cluster | undefined {
  if (!isRecord(raw)) return undefined;
  const id = str(first(raw, 'id', 'cluster_id', 'clusterId'));
  if (!id) return undefined;
  const rawInstances = first(raw, 'instances', 'nodes');
  const ids = first(raw, 'instance_ids');
  const list = Array.isArray(rawInstances) ? rawInstances : Array.isArray(ids) ? ids : [];
  const instances = list.map(toInstance).filter((i): i is Instance => i !== undefined);
  const volumes = toAttachedVolumes(first(raw, 'attached_volumes', 'volumes', 'storage'));
  return {
    id,
    name: str(first(raw, 'name', 'cluster_name', 'tp_cluster_name')),
    instanceType: str(first(raw, 'instance_type', 'instanceType')),
    numNodes: num(first(raw, 'num_nodes', 'numNodes', 'node_count')),
    status: str(first(raw, 'status', 'state')),
    deletionProtection: bool(first(raw, 'deletion_protection', 'deletionProtection')),
    createdAt: str(first(raw, 'created_at', 'createdAt')),
    owner: str(first(raw, 'owner', 'owner_email', 'user_email', 'uid')),
    container: str(first(raw, 'container', 'experimental_container', 'image')),
    instances,
    ...(volumes ? { volumes } : {}),
  };
}

export function toListing(body: {
  message?: string | null;
  clusters?: LooseRecord[] | null;
}): ClusterListing & { skipped: number } {
  const message = str(body.message);
  if (!Array.isArray(body.clusters)) {
    // Text only: what the text names is offered alongside (marked as read from text), never as the list.
    const read = clustersFromText(message);
    return { clusters: undefined, message, skipped: 0, textClusters: read.clusters, unreadRows: read.unread };
  }
  const clusters = body.clusters.map(toCluster).filter((c): c is Cluster => c !== undefined);
  return { clusters, message, skipped: body.clusters.length - clusters.length };
}

export interface Bucket {
  readonly name: string;
  readonly createdAt?: string;
  readonly objectCount?: number;
}

export function toBucket(raw: unknown): Bucket | undefined {
  if (typeof raw === 'string') return raw.trim() ? { name: raw } : undefined;
  if (!isRecord(raw)) return undefined;
  const name = str(first(raw, 'name', 'bucket', 'Name', 'bucket_name'));
  if (!name) return undefined;
  return {
    name,
    createdAt: str(first(raw, 'created_at', 'creation_date', 'CreationDate', 'createdAt')),
    objectCount: num(first(raw, 'object_count', 'objects', 'objectCount')),
  };
}

/** A cluster record's `attached_volumes` (or `volumes`), when the server gives them. */
function toAttachedVolumes(raw: unknown): AttachedVolume[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: AttachedVolume[] = [];
  for (const r of raw) {
    if (typeof r === 'string' && r.trim()) out.push({ id: r });
    if (!isRecord(r)) continue;
    const id = str(first(r, 'storage_id', 'id', 'volume_id'));
    if (id)
      out.push({
        id,
        name: str(first(r, 'name')),
        sizeGb: num(first(r, 'size_gb', 'size')),
        status: str(first(r, 'status')),
      });
  }
  return out;
}
