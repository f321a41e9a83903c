/**
 * Wiring of the Clusters section (called once by the composition root): its controller and refresh
 * schedule, the tree with the nodes' GPU telemetry, attached volumes and forwarded ports, the prices and
 * burn rate, the idle guard, the text listing of a text-only answer, and the section's own commands. The
 * commands that act on a cluster (create, destroy, connect, forward…) load with the other actions
 * (actionCommands.ts).
 */
import * as vscode from 'vscode';
import type { AccountController } from '../account';
import { ClustersController } from './clusters';
import { Commands } from '../shared/commands';
import { showBurnInView } from '../cost';
import { ClusterPrices } from '../cost';
import type { Core } from '../shared/extensionCore';
import { makeGpuSampler, setupGpu, type GpuFeature } from '../gpu';
import type { GpuSampler } from '../gpu';
import { LISTING_URI, ListingDocumentProvider } from './listingDocument';
import { PortForwards } from '../ports';
import { RefreshScheduler } from './refreshScheduler';
import { ClustersTreeProvider, type ClusterNode } from './clustersTree';
import type { VolumesFeature } from '../volumes';

export interface ClustersFeature {
  readonly controller: ClustersController;
  readonly tree: ClustersTreeProvider;
  readonly view: vscode.TreeView<ClusterNode>;
  readonly scheduler: RefreshScheduler;
  readonly prices: ClusterPrices;
  /** Ports forwarded from nodes: listed under their node, stopped when the window closes. */
  readonly forwards: PortForwards;
  readonly gpuSampler: GpuSampler;
  readonly gpu: GpuFeature;
}

export function setupClusters(
  core: Core,
  deps: { account: AccountController; volumes: VolumesFeature },
): ClustersFeature {
  const { store, api, state, log, host } = core;
  const controller = new ClustersController(store, api, state, log);
  const forwards = new PortForwards(store, log);
  const gpuSampler = makeGpuSampler(host);
  const prices = new ClusterPrices(store, api, () => deps.volumes.controller.volumes);
  const tree = new ClustersTreeProvider(
    store,
    (clusterId) => deps.volumes.attachedTo(clusterId),
    () => deps.account.tokenRead,
    { gpu: gpuSampler, hourly: (c) => prices.hourly(c), forwards },
  );
  const view = vscode.window.createTreeView('tensorpool.clusters', {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  const gpu = setupGpu(view, {
    store,
    state,
    host,
    sampler: gpuSampler,
    hourly: (c) => prices.hourly(c),
    prompts: core.prompts,
  });
  const scheduler = new RefreshScheduler(store, controller, () => view.visible);
  const listing = new ListingDocumentProvider(store);
  core.own(
    forwards,
    // The stored token's GET /me is going out: the last session's clusters show meanwhile, and with the
    // Clusters view showing, the list is asked for alongside.
    deps.account.onCheckStarting((current) => {
      controller.showLastSession();
      if (view.visible) controller.prefetch(current);
    }),
    deps.volumes.controller.onDidChange(() => {
      tree.refreshView();
      prices.volumesChanged();
    }),
    tree,
    view,
    gpu,
    prices,
    showBurnInView(view, prices),
    scheduler,
    listing,
    vscode.workspace.registerTextDocumentContentProvider('tensorpool', listing),
    vscode.commands.registerCommand(Commands.refresh, () => controller.refresh()),
    vscode.commands.registerCommand(Commands.showListingText, async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(LISTING_URI), {
        preview: true,
      });
    }),
  );
  return { controller, tree, view, scheduler, prices, forwards, gpuSampler, gpu };
}
