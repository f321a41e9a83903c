// Seeds: the demo state (`--seed demo`) and bulk clusters (POST /_engine/seed).

import type { ClusterStore } from './clusterStore';
import type { Identity } from './identity';
import type { User } from './types';

const HOUR = 3_600_000;

/** A past claim that has long finished with the given outcome. */
function pastClaim(
  startedMs: number,
  outcome: 'COMPLETED' | 'FAILED',
  externalMessage: string | null = null,
) {
  return { startedMs, pendingMs: 1500, processingMs: 6000, outcome, externalMessage };
}

/**
 * For the first token's user: a protected 2-node 8xH100 and a 1xH100, both running; one cluster
 * provisioning right now (it completes after the configured durations, like a real create); one that
 * failed. Plus a running cluster of a teammate, so include_org shows more than the caller's own.
 * Object storage stays disabled.
 */
export function applyDemoSeed(state: { clusters: ClusterStore; identity: Identity }, now: number): void {
  const me = state.identity.primaryUser;
  state.clusters.seedCluster({
    owner: me,
    name: 'llm-train-8xh100',
    instanceType: '8xH100',
    numNodes: 2,
    deletionProtection: true,
    container: 'nvcr.io/nvidia/pytorch:25.01-py3',
    createdMs: now - 26 * HOUR,
    claim: pastClaim(now - 26 * HOUR, 'COMPLETED'),
    realNodes: true,
  });
  state.clusters.seedCluster({
    owner: me,
    name: 'dev-box-1xh100',
    instanceType: '1xH100',
    numNodes: 1,
    createdMs: now - 3 * HOUR,
    claim: pastClaim(now - 3 * HOUR, 'COMPLETED'),
    realNodes: true,
  });
  state.clusters.seedProvisioning(
    { owner: me, name: 'eval-1xh200', instanceType: '1xH200', numNodes: 1, createdMs: now, realNodes: true },
    now,
  );
  state.clusters.seedCluster({
    owner: me,
    name: 'big-run-8xb200',
    instanceType: '8xB200',
    numNodes: 4,
    createdMs: now - 1 * HOUR,
    claim: pastClaim(
      now - 1 * HOUR,
      'FAILED',
      'Could not provision 4 x 8xB200: insufficient capacity. Try fewer nodes or another instance type.',
    ),
  });
  state.clusters.seedCluster({
    owner: state.identity.teammate,
    name: 'team-inference-2xh100',
    instanceType: '2xH100',
    numNodes: 1,
    createdMs: now - 50 * HOUR,
    claim: pastClaim(now - 50 * HOUR, 'COMPLETED'),
    realNodes: true,
  });
}

export interface BulkSeed {
  count: number;
  owner: User;
  prefix: string;
  instanceType: string;
  numNodes: number;
}

/** Insert `count` running clusters named `<prefix>-<n>` (skipping names already taken). Linear
 *  time: 10,000 clusters take a few tens of milliseconds. */
export function bulkSeed(clusters: ClusterStore, seed: BulkSeed, now: number): number {
  let n = 0;
  for (let i = 1; n < seed.count; i++) {
    const name = `${seed.prefix}-${i}`;
    if (clusters.hasClusterNamed(seed.owner, name)) continue;
    clusters.seedCluster({
      owner: seed.owner,
      name,
      instanceType: seed.instanceType,
      numNodes: seed.numNodes,
      // Distinct creation times, oldest first, all in the past.
      createdMs: now - (seed.count - n) * 1000,
      claim: null,
    });
    n++;
  }
  return n;
}
