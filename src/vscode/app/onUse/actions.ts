/**
 * The command actions: what runs only when a command is invoked (the wizards, create/edit/destroy,
 * connect, volumes' create/edit/attach, SSH key add/remove, buckets, the storage profiles). Bundled on
 * its own as dist/actions.js (esbuild.mjs) and loaded on the first such command (../lazyActions.ts), so
 * activation does not pay for it. `createActions` runs once per window: state the actions share (the
 * instance ids of created clusters) lives in the one object made here, never at module level, and the
 * services they work with are the activation bundle's own, passed in.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApiService } from '../../shared/apiService';
import { BucketActions } from '../../objectStorage/onUse';
import { ClusterActions, type ClusterCommandDeps } from '../../clusters/onUse';
import type { ClustersController } from '../../clusters';
import { ConnectController, transferNodes } from '../../connect/onUse';
import { CreateClusterAction } from '../../clusters/onUse';
import type { HostSeams } from '../../shared/hostSeams';
import { JobActions } from '../../jobs/onUse';
import { JobFollowers } from '../../jobs/onUse';
import { JobMetrics } from '../../jobs/onUse';
import { JobPull } from '../../jobs/onUse';
import { JobRunner } from '../../jobs/onUse';
import type { TerminalTap } from '../../jobs/onUse';
import { LocalCommandRunner } from '../../shared/onUse/localCommands';
import { PortActions } from '../../ports/onUse';
import { PortApps } from '../../ports/onUse';
import type { PortForwards } from '../../ports';
import type { Log } from '../../shared/log';
import { MetricsPanels } from '../../jobs/onUse';
import { GpuMonitors } from '../../gpu/onUse';
import type { GpuSampler, NodeTarget } from '../../gpu';
import type { Cluster } from '../../../model/cluster';
import type { ObjectStorageController } from '../../objectStorage';
import { ClusterFinder, CreatedInstances } from '../../clusters/onUse';
import { OperationFollower } from '../../shared/onUse/operationFollower';
import { CLUSTER_OP_MESSAGES } from '../../clusters/onUse';
import { VOLUME_OP_MESSAGES } from '../../volumes/onUse';
import { SshKeyActions } from '../../sshKeys/onUse';
import { SyncActions } from '../../sync/onUse';
import type { SyncStatus } from '../../sync';
import type { LocalKeySource } from '../../sshKeys';
import { StorageConfigController } from '../../objectStorage/onUse';
import type { Store } from '../../shared/store';
import { ObjectStorageActions } from '../../objectStorage/onUse';
import type { StoredState, WorkspaceState } from '../../shared/storedState';
import { VolumeActions } from '../../volumes/onUse';
import { VolumeAttach } from '../../volumes/onUse';
import type { Prompter } from '../../../wizards/prompter';
import type { Sections } from '../features';

/** The activation bundle's services the actions work with. */
/** For lazyActions.quickInputPrompter(): the real prompter lives in this bundle. */
export { QuickInputPrompter } from '../../shared/onUse/quickInputPrompter';
/** For lazyActions.gpuSessions(): how the GPU telemetry reaches a node and reads it (not needed before). */
export { nodeTargets, spawnSsh } from '../../gpu/onUse';
export { loopCommand, SmiLoopReader } from '../../../model/gpu/smiLoop';
export { IdleWatch } from '../../gpu/onUse';
/** For lazyActions.accountOnUse(): the account's dialogs (not needed before one is shown). */
export {
  offerDotenvFile,
  offerEnvToken,
  showRefusal,
  signIn,
  tellDotenvUntrusted,
  useOfferedToken,
} from '../../account/onUse';

export interface ActionDeps {
  readonly store: Store;
  readonly api: ApiService;
  readonly state: StoredState;
  readonly log: Log;
  /** The prompter in force: real quick inputs, or scripted answers in tests (read at each use). */
  readonly prompts: () => Prompter;
  readonly host: HostSeams;
  readonly clusters: ClustersController;
  /** Where disposables made here go (the extension context's subscriptions). */
  readonly subscriptions: { dispose(): unknown }[];
  /** The list sections' parts, by name (app/features.ts). */
  readonly sections: Sections;
  readonly localKeys: LocalKeySource;
  readonly storage: ObjectStorageController;
  readonly workspaceState: WorkspaceState;
  /** A job was started from a job file (the job files' lenses change). */
  readonly jobStarted?: () => void;
  /** Records what job terminals receive (the test API; undefined in production). */
  readonly terminalTap?: TerminalTap;
  /** The ports forwarded from nodes (activation bundle: the tree lists them, the window's end stops them). */
  readonly forwards: PortForwards;
  /** GPU telemetry (the monitor watches its nodes through it) and how to reach a cluster's nodes. */
  readonly gpu: { readonly sampler: GpuSampler; readonly targets: (c: Cluster) => NodeTarget[] };
  /** The running folder sync (the status bar, and the reasons a sync stops). */
  readonly sync: SyncStatus;
}

