/**
 * Composition root: the shared core, then each feature's setup (which registers its own views and the
 * commands it handles at activation, and reacts to sign-in/out and settings changes itself; the list
 * sections from their descriptors, features.ts), then every feature's table of commands whose work loads on
 * first use (actionCommands.ts). Only src/extension.ts imports this folder. Nothing here waits on the network.
 */
import * as vscode from 'vscode';
import { setL10nContents } from '../../model/l10nSlot';
import { setupAccount, AccountStatusBar } from '../account';
import { registerFeatureCommands } from './actionCommands';
import { setupClusters } from '../clusters';
import { createCore } from '../shared/extensionCore';
import { setupJobFiles, jobRunLenses } from '../jobFiles';
import { setupNotebooks } from '../notebooks';
import { accountOnUse, featureActions, gpuSessions, quickInputPrompter } from './lazyActions';
import { setupObjectStorage } from '../objectStorage';
import { recordRemoteFolder } from '../connect';
import { SyncStatus } from '../sync';
import {
  TerminalTapRecord,
  unlessProduction,
  enableTimingMarks,
  timingMarks,
  type ActivationTimings,
  type TestApi,
} from '../testing';
import { apiLoadTiming } from '../shared/lazyApi';
import { setRefreshTimeScale } from '../shared/listScope';
import { setupSections, type Sections } from './features';
import { openWalkthroughOnce, registerWalkthroughCommand } from '../shared/walkthrough';

/** Set by the first statement of dist/extension.js (esbuild.mjs banner; `end` by its last statement):
 *  when the bundle started and finished evaluating. Absent when this file is not run from the bundle. */
declare const __TP_LOAD__: { readonly start: number; readonly end?: number } | undefined;

/** What activate() returns outside production: the test API, with each list section under its name. */
export type TensorPoolExtensionApi = TestApi<Sections>;

/** The test surface outside production (see testing/testApi.ts); an installed extension returns nothing. */
export function activate(context: vscode.ExtensionContext): TensorPoolExtensionApi | undefined {
  const activateStart = performance.now();
  // The benchmarks' marks, outside production only (timingMarks.ts): the token read starts below.
  if (context.extensionMode !== vscode.ExtensionMode.Production) enableTimingMarks();
  // The display language's translations, for the code without vscode (src/model/l10n.ts).
  setL10nContents(vscode.l10n.bundle);
  const core = createCore(context, quickInputPrompter);
  const { store, api, state, log } = core;
  const account = setupAccount(core, accountOnUse);
  const sections = setupSections(core);
  const { sshKeys } = sections;
  const clusters = setupClusters(core, { account: account.account, volumes: sections.volumes, gpuSessions });
  // A login a node refused is tried again once the user's saved keys change (gpu/gpuSampler.ts).
  let keysSeen: string | undefined;
  core.own(
    sshKeys.controller.onDidChange(() => {
      const keys = sshKeys.controller.data?.keys?.map((k) => k.fingerprint ?? k.id ?? k.name).join();
      if (keys !== undefined && keys !== keysSeen) clusters.gpuSampler.keysChanged();
      keysSeen = keys ?? keysSeen;
    }),
  );
  const storage = setupObjectStorage(core);
  const statusBar = new AccountStatusBar(store, clusters.prices);
  const jobFiles = setupJobFiles(context, {
    prompts: core.prompts,
    signedIn: () => store.account.kind === 'signedIn',
    fetchTemplate: async () => (await (await api.client()).jobs.init()).template,
  });
  const terminalTap = core.production ? undefined : new TerminalTapRecord();
  // The running folder sync's status bar item (the sync loads on first use: sync/onUse/).
  const sync = new SyncStatus(clusters.controller, store, core.workspaceState);
  // The command actions (wizards, create/edit/destroy, connect…) load on the first such command.
  const features = { clusters, sections, storage, jobFiles, terminalTap, sync };
  const actions = featureActions(core, features);
  const notebooks = setupNotebooks(core, {
    clusters: clusters.controller,
    prices: clusters.prices,
    ports: async () => (await actions()).ports,
    syncActions: async () => (await actions()).sync,
    syncStatus: sync,
    gpu: { sampler: clusters.gpuSampler, targets: clusters.gpu.targets },
  });
  // Clusters gone from a complete list (destroyed elsewhere): their ssh host entries go (connect.ts).
  clusters.controller.onGone = (ids) =>
    void actions()
      .then((a) => a.connect.forgetClusters(ids))
      .catch((e: unknown) => log.warn(`Could not remove the SSH hosts of gone clusters: ${String(e)}`));
  core.own(
    jobFiles.addLenses(jobRunLenses(core.workspaceState)),
    statusBar,
    sync,
    registerWalkthroughCommand(),
    ...registerFeatureCommands(actions),
    log,
    store,
  );
  // In a Remote-SSH window on one of our nodes: remember its folder for the next "Open in New Window".
  recordRemoteFolder(state);
  // The Get Started walkthrough, on the first activation only (walkthrough.ts).
  setImmediate(() => void openWalkthroughOnce(state));

  const load = typeof __TP_LOAD__ === 'undefined' ? undefined : __TP_LOAD__;
  const activation: ActivationTimings = {
    moduleStart: load?.start,
    moduleEnd: load?.end,
    activateStart,
    activateEnd: 0,
    activatedAt: 0,
  };
  const shared = {
    apiLoad: apiLoadTiming,
    setRefreshTimeScale,
    marks: timingMarks,
    openWalkthroughOnce: () => openWalkthroughOnce(state),
  };
  const result = unlessProduction(context.extensionMode, vscode.ExtensionMode.Production, (surface) =>
    surface({ core, account, statusBar, actions, activation, shared, notebooks, ...features }),
  );
  // The API layer loads while the token is read.
  api.preload();
  activation.activateEnd = performance.now();
  activation.activatedAt = Date.now();
  return result;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
