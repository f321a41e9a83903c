/**
 * Wiring of the Clusters section (called once by the composition root): its list and view (createListView,
 * like every other section: refresh, Mine / Organisation, the text-only answer's document, refresh on
 * sign-in and when shown), the tree with the nodes' GPU telemetry, attached volumes and forwarded ports,
 * the prices and burn rate, the idle guard, the last session's rows at startup, and the walkthrough's
 * context key. The commands that act on a cluster (create, destroy, connect, forward…) load with the other
 * actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import type { AccountController } from '../account';
import { ClustersController } from './clusters';
import { Commands } from '../shared/commands';
import { showBurnInView } from '../cost';
import { ClusterPrices } from '../cost';
import type { Core } from '../shared/extensionCore';
import { makeGpuSampler, setupGpu, type GpuFeature } from '../gpu';
import type { GpuSampler, GpuSessions } from '../gpu';
import { createListView } from '../shared/listViewSetup';
import { PortForwards } from '../ports';
import { ClustersTreeProvider, type ClusterNode } from './clustersTree';
import type { VolumesFeature } from '../volumes';

export interface ClustersFeature {
  readonly controller: ClustersController;
  readonly tree: ClustersTreeProvider;
  readonly view: vscode.TreeView<ClusterNode>;
  readonly prices: ClusterPrices;
  /** Ports forwarded from nodes: listed under their node, stopped when the window closes. */
  readonly forwards: PortForwards;
  readonly gpuSampler: GpuSampler;
  readonly gpu: GpuFeature;
}

export function setupClusters(
  core: Core,
  deps: { account: AccountController; volumes: VolumesFeature; gpuSessions: () => GpuSessions },
): ClustersFeature {
  const { store, api, state, log, host } = core;
  const controller = new ClustersController(store, api, state, log);
  const forwards = new PortForwards(controller, store, log);
  const gpuSampler = makeGpuSampler(host, deps.gpuSessions);
  const prices = new ClusterPrices(controller, store, api, () => deps.volumes.controller.volumes);
  const tree = new ClustersTreeProvider(
    controller,
    store,
    (clusterId) => deps.volumes.attachedTo(clusterId),
    () => deps.account.tokenRead,
    { gpu: gpuSampler, hourly: (c) => prices.hourly(c), forwards },
  );
  const view = createListView(core, 'tensorpool.clusters', controller, tree, {
    commands: [Commands.refresh, Commands.showMine, Commands.showOrganization, Commands.showListingText],
    textDocument: vscode.l10n.t('Cluster list.txt'),
    showCollapseAll: true,
  });
  const gpu = setupGpu(view, {
    list: controller,
    store,
    state,
    host,
    sampler: gpuSampler,
    hourly: (c) => prices.hourly(c),
    prompts: core.prompts,
    sessions: deps.gpuSessions,
  });
  core.own(
    forwards,
    // The stored token's GET /me is going out: the last session's clusters show meanwhile, and with the
    // Clusters view showing, the list is asked for alongside.
    deps.account.onCheckStarting((current) => {
      controller.showLastSession();
      if (view.visible) controller.prefetch(current);
    }),
    controller.onDidChange(() => {
      const data = controller.data;
      if (data) core.contextKeys.set('tensorpool.hasClusters', controller.clusters.length > 0);
      const message = data?.lastSession ? vscode.l10n.t('From your last session; updating…') : undefined;
      if (view.message !== message) view.message = message;
    }),
    deps.volumes.controller.onDidChange(() => {
      tree.refreshView();
      prices.volumesChanged();
    }),
    gpu,
    prices,
    showBurnInView(view, prices),
  );
  return { controller, tree, view, prices, forwards, gpuSampler, gpu };
}