export interface Actions {
  /** Follows cluster and volume operations: made with the actions, since only they start operations. */
  readonly follower: OperationFollower;
  readonly clusters: ClusterActions;
  readonly create: CreateClusterAction;
  readonly connect: ConnectController;
  readonly sshKeys: SshKeyActions;
  readonly buckets: BucketActions;
  readonly storageConfig: StorageConfigController;
  readonly storage: ObjectStorageActions;
  readonly volumes: VolumeActions;
  readonly attach: VolumeAttach;
  readonly jobs: JobActions;
  readonly runJob: JobRunner;
  readonly pullJob: JobPull;
  /** Show Metrics' panels. */
  readonly metrics: MetricsPanels;
  readonly ports: PortActions;
  readonly portApps: PortApps;
  /** Show GPU Monitor's panels. */
  readonly gpuMonitors: GpuMonitors;
  /** Sync Folder to Node. */
  readonly sync: SyncActions;
}

export function createActions(d: ActionDeps): Actions {
  const { store, api, state, log, prompts, host } = d;
  const jobList = d.sections.jobs.controller;
  const keyList = d.sections.sshKeys.controller;
  const volumeList = d.sections.volumes.controller;
  const created = new CreatedInstances();
  const follower = new OperationFollower(store, api, log, {
    cluster: {
      words: CLUSTER_OP_MESSAGES,
      refresh: () => void d.clusters.refresh(),
      refreshIfVisible: () => d.clusters.refreshIfVisible(),
      onFinished: (op, outcomes) => {
        if (op.kind === 'destroy' && outcomes.every((o) => o.kind === 'completed')) {
          d.forwards.closeCluster(op.id, 'destroyed');
          void connect.removeHosts(op.id);
        }
      },
    },
    volume: {
      words: VOLUME_OP_MESSAGES,
      refresh: () => void volumeList.refresh(),
      refreshIfVisible: () => volumeList.refreshIfVisible(),
    },
  });
  d.subscriptions.push(follower);
  const finder = new ClusterFinder(d.clusters, store, api, log, prompts, created);
  const clusterDeps: ClusterCommandDeps = {
    api,
    clusters: d.clusters,
    follower,
    log,
    prompts,
    created,
    finder,
  };
  const connect = new ConnectController(api, state, log, prompts, host, finder);
  const volumes = new VolumeActions(volumeList, api, log, prompts, follower);
  const create = new CreateClusterAction(
    clusterDeps,
    { ...d.localKeys, saved: keyList.savedForWizard },
    (clusterId, answers) => {
      if (answers.key.kind === 'file') void connect.rememberIdentity(clusterId, answers.key.path);
    },
  );
  const jobMetrics = new JobMetrics(api, log);
  const metrics = new MetricsPanels(
    // dist/media beside this bundle (dist/actions.js): the chart pages' files (esbuild.mjs, copyChartMedia)
    vscode.Uri.file(path.join(__dirname, 'media')),
    jobMetrics,
    log,
    host,
  );
  const clusterActions = new ClusterActions(clusterDeps);
  const gpuMonitors = new GpuMonitors(
    vscode.Uri.file(path.join(__dirname, 'media')),
    d.gpu.sampler,
    d.gpu.targets,
    (arg) => clusterActions.resolveTarget(arg),
  );
  d.subscriptions.push(metrics, jobMetrics, gpuMonitors);
  const followers = new JobFollowers(api, jobList, log, d.terminalTap, jobMetrics);
  const commands = new LocalCommandRunner(host, d.workspaceState, log, prompts);
  d.subscriptions.push(commands);
  const nodesOf = async (clusterId: string) => {
    let cluster = d.clusters.clusters.find((c) => c.id === clusterId);
    if (!cluster?.instances.some((i) => i.ip)) {
      await d.clusters.refresh().catch(() => undefined);
      cluster = d.clusters.clusters.find((c) => c.id === clusterId);
    }
    return cluster ? transferNodes(cluster, state.get('tensorpool.identityFiles', {}), host.home(), log) : [];
  };
  const jobs = new JobActions(jobList, api, log, prompts, followers, metrics);
  const origins = new Map<string, string>();
  const ports = new PortActions({ api, state, log, prompts, host, finder, forwards: d.forwards });
  return {
    follower,
    clusters: clusterActions,
    create,
    connect,
    sshKeys: new SshKeyActions(keyList, api, log, prompts, d.localKeys),
    buckets: new BucketActions(store, api, prompts, log, () => d.storage.refresh()),
    storageConfig: new StorageConfigController(d.storage, api, state, log, prompts, host),
    storage: new ObjectStorageActions(d.storage, api, log, prompts),
    volumes,
    attach: new VolumeAttach(d.clusters, volumeList, volumes, api, prompts),
    jobs,
    runJob: new JobRunner({
      api,
      log,
      prompts,
      workspaceState: d.workspaceState,
      jobStarted: d.jobStarted,
      jobs: jobList,
      followers,
      commands,
      clusters: d.clusters,
      createCluster: () => create.create(),
      origins,
      transferNodes: nodesOf,
    }),
    pullJob: new JobPull(jobs, api, prompts, host, commands, followers, origins, nodesOf),
    metrics,
    ports,
    portApps: new PortApps(ports),
    gpuMonitors,
    sync: new SyncActions({
      status: d.sync,
      finder,
      prompts,
      state,
      workspaceState: d.workspaceState,
      host,
      log,
    }),
  };
}
