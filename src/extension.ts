/**
 * Composition root: builds the services, registers the commands and disposables, starts the
 * background token check. What happens on sign-in/out and settings changes is in vscode/session.ts;
 * nothing here waits on the network.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SecretRegistry } from './api/redact';
import { setL10nContents } from './model/l10nSlot';
import type { Prompter } from './wizards/prompter';
import { AccountController } from './vscode/account';
import { registerActionCommands } from './vscode/actionCommands';
import { ApiService } from './vscode/apiService';
import { TensorPoolAuthProvider } from './vscode/authProvider';
import { CliSetup } from './vscode/cliSetup';
import { ClustersController } from './vscode/clusters';
import { Commands } from './vscode/commands';
import { ContextKeys } from './vscode/contextKeys';
import { HostSeams } from './vscode/hostSeams';
import { LISTING_URI, ListingDocumentProvider } from './vscode/listingDocument';
import { ObjectStorageController } from './vscode/objectStorage';
import { setupObjectBrowser } from './vscode/objectBrowserSetup';
import { Log } from './vscode/log';
import { PortForwards } from './vscode/portForwards';
import { RefreshScheduler, setRefreshTimeScale } from './vscode/refreshScheduler';
import { recordRemoteFolder } from './vscode/remoteFolder';
import { lazyActions, quickInputPrompter } from './vscode/lazyActions';
import { apiLoadTiming } from './vscode/lazyApi';
import { enableTimingMarks, timingMarks } from './vscode/timingMarks';
import { Session } from './vscode/session';
import { SshKeysController } from './vscode/sshKeys';
import { AccountStatusBar } from './vscode/statusBar';
import { Store } from './vscode/store';
import { StoredState, WorkspaceState } from './vscode/storedState';
import { openWalkthrough, openWalkthroughOnce } from './vscode/walkthrough';
import { setupJobs } from './vscode/jobsSetup';
import { TerminalTapRecord } from './vscode/terminalTap';
import { unlessProduction, type ActivationTimings, type TensorPoolExtensionApi } from './vscode/testApi';
import { ClustersTreeProvider } from './vscode/views/clustersTree';
import { makeGpuSampler, setupGpu } from './vscode/gpu/gpuSetup';
import { ClusterPrices } from './vscode/cost/clusterPrices';
import type { VolumesFeature } from './vscode/volumesSetup';
import { showBurnInView } from './vscode/cost/burnText';
import { ObjectStorageTreeProvider } from './vscode/views/objectStorageTree';
import { SshKeysTreeProvider } from './vscode/views/sshKeysTree';
import { setupVolumes } from './vscode/volumesSetup';
import { jobRunLenses } from './vscode/jobFileLenses';
import { setupJobFiles } from './vscode/jobFileSetup';
import { configWriters } from './vscode/lazyConfig';

export type { ActivationTimings, TensorPoolExtensionApi } from './vscode/testApi';

/** Set by the first statement of dist/extension.js (esbuild.mjs banner; `end` by its last statement):
 *  when the bundle started and finished evaluating. Absent when this file is not run from the bundle. */
declare const __TP_LOAD__: { readonly start: number; readonly end?: number } | undefined;

