// The engine's in-memory domain state, composed of one store per thing it holds: identity (users,
// tokens, the organisation), tracked requests, clusters, SSH keys, object storage, storage volumes and
// jobs. Each store is given only the neighbours it needs. HTTP-agnostic: stores take the caller and the
// current time and return domain results; routes.ts turns them into status codes and bodies.
//
// Nothing is timed: statuses are derived from the requests and the clock whenever somebody looks
// (engine/requests.ts), so nothing keeps the event loop alive.

import { ClusterStore } from './clusterStore';
import { Identity } from './identity';
import { DEFAULT_JOB_CONFIG, JobStore } from './jobs';
import type { NodeHooks } from './nodes';
import { ObjectStorageState } from './objectStorageState';
import type { ObjectStoreHooks } from './objectStore';
import { DEFAULT_INSTANCE_TYPES } from './offered';
import { RequestStore } from './requests';
import { SshKeyStore } from './sshKeyStore';
import type { EngineConfig } from './types';
import { VolumeStore } from './volumes';

export const DEFAULT_TOKEN = 'tp_local_dev_token';

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

export interface StateOptions {
  tokens: string[];
  readonlyTokens: string[];
  config: EngineConfig;
  /** The S3 server the credentials point at (engine/objectStore.ts), when the engine runs one. */
  objectStore?: ObjectStoreHooks;
  /** Real nodes (engine/nodes.ts), when the engine runs them. */
  nodes?: NodeHooks;
}

export class EngineState {
  /** This state's config; POST /_engine/config changes it in place, so the stores read it live. */
  readonly config: EngineConfig;
  readonly identity: Identity;
  readonly requests: RequestStore;
  readonly clusters: ClusterStore;
  readonly sshKeys: SshKeyStore;
  readonly objectStorage: ObjectStorageState;
  readonly volumes: VolumeStore;
  readonly jobs: JobStore;

  constructor(opts: StateOptions) {
    const config = (this.config = { ...opts.config });
    this.identity = new Identity(opts.tokens, opts.readonlyTokens, () => config.balanceUsd);
    // Requests ask the clusters whether a claim's nodes still boot; the clusters are made just below.
    this.requests = new RequestStore(config, (clusterId) => this.clusters.booting(clusterId));
    this.sshKeys = new SshKeyStore(opts.nodes);
    this.clusters = new ClusterStore({
      requests: this.requests,
      users: this.identity.users,
      members: (orgId) => this.identity.members(orgId),
      sshKeys: this.sshKeys,
      nodes: opts.nodes,
    });
    this.objectStorage = new ObjectStorageState(opts.objectStore);
    this.volumes = new VolumeStore({
      requests: this.requests,
      clusters: this.clusters,
      users: this.identity.users,
      org: this.identity.org,
    });
    this.jobs = new JobStore({ config, users: this.identity.users, clusters: this.clusters });
  }
}
