// Wire shapes (snake_case JSON) of the engine's records. One place, so list, info, the state dump and
// the tests all agree on field names.

import { iso } from './ids';
import type { RequestStore } from './requests';
import {
  objectCount,
  type Bucket,
  type ClusterView,
  type Instance,
  type SshKey,
  type TrackedRequest,
  type User,
} from './types';

export interface InstanceJson {
  id: string;
  status: string;
  ip: string | null;
  private_ip: string | null;
  /** A real node's sshd (engine/nodes.ts): its port and login user, with `ip` 127.0.0.1. */
  ssh_port?: number;
  ssh_user?: string;
}

export interface ClusterJson {
  id: string;
  name: string;
  instance_type: string;
  num_nodes: number;
  status: string;
  deletion_protection: boolean;
  created_at: string;
  owner: string;
  owner_email: string | null;
  container: string | null;
  instances?: InstanceJson[];
}

export function clusterJson(v: ClusterView, withInstances: boolean): ClusterJson {
  const c = v.cluster;
  const out: ClusterJson = {
    id: c.id,
    name: c.name,
    instance_type: c.instanceType,
    num_nodes: c.numNodes,
    status: v.status,
    deletion_protection: c.deletionProtection,
    created_at: iso(c.createdMs),
    owner: c.ownerUid,
    owner_email: v.owner?.email ?? null,
    container: c.container,
  };
  if (withInstances) {
    out.instances = c.instances.map((i) => {
      const inst: InstanceJson = {
        id: i.id,
        status: v.instanceStatus,
        ip: v.addressed ? i.publicIp : null,
        private_ip: v.addressed ? i.privateIp : null,
      };
      const ssh = v.addressed ? sshAddress(i) : undefined;
      if (ssh) Object.assign(inst, { ssh_port: ssh.port, ssh_user: ssh.user });
      return inst;
    });
  }
  return out;
}

/** Where a real node's sshd listens (up, or down: the address stays, nothing answers). */
export function sshAddress(i: Instance): { host: string; port: number; user: string } | undefined {
  return i.node && (i.node.state === 'up' || i.node.state === 'down') ? i.node : undefined;
}

export function requestJson(requests: RequestStore, r: TrackedRequest, now: number): Record<string, unknown> {
  const status = requests.status(r, now);
  const out: Record<string, unknown> = {
    request_id: r.id,
    request_type: r.type,
    status,
    created_at: iso(r.createdMs),
    object_id: r.objectId,
  };
  // The failure reason only once the request has actually failed.
  if (status === 'FAILED' && r.externalMessage) out.external_message = r.externalMessage;
  // The short sentence the official CLI prints when a request ends.
  if (status === 'COMPLETED' || status === 'FAILED') out.message = requestMessage(r, status);
  return out;
}

const DONE: Record<TrackedRequest['type'], [string, string]> = {
  CLUSTER_CLAIM: ['is ready', 'could not be created'],
  CLUSTER_RELEASE: ['was destroyed', 'could not be destroyed'],
  CLUSTER_EDIT: ['was updated', 'could not be updated'],
  STORAGE_CREATE: ['is ready', 'could not be created'],
  STORAGE_DESTROY: ['was destroyed', 'could not be destroyed'],
  STORAGE_ATTACH: ['was attached', 'could not be attached'],
  STORAGE_DETACH: ['was detached', 'could not be detached'],
  STORAGE_EDIT: ['was updated', 'could not be updated'],
};

function requestMessage(r: TrackedRequest, status: 'COMPLETED' | 'FAILED'): string {
  const [ok, failed] = DONE[r.type];
  const what = r.type.startsWith('STORAGE_') ? 'Volume' : 'Cluster';
  if (status === 'COMPLETED') return `${what} ${r.objectId} ${ok}.`;
  return `${what} ${r.objectId} ${failed}${r.externalMessage ? `: ${r.externalMessage}` : '.'}`;
}

export function userJson(u: User, orgName: string): Record<string, unknown> {
  return {
    uid: u.uid,
    email: u.email,
    name: u.name,
    org_id: u.orgId,
    org_name: orgName,
    readonly: u.readonly,
  };
}

export function sshKeyJson(k: SshKey, owner: User | undefined): Record<string, unknown> {
  return {
    key_id: k.id,
    name: k.name,
    key_type: k.keyType,
    fingerprint: k.fingerprint,
    public_key: k.publicKey,
    owner: k.ownerUid,
    owner_email: owner?.email ?? null,
    created_at: iso(k.createdMs),
  };
}

export function bucketJson(b: Bucket): { name: string; created_at: string; object_count: number } {
  return { name: b.name, created_at: iso(b.createdMs), object_count: objectCount(b) };
}