/** The test surface outside production (see vscode/testApi.ts); an installed extension returns nothing. */
export function activate(context: vscode.ExtensionContext): TensorPoolExtensionApi | undefined {
  const activateStart = performance.now();
  // The benchmarks' marks, outside production only (timingMarks.ts): the token read starts below.
  if (context.extensionMode !== vscode.ExtensionMode.Production) enableTimingMarks();
  // The display language's translations, for the code without vscode (src/model/l10n.ts).
  setL10nContents(vscode.l10n.bundle);
  const secrets = new SecretRegistry();
  const log = new Log(secrets);
  const store = new Store();
  const state = new StoredState(context.globalState);
  const host = new HostSeams();
  const extensionVersion = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const api: ApiService = new ApiService({
    extensionVersion,
    secrets,
    log,
    getToken: () => account.getToken(),
    onUnauthorized: () => account.handleUnauthorized(),
  });
  // The real prompter comes with dist/actions.js, on the first prompt; tests may set scripted ones.
  let realPrompter: Prompter | undefined;
  let prompter: Prompter | undefined;
  const prompts = (): Prompter => prompter ?? (realPrompter ??= quickInputPrompter());
  const cliSetup = new CliSetup(api, state, log, extensionVersion, prompts, host);
  const account = new AccountController(
    context.secrets,
    store,
    api,
    secrets,
    log,
    cliSetup,
    // The stored token's GET /me is going out: the last session's clusters show meanwhile, and with the
    // Clusters view showing, the list is asked for alongside.
    (current) => {
      clusters.showLastSession();
      if (treeView.visible) clusters.prefetch(current);
    },
  );
  // Read the stored token now (a SecretStorage read: the window answers it while the rest of activate() runs)
  // and, once activation returned, check it against /health and /me.
  void account.initialize();
  const clusters = new ClustersController(store, api, state, log);
  // Ports forwarded from nodes: listed under their node, and stopped when the window closes.
  const forwards = new PortForwards(store, log);
  const gpuSampler = makeGpuSampler(host);
  const made: { volumes?: VolumesFeature } = {};
  // The volumes feature is made below; its list feeds the burn rate once it exists.
  const prices = new ClusterPrices(store, api, () => (made.volumes ? made.volumes.controller.volumes : []));
  const tree = new ClustersTreeProvider(
    store,
    (clusterId) => volumes.attachedTo(clusterId),
    () => account.tokenRead,
    { gpu: gpuSampler, hourly: (c) => prices.hourly(c), forwards },
  );
  const treeView = vscode.window.createTreeView('tensorpool.clusters', {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  const gpu = setupGpu(treeView, {
    store,
    state,
    host,
    sampler: gpuSampler,
    hourly: (c) => prices.hourly(c),
    prompts,
  });
  // The seam's home (a test's scratch folder), as for the ssh config.
  const sshDir = () => path.join(host.home(), '.ssh');
  const localKeys = {
    list: () => configWriters().readPublicKeys(sshDir()),
    generate: () => configWriters().generateEd25519Key(sshDir()),
  };
  const sshKeys = new SshKeysController(store, api, state, log);
  const sshKeysTree = new SshKeysTreeProvider(store, (k) => sshKeys.isMine(k));
  const sshKeysView = vscode.window.createTreeView('tensorpool.sshKeys', { treeDataProvider: sshKeysTree });
  const storage = new ObjectStorageController(store, api, context.secrets, secrets, log);
  const objects = setupObjectBrowser(context, { storage, log, prompts });
  const storageTree = new ObjectStorageTreeProvider(store, objects.hooks);
  const storageView = vscode.window.createTreeView('tensorpool.objectStorage', {
    treeDataProvider: storageTree,
    dragAndDropController: objects.dragAndDrop,
  });
  const scheduler = new RefreshScheduler(store, clusters, () => treeView.visible);
  const statusBar = new AccountStatusBar(store, prices);
  const authProvider = new TensorPoolAuthProvider(account, store);
  const listing = new ListingDocumentProvider(store);
  const contextKeys = new ContextKeys((key, value) =>
    vscode.commands.executeCommand('setContext', key, value),
  );
  const volumes = setupVolumes(context, {
    store,
    api,
    log,
    state,
    contextKeys,
    onVolumesChanged: () => {
      tree.refreshView();
      prices.volumesChanged();
    },
  });
  made.volumes = volumes;
  const burnView = showBurnInView(treeView, prices);
  const jobs = setupJobs(context, { store, api, log, state, contextKeys });
  const workspaceState = new WorkspaceState(context.workspaceState);
  const terminalTap =
    context.extensionMode === vscode.ExtensionMode.Production ? undefined : new TerminalTapRecord();
  // The command actions (wizards, create/edit/destroy, connect…) load on the first such command.
  const actions = lazyActions({
    store,
    api,
    state,
    log,
    prompts,
    host,
    clusters,
    refreshClustersIfVisible: () => session.refreshClustersIfVisible(),
    subscriptions: context.subscriptions,
    sshKeys,
    localKeys,
    storage,
    volumes: volumes.controller,
    refreshClusters: () => clusters.refresh(),
    workspaceState,
    jobStarted: () => jobFiles.refreshLenses(),
    jobs: jobs.controller,
    terminalTap: terminalTap?.record,
    forwards,
    gpu: { sampler: gpuSampler, targets: gpu.targets },
  });
  const jobFiles = setupJobFiles(context, {
    prompts,
    signedIn: () => store.account.kind === 'signedIn',
    fetchTemplate: async () => (await (await api.client()).jobs.init()).template,
  });
  context.subscriptions.push(jobFiles.addLenses(jobRunLenses(workspaceState)));
  const session = new Session({
    store,
    api,
    account,
    clusters,
    storage,
    scheduler,
    contextKeys,
    clustersView: treeView,
    storageView,
    sshKeys,
    sshKeysView,
  });
  const command = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);

  context.subscriptions.push(
    forwards,
    log,
    store,
    account,
    tree,
    treeView,
    gpu,
    prices,
    burnView,
    scheduler,
    listing,
    storage,
    storageTree,
    storageView,
    sshKeysTree,
    sshKeysView,
    statusBar,
    authProvider,
    session,
    vscode.workspace.registerTextDocumentContentProvider('tensorpool', listing),
    command(Commands.signIn, (arg?: { token?: string }) => account.signIn(arg)),
    command(Commands.signOut, () => account.signOut()),
    command(Commands.retryAccountCheck, () => account.check()),
    command(Commands.refresh, () => clusters.refresh()),
    command(Commands.showLog, () => log.channel.show()),
    command(Commands.openWalkthrough, () => openWalkthrough(false)),
    command(Commands.showListingText, async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(LISTING_URI), {
        preview: true,
      });
    }),
    command(Commands.showOperations, () => actions().then((a) => a.follower.showOperations())),
    command(Commands.showMine, () => session.setIncludeOrg(false)),
    command(Commands.showOrganization, () => session.setIncludeOrg(true)),
    command(Commands.refreshObjectStorage, () => storage.refresh()),
    command(Commands.refreshSshKeys, () => sshKeys.refresh()),
    command(Commands.showSshKeysMine, () => session.setSshKeysIncludeOrg(false)),
    command(Commands.showSshKeysOrganization, () => session.setSshKeysIncludeOrg(true)),
    command(Commands.showSshKeysText, () => sshKeys.showText()),
    ...registerActionCommands(actions),
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
  const result = unlessProduction(
    context.extensionMode,
    vscode.ExtensionMode.Production,
    (): TensorPoolExtensionApi => ({
      store,
      views: {
        clusters: tree,
        objectStorage: storageTree,
        sshKeys: sshKeysTree,
        volumes: volumes.tree,
        jobs: jobs.tree,
      },
      refresh: () => clusters.refresh(),
      setPrompter: (p) => {
        prompter = p;
      },
      testing: {
        statusBar: statusBar.item,
        authProvider,
        logTail: log.tail,
        globalState: () => state.snapshot(),
        initializeAccount: () => account.initialize(),
        refreshObjectStorage: () => storage.refresh(),
        sshKeys,
        cliSetup,
        volumes: volumes.controller,
        jobs: jobs.controller,
        terminalText: () => terminalTap?.text() ?? '',
        configure: (seams) => host.configure(seams),
        nextRefreshDelay: () => scheduler.nextDelay(),
        activation,
        apiLoad: apiLoadTiming,
        contextKey: (key) => contextKeys.get(key),
        walkthrough: {
          forget: () => state.update('tensorpool.walkthroughOffered', undefined),
          openOnce: () => openWalkthroughOnce(state),
        },
        marks: timingMarks,
        setRefreshTimeScale,
        gpu: {
          sampler: gpuSampler,
          clustersView: treeView,
          restartIdleGuard: (t) => gpu.restartIdleGuard(t),
          targets: (c) => gpu.targets(c),
          monitor: async (key) => (await actions()).gpuMonitors.state(key),
        },
        metrics: async (jobId) => (await actions()).metrics.get(jobId),
      },
    }),
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
