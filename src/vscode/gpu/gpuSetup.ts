/** The GPU telemetry's wiring: the sampler (made before the Clusters tree, which shows its figures) and
 *  what starts and stops it (the Clusters view's expanded clusters while the view is visible). */
import * as vscode from 'vscode';
import type { HostSeams } from '../hostSeams';
import type { Store } from '../store';
import type { StoredState } from '../storedState';
import type { ClusterNode } from '../views/clustersTree';
import { GpuSampler } from './gpuSampler';
import { nodeTargets, spawnSsh } from './nodeTargets';
import { ClustersViewWatch } from './treeWatch';

/** nvidia-smi's own default refresh for a watching human; the samples' resolution in the views. */
const VIEW_INTERVAL_MS = 2000;

export function makeGpuSampler(host: HostSeams): GpuSampler {
  return new GpuSampler({ spawn: (argv) => spawnSsh(argv, host.home()) });
}

export function watchClustersView(
  view: vscode.TreeView<ClusterNode>,
  deps: { store: Store; state: StoredState; host: HostSeams; sampler: GpuSampler },
): vscode.Disposable {
  const watch = new ClustersViewWatch(
    view,
    deps.store,
    deps.sampler,
    (cluster) => nodeTargets(cluster, deps.state.get('tensorpool.identityFiles', {}), deps.host.home()),
    () => VIEW_INTERVAL_MS,
  );
  return vscode.Disposable.from(watch, { dispose: () => deps.sampler.dispose() });
}
