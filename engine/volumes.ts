// Storage volumes (shared file systems attached to clusters): the engine's domain state for them.
// Like clusters, nothing is timed: a volume's status and its attachments are derived from its
// STORAGE_* requests and the clock whenever somebody looks (see requests.ts). HTTP-agnostic; the
// routes are in volumeRoutes.ts.
//
// Rules (spec "Storage volumes"): volumes attach to multi-node GPU clusters and to CPU instances,
// mounted at /mnt/<storage_id> on every node; size only grows; deletion protection refuses destroy;
// a volume still attached to a cluster cannot be destroyed; create needs 24 h of cost in the balance.

import type { ClusterStore } from './clusterStore';
import { hex } from './ids';
import type { RequestStore } from './requests';
import type { Cluster, Org, RequestType, TrackedRequest, User } from './types';
import {
  hourlyRate,
  ineligibility,
  type AttachmentStatus,
  type AttachmentView,
  type Volume,
  type VolumeOutcome,
  type VolumeStatus,
  type VolumeView,
} from './volumeTypes';

export * from './volumeTypes';

const no = (
  code: 400 | 404 | 409,
  message: string,
): { ok: false; code: 400 | 404 | 409; message: string } => ({
  ok: false,
  code,
  message,
});

/** What the volume store needs from its neighbours. */
export interface VolumeStoreDeps {
  requests: RequestStore;
  clusters: Pick<ClusterStore, 'findCluster' | 'findClusterById' | 'view'>;
  users: ReadonlyMap<string, User>;
  /** The balance a create must cover. */
  org: Org;
}

export class VolumeStore {
  private readonly volumes = new Map<string, Volume>();

  constructor(private readonly state: VolumeStoreDeps) {}

  private status(r: string | null, now: number): string | undefined {
    const req = r ? this.state.requests.get(r) : undefined;
    return req ? this.state.requests.status(req, now) : undefined;
  }

  private request(type: RequestType, v: Volume, user: User, now: number): TrackedRequest {
    const r = this.state.requests.startObjectRequest(type, v.id, user, now);
    v.requestIds.push(r.id);
    return r;
  }

  /** Drop finished destroys, failed attaches, completed detaches and attachments of gone clusters. */
  sweep(now: number): void {
    for (const v of this.volumes.values()) {
      if (this.status(v.destroyId, now) === 'COMPLETED') {
        this.volumes.delete(v.id);
        continue;
      }
      if (this.status(v.destroyId, now) === 'FAILED') v.destroyId = null;
      v.attachments = v.attachments.filter((a) => {
        if (this.status(a.attachId, now) === 'FAILED') return false;
        if (this.status(a.detachId, now) === 'COMPLETED') return false;
        if (this.status(a.detachId, now) === 'FAILED') a.detachId = null;
        return this.state.clusters.findClusterById(a.clusterId) !== undefined;
      });
    }
  }

  view(v: Volume, now: number): VolumeView {
    const attachments: AttachmentView[] = v.attachments.map((a) => {
      const attach = this.status(a.attachId, now);
      const status: AttachmentStatus = a.detachId
        ? 'DETACHING'
        : attach === 'COMPLETED'
          ? 'ATTACHED'
          : 'ATTACHING';
      return {
        clusterId: a.clusterId,
        clusterName: this.state.clusters.findClusterById(a.clusterId)?.name ?? null,
        status,
      };
    });
    const create = this.status(v.createId, now);
    let status: VolumeStatus;
    if (v.destroyId) status = 'DESTROYING';
    else if (create === 'FAILED') status = 'FAILED';
    else if (create !== 'COMPLETED') status = 'CREATING';
    else if (attachments.some((a) => a.status === 'ATTACHING')) status = 'ATTACHING';
    else if (attachments.some((a) => a.status === 'DETACHING')) status = 'DETACHING';
    else status = attachments.length ? 'ATTACHED' : 'READY';
    return {
      volume: v,
      status,
      attachments,
      owner: this.state.users.get(v.ownerUid),
      hourlyRate: hourlyRate(v.sizeGb),
    };
  }

