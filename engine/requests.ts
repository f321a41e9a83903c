// Tracked requests (/request/info): every asynchronous operation on a cluster or a storage volume.
//
// Asynchrony without timers: a request stores when it started, its durations and its destined
// outcome. Its status (PENDING -> PROCESSING -> COMPLETED/FAILED) is computed from the elapsed time
// whenever somebody looks. Nothing keeps the event loop alive, tests can use tiny durations, and a
// reader always sees a consistent instant.

import { hex } from './ids';
import type { EngineConfig, RequestStatus, RequestType, TrackedRequest, User } from './types';

export interface StoredRequestSpec {
  startedMs: number;
  pendingMs: number;
  processingMs: number;
  outcome: 'COMPLETED' | 'FAILED';
  externalMessage?: string | null;
  stuck?: boolean;
  retrying?: boolean;
}

export class RequestStore {
  private readonly byId = new Map<string, TrackedRequest>();

  /** `config` is the live engine config (mutated in place by POST /_engine/config); `booting` says
   *  whether a cluster still has real nodes booting (a claim is done only once they listen). */
  constructor(
    private readonly config: EngineConfig,
    private readonly booting: (clusterId: string) => boolean,
  ) {}

  get(id: string): TrackedRequest | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<TrackedRequest> {
    return this.byId.values();
  }

  status(r: TrackedRequest, now: number): RequestStatus {
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

  /** A request with the given timing and outcome (seeds, edits). */
  add(type: RequestType, objectId: string, owner: User, spec: StoredRequestSpec): TrackedRequest {
    const r: TrackedRequest = {
      id: `req_${hex(10)}`,
      type,
      objectId,
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
    this.byId.set(r.id, r);
    return r;
  }

  /** A cluster claim or release that follows the current config (and consumes one pending failure if
   *  asked). */
  startConfigured(
    type: 'CLUSTER_CLAIM' | 'CLUSTER_RELEASE',
    cluster: { id: string; numNodes: number; instanceType: string },
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
    return this.add(type, cluster.id, owner, {
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
    return this.add(type, objectId, owner, {
      startedMs: now,
      pendingMs: immediate ? 0 : c.pendingMs,
      processingMs: immediate ? 0 : c.processingMs,
      stuck: immediate ? false : c.stuck,
      retrying: immediate ? false : c.retrying,
      outcome: 'COMPLETED',
    });
  }

  /** A request visible to the caller (same organisation), by id. */
  find(user: User, id: string): TrackedRequest | undefined {
    const r = this.byId.get(id);
    return r && r.orgId === user.orgId ? r : undefined;
  }
}
