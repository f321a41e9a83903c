/**
 * The domain model the UI works with: clusters and instances as the extension understands them,
 * whatever shape the server sent (see src/api/normalize.ts). Status vocabularies are open strings.
 */
import { isSshPort, isSshUser } from './sshAddress';
import type { AttachedVolume } from './volume';

export interface Instance {
  readonly id: string;
  readonly status?: string;
  /** Public address when the server gives one (what ssh connects to). */
  readonly ip?: string;
  readonly privateIp?: string;
  /** Where the node's ssh server listens and who logs in, when the service says (else the settings). */
  readonly sshPort?: number;
  readonly sshUser?: string;
}

export interface Cluster {
  readonly id: string;
  readonly name?: string;
  readonly instanceType?: string;
  readonly numNodes?: number;
  readonly status?: string;
  readonly deletionProtection?: boolean;
  readonly createdAt?: string;
  readonly owner?: string;
  readonly container?: string;
  readonly instances: readonly Instance[];
  /** 'text' when read from the server's text answer (a guess, said so in the UI); else structured. */
  readonly source?: 'structured' | 'text';
  /** A public address the text gave for the cluster itself, without naming an instance (and its ssh
   *  port and user when the text gave those too). */
  readonly ip?: string;
  readonly sshPort?: number;
  readonly sshUser?: string;
  /** Storage volumes attached to it, when the server lists them (src/model/volume.ts). */
  readonly volumes?: readonly AttachedVolume[];
}

/** An ssh port and login user as the service wrote them, kept only when ssh could use them as they
 *  are (model/sshAddress.ts); anything else is left out, never passed on. */
export function sshLogin(port: unknown, user: unknown): { sshPort?: number; sshUser?: string } {
  const p = typeof port === 'string' && /^\d{1,5}$/.test(port.trim()) ? Number(port) : port;
  const u = typeof user === 'string' ? user.trim() : undefined;
  return {
    ...(typeof p === 'number' && isSshPort(p) ? { sshPort: p } : {}),
    ...(u && isSshUser(u) ? { sshUser: u } : {}),
  };
}

/** What a cluster list request produced: structured clusters when the server sent them, and its text. */
export interface ClusterListing {
  /** `undefined` when the server answered with text only (not the same as an empty list). */
  readonly clusters: readonly Cluster[] | undefined;
  readonly message?: string;
  /** When `clusters` is undefined: the clusters read from the text (each `source: 'text'`). */
  readonly textClusters?: readonly Cluster[];
  /** Table rows of the text that could not be read as clusters. */
  readonly unreadRows?: readonly string[];
}

/** Every cluster a listing names: the structured ones, else those read from its text. */
export function knownClusters(listing: ClusterListing | undefined): readonly Cluster[] {
  return listing?.clusters ?? listing?.textClusters ?? [];
}

export type ClusterPhase = 'running' | 'transitional' | 'failed' | 'stopped' | 'unknown';

const RUNNING = new Set(['RUNNING', 'ACTIVE', 'READY', 'HEALTHY', 'ONLINE']);
const TRANSITIONAL = new Set([
  'PENDING',
  'PROVISIONING',
  'PROCESSING',
  'STARTING',
  'CREATING',
  'BOOTING',
  'INITIALIZING',
  'RETRYING',
  'QUEUED',
  'CLAIMING',
  'UPDATING',
  'RESTARTING',
  'STOPPING',
  'DESTROYING',
  'DELETING',
  'TERMINATING',
  'RELEASING',
]);
const FAILED = new Set(['FAILED', 'ERROR', 'UNHEALTHY', 'CRASHED']);
const STOPPED = new Set(['STOPPED', 'TERMINATED', 'DESTROYED', 'DELETED', 'RELEASED', 'OFFLINE']);

/** Classify an open status string (any case, `running`, `RUNNING`, `Provisioning`…). */
export function clusterPhase(status: string | undefined): ClusterPhase {
  if (!status) return 'unknown';
  const s = status
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (RUNNING.has(s)) return 'running';
  if (TRANSITIONAL.has(s)) return 'transitional';
  if (FAILED.has(s)) return 'failed';
  if (STOPPED.has(s)) return 'stopped';
  return 'unknown';
}

/** True while a cluster is on its way somewhere (the tree refreshes faster then). */
export function isInTransition(cluster: Cluster): boolean {
  return (
    clusterPhase(cluster.status) === 'transitional' ||
    cluster.instances.some((i) => clusterPhase(i.status) === 'transitional')
  );
}

export function clusterLabel(cluster: Cluster): string {
  return cluster.name && cluster.name.trim() !== '' ? cluster.name : cluster.id;
}

export function clusterShape(cluster: Cluster): string | undefined {
  if (!cluster.instanceType) return undefined;
  const nodes = cluster.numNodes ?? (cluster.instances.length || undefined);
  return nodes && nodes > 1 ? `${cluster.instanceType} × ${nodes}` : cluster.instanceType;
}

/** Request tracking (GET /request/info): only COMPLETED and FAILED are terminal. */
export function isTerminalRequestStatus(status: string | undefined): boolean {
  const s = status?.toUpperCase();
  return s === 'COMPLETED' || s === 'FAILED';
}