  list(user: User, includeOrg: boolean, now: number): VolumeView[] {
    this.sweep(now);
    return [...this.volumes.values()]
      .filter((v) => (includeOrg ? v.orgId === user.orgId : v.ownerUid === user.uid))
      .map((v) => this.view(v, now));
  }

  all(now: number): VolumeView[] {
    this.sweep(now);
    return [...this.volumes.values()].map((v) => this.view(v, now));
  }

  /** By id, or by name (the caller's own volumes first, then the organisation's). */
  find(user: User, ref: string, now: number): Volume | undefined {
    this.sweep(now);
    const byId = this.volumes.get(ref);
    if (byId) return byId.orgId === user.orgId ? byId : undefined;
    const same = [...this.volumes.values()].filter((v) => v.name === ref && v.orgId === user.orgId);
    return same.find((v) => v.ownerUid === user.uid) ?? same[0];
  }

  /** Volumes attached (or attaching/detaching) to a cluster, for cluster list/info. */
  forCluster(clusterId: string, now: number): { view: VolumeView; status: AttachmentStatus }[] {
    const out: { view: VolumeView; status: AttachmentStatus }[] = [];
    for (const v of this.all(now)) {
      const a = v.attachments.find((x) => x.clusterId === clusterId);
      if (a) out.push({ view: v, status: a.status });
    }
    return out;
  }

  private nameTaken(ownerUid: string, name: string, except?: string): boolean {
    for (const v of this.volumes.values())
      if (v.ownerUid === ownerUid && v.name === name && v.id !== except) return true;
    return false;
  }

  create(
    user: User,
    input: { sizeGb: number; deletionProtection: boolean; name: string | null },
    now: number,
  ): VolumeOutcome<{ volume: Volume; request: TrackedRequest }> {
    this.sweep(now);
    const day = hourlyRate(input.sizeGb) * 24;
    if (this.state.org.balanceUsd < day) {
      return no(
        400,
        `Insufficient balance: a ${input.sizeGb} GB volume costs $${hourlyRate(input.sizeGb).toFixed(4)} an hour, and the balance ` +
          `must cover 24 hours ($${day.toFixed(2)}); the balance is $${this.state.org.balanceUsd.toFixed(2)}. ` +
          'Add funds or choose a smaller size.',
      );
    }
    if (input.name !== null && this.nameTaken(user.uid, input.name))
      return no(409, `A storage volume named '${input.name}' already exists. Choose another name.`);
    let id = `vol-${hex(6)}`;
    while (this.volumes.has(id)) id = `vol-${hex(6)}`;
    const volume: Volume = {
      id,
      name: input.name ?? `volume-${id.slice(4)}`,
      sizeGb: input.sizeGb,
      deletionProtection: input.deletionProtection,
      ownerUid: user.uid,
      orgId: user.orgId,
      createdMs: now,
      createId: '',
      destroyId: null,
      attachments: [],
      requestIds: [],
    };
    this.volumes.set(id, volume);
    const request = this.request('STORAGE_CREATE', volume, user, now);
    volume.createId = request.id;
    return { ok: true, value: { volume, request } };
  }

  /** Edits apply at once (a COMPLETED STORAGE_EDIT is recorded). Size checks are the route's. */
  edit(
    user: User,
    ref: string,
    input: { name: string | null; deletionProtection: boolean | null; sizeGb: number | null },
    now: number,
  ): VolumeOutcome<{ volume: Volume; changes: string[] }> {
    const v = this.find(user, ref, now);
    if (!v) return no(404, `Storage volume '${ref}' not found`);
    if (v.destroyId) return no(409, `Storage volume ${v.id} is being destroyed and can no longer be edited`);
    const changes: string[] = [];
    if (input.name !== null && input.name !== v.name) {
      if (this.nameTaken(v.ownerUid, input.name, v.id))
        return no(409, `A storage volume named '${input.name}' already exists. Choose another name.`);
      changes.push(`renamed from '${v.name}' to '${input.name}'`);
      v.name = input.name;
    }
    if (input.sizeGb !== null && input.sizeGb !== v.sizeGb) {
      changes.push(`grown from ${v.sizeGb} GB to ${input.sizeGb} GB`);
      v.sizeGb = input.sizeGb;
    }
    if (input.deletionProtection !== null && input.deletionProtection !== v.deletionProtection) {
      v.deletionProtection = input.deletionProtection;
      changes.push(`deletion protection turned ${v.deletionProtection ? 'on' : 'off'}`);
    }
    const r = this.state.requests.startObjectRequest('STORAGE_EDIT', v.id, user, now, true);
    v.requestIds.push(r.id);
    return { ok: true, value: { volume: v, changes } };
  }

