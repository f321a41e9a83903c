// Storage volumes in the engine: records, derived views, prices and the eligibility rule (the state
// that holds them is volumes.ts).

import type { Cluster, User } from './types';

/** Price of one GB for one hour (USD). 1 TB costs $0.20 an hour, $4.80 a day. */
export const GB_HOUR_USD = 0.0002;
/** Largest size the engine accepts (GB); above it the service would refuse the order anyway. */
export const MAX_VOLUME_GB = 1_000_000;

export type VolumeStatus =
  'CREATING' | 'READY' | 'ATTACHING' | 'ATTACHED' | 'DETACHING' | 'DESTROYING' | 'FAILED';
export type AttachmentStatus = 'ATTACHING' | 'ATTACHED' | 'DETACHING';

export interface Attachment {
  clusterId: string;
  attachId: string;
  detachId: string | null;
}

export interface Volume {
  id: string;
  name: string;
  sizeGb: number;
  deletionProtection: boolean;
  ownerUid: string;
  orgId: string;
  createdMs: number;
  createId: string;
  destroyId: string | null;
  attachments: Attachment[];
  requestIds: string[];
}

export interface AttachmentView {
  clusterId: string;
  clusterName: string | null;
  status: AttachmentStatus;
}

export interface VolumeView {
  volume: Volume;
  status: VolumeStatus;
  attachments: AttachmentView[];
  owner: User | undefined;
  hourlyRate: number;
}

export type VolumeOutcome<T> = { ok: true; value: T } | { ok: false; code: 400 | 404 | 409; message: string };

export const mountPath = (id: string): string => `/mnt/${id}`;
export const hourlyRate = (sizeGb: number): number => Math.round(sizeGb * GB_HOUR_USD * 10_000) / 10_000;

/** Why a cluster cannot take a volume, or null when it can (multi-node GPU clusters, CPU instances). */
export function ineligibility(cluster: Cluster): string | null {
  if (/CPU$/i.test(cluster.instanceType)) return null;
  if (cluster.numNodes > 1) return null;
  return (
    `Cluster ${cluster.id} ('${cluster.name}') is a single-node ${cluster.instanceType} cluster. ` +
    'Storage volumes attach to multi-node GPU clusters and to CPU instances only.'
  );
}
