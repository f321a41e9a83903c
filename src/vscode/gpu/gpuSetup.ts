/** The GPU telemetry's wiring: the sampler (made before the Clusters tree, which shows its figures), what
 *  starts and stops it (the Clusters view's expanded clusters while the view is visible) and the idle guard. */
import type * as vscode from 'vscode';
import type { Cluster } from '../../model/cluster';
import type { Prompter } from '../../wizards/prompter';
import type { HostSeams } from '../shared/hostSeams';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import type { ClusterNode, ClustersController } from '../clusters';
import { GpuSampler, type NodeTarget } from './gpuSampler';
import type { IdleWatch, IdleWatchTiming } from './onUse/idleWatch';
import { clusterPhase } from '../../model/cluster';
import { ClustersViewWatch } from './treeWatch';
import type * as GpuOnUse from './onUse';
import type * as SmiLoop from '../../model/gpu/smiLoop';

/** nvidia-smi's own default refresh for a watching human; the samples' resolution in the views. */
const VIEW_INTERVAL_MS = 2000;

/** The session side of the telemetry (ssh argv, spawn, the nvidia-smi loop and its reader) and the idle
 *  guard: this folder's onUse/ code, in dist/actions.js, which the composition root loads on first use
 *  (app/lazyActions.ts, gpuSessions) and hands in. */
export type GpuSessions = Pick<typeof GpuOnUse, 'nodeTargets' | 'spawnSsh' | 'IdleWatch'> &
  Pick<typeof SmiLoop, 'loopCommand' | 'SmiLoopReader'>;

/** The sampler's bookkeeping lives in the activation bundle; how it reaches and reads a node comes from
 *  the sessions, loaded on the first watch. */
export function makeGpuSampler(host: HostSeams, sessions: () => GpuSessions): GpuSampler {
  return new GpuSampler({
    spawn: (argv) => sessions().spawnSsh(argv, host.home()),
    command: (ms) => sessions().loopCommand(ms / 1000),
    reader: (now) => new (sessions().SmiLoopReader)(now),
  });
}

export interface GpuFeature extends vscode.Disposable {
  /** Replace the idle guard with one on other timing (tests: a shortened period); returns it. */
  restartIdleGuard(timing?: IdleWatchTiming): IdleWatch;
  /** How to reach a running cluster's nodes (the monitor's sessions). */
  readonly targets: (cluster: Cluster) => NodeTarget[];
  /** The Clusters view's sampling interval for the next watch (tests: shorter; 0 = the default). */
  setViewInterval(ms: number): void;
}

export function setupGpu(
  view: vscode.TreeView<ClusterNode>,
  deps: {
    list: ClustersController;
    store: Store;
    state: StoredState;
    host: HostSeams;
    sampler: GpuSampler;
    hourly: (c: Cluster) => number | undefined;
    prompts: () => Prompter;
    sessions: () => GpuSessions;
  },
): GpuFeature {
  const gpuSessions = deps.sessions;
  const targets = (cluster: Cluster) =>
    gpuSessions().nodeTargets(cluster, deps.state.get('tensorpool.identityFiles', {}), deps.host.home());
  let viewIntervalMs = VIEW_INTERVAL_MS;
  const watch = new ClustersViewWatch(view, deps.list, deps.sampler, targets, () => viewIntervalMs);
  // The idle guard (dist/actions.js) is made when a running cluster first shows in the list: until then it
  // would have nothing to watch, and activation does not load it.
  const guard = (timing?: IdleWatchTiming) =>
    new (gpuSessions().IdleWatch)(
      deps.list,
      deps.store,
      deps.state,
      deps.sampler,
      targets,
      deps.hourly,
      deps.prompts,
      timing,
    );
  let idle: IdleWatch | undefined;
  const running = () => deps.list.clusters.some((c) => clusterPhase(c.status) === 'running');
  const waiting = deps.list.onDidChange(() => {
    if (idle || !running()) return;
    waiting.dispose();
    idle = guard();
  });
  return {
    targets,
    setViewInterval: (ms) => (viewIntervalMs = ms > 0 ? ms : VIEW_INTERVAL_MS),
    restartIdleGuard: (timing) => {
      waiting.dispose();
      idle?.dispose();
      return (idle = guard(timing));
    },
    dispose: () => {
      waiting.dispose();
      idle?.dispose();
      watch.dispose();
      deps.sampler.dispose();
    },
  };
}