  attach(
    user: User,
    ref: string,
    clusterRefs: string[],
    now: number,
  ): VolumeOutcome<{ volume: Volume; requests: TrackedRequest[] }> {
    const v = this.find(user, ref, now);
    if (!v) return no(404, `Storage volume '${ref}' not found`);
    const st = this.view(v, now).status;
    if (st === 'CREATING' || st === 'FAILED' || st === 'DESTROYING')
      return no(409, `Storage volume ${v.id} is ${st} and cannot be attached now`);
    const clusters: Cluster[] = [];
    for (const cref of clusterRefs) {
      const c = this.state.clusters.findCluster(user, cref, now);
      if (!c) return no(404, `Cluster '${cref}' not found`);
      const why = ineligibility(c);
      if (why) return no(400, why);
      const cs = this.state.clusters.view(c, now).status;
      if (cs !== 'RUNNING')
        return no(409, `Cluster ${c.id} is ${cs}; a volume can only be attached to a running cluster`);
      if (v.attachments.some((a) => a.clusterId === c.id))
        return no(409, `Storage volume ${v.id} is already attached to cluster ${c.id}`);
      if (!clusters.includes(c)) clusters.push(c);
    }
    const requests = clusters.map((c) => {
      const r = this.request('STORAGE_ATTACH', v, user, now);
      v.attachments.push({ clusterId: c.id, attachId: r.id, detachId: null });
      return r;
    });
    return { ok: true, value: { volume: v, requests } };
  }

  detach(
    user: User,
    ref: string,
    clusterRef: string,
    now: number,
  ): VolumeOutcome<{ volume: Volume; request: TrackedRequest }> {
    const v = this.find(user, ref, now);
    if (!v) return no(404, `Storage volume '${ref}' not found`);
    const c = this.state.clusters.findCluster(user, clusterRef, now);
    const a = v.attachments.find((x) => x.clusterId === (c?.id ?? clusterRef));
    if (!a) return no(409, `Storage volume ${v.id} is not attached to cluster '${clusterRef}'`);
    if (a.detachId) {
      const existing = this.state.requests.get(a.detachId);
      if (existing) return { ok: true, value: { volume: v, request: existing } };
    }
    if (this.status(a.attachId, now) !== 'COMPLETED')
      return no(
        409,
        `Storage volume ${v.id} is still being attached to cluster ${a.clusterId}; wait until it is attached`,
      );
    const request = this.request('STORAGE_DETACH', v, user, now);
    a.detachId = request.id;
    return { ok: true, value: { volume: v, request } };
  }

  destroy(
    user: User,
    ref: string,
    now: number,
  ): VolumeOutcome<{ volume: Volume; request: TrackedRequest; already: boolean }> {
    const v = this.find(user, ref, now);
    if (!v) return no(404, `Storage volume '${ref}' not found`);
    if (v.destroyId) {
      const existing = this.state.requests.get(v.destroyId);
      if (existing) return { ok: true, value: { volume: v, request: existing, already: true } };
    }
    if (v.deletionProtection) {
      return no(
        409,
        `Storage volume ${v.id} ('${v.name}') has deletion protection enabled and cannot be destroyed. ` +
          `Turn deletion protection off first (PATCH /storage/edit/${v.id} with {"deletion_protection": false}).`,
      );
    }
    if (v.attachments.length) {
      return no(
        409,
        `Storage volume ${v.id} ('${v.name}') is attached to ${v.attachments.map((a) => a.clusterId).join(', ')}. ` +
          'Detach it from every cluster first (POST /storage/detach).',
      );
    }
    const request = this.request('STORAGE_DESTROY', v, user, now);
    v.destroyId = request.id;
    return { ok: true, value: { volume: v, request, already: false } };
  }
}
