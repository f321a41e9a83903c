/**
 * Composition root: wires the services, registers disposables, starts the background token check.
 * No logic lives here, and nothing here waits on the network.
 */
import * as vscode from 'vscode';
import { SecretRegistry } from './api/redact';
import type { Prompter } from './wizards/prompter';
import { AccountController } from './vscode/account';
import { ApiService } from './vscode/apiService';
import { TensorPoolAuthProvider } from './vscode/authProvider';
import { ClusterActions } from './vscode/clusterActions';
import { ClustersController } from './vscode/clusters';
import { Commands } from './vscode/commands';
import { ConnectController, generateEd25519Key, readLocalKeys } from './vscode/connect';
import { LISTING_URI, ListingDocumentProvider } from './vscode/listingDocument';
import { ObjectStorageController } from './vscode/objectStorage';
import { Log } from './vscode/log';
import { QuickInputPrompter } from './vscode/quickInputPrompter';
import { RefreshScheduler } from './vscode/refreshScheduler';
import { StorageConfigController } from './vscode/storageConfig';
import { RequestFollower } from './vscode/requestFollower';
import { apiLoadTiming, type ApiLoadTiming } from './vscode/lazyApi';
import { affectsApi } from './vscode/settings';
import { AccountStatusBar } from './vscode/statusBar';
import { Store } from './vscode/store';
import { ClustersTreeProvider, type ClusterNode } from './vscode/views/clustersTree';
import { ObjectStorageTreeProvider, type StorageNode } from './vscode/views/objectStorageTree';
import type { VolumeNode } from './vscode/views/volumesTree';
import type { VolumesController } from './vscode/volumes';
import { setupVolumes } from './vscode/volumesSetup';

/** Set by the first statement of dist/extension.js (esbuild.mjs banner; `end` by its last statement):
 *  when the bundle started and finished evaluating. Absent when this file is not run from the bundle. */
declare const __TP_LOAD__: { readonly start: number; readonly end?: number } | undefined;

/** Activation timings for the benchmarks (test/bench): performance.now() in ms; activatedAt is Date.now(). */
export interface ActivationTimings {
  readonly moduleStart: number | undefined;
  readonly moduleEnd: number | undefined;
  readonly activateStart: number;
  activateEnd: number;
  /** Wall-clock time when activate() returned, to compare with the engine's request log. */
  activatedAt: number;
}

/** What activate() returns: used by the integration tests, and stable enough for other extensions. */
export interface TensorPoolExtensionApi {
  readonly store: Store;
  readonly views: {
    readonly clusters: vscode.TreeDataProvider<ClusterNode>;
    readonly objectStorage: vscode.TreeDataProvider<StorageNode>;
    readonly volumes: vscode.TreeDataProvider<VolumeNode>;
  };
  refresh(): Promise<void>;
  /** Replace the prompter the wizards use (tests script their answers); undefined restores the real one. */
  setPrompter(prompter: Prompter | undefined): void;
  /** Read-only views for the integration tests; none of them holds a secret. */
  readonly testing: {
    readonly statusBar: vscode.StatusBarItem;
    readonly authProvider: vscode.AuthenticationProvider;
    readonly logTail: readonly string[];
    globalState(): Record<string, unknown>;
    /** Run the startup token check again (what activation does in the background). */
    initializeAccount(): Promise<void>;
    refreshObjectStorage(): Promise<void>;
    readonly connect: ConnectController;
    readonly storageConfig: StorageConfigController;
    /** Storage volumes: list, operations being followed, refresh. */
    readonly volumes: VolumesController;
    nextRefreshDelay(): number | undefined;
    /** When the bundle was evaluated and activate() ran. */
    readonly activation: ActivationTimings;
    /** How long loading the API layer took; undefined until the first request needed it. */
    apiLoad(): ApiLoadTiming | undefined;
  };
}

export function activate(context: vscode.ExtensionContext): TensorPoolExtensionApi {
  const activateStart = performance.now();
  const secrets = new SecretRegistry();
  const log = new Log(secrets);
  const store = new Store();
  const api: ApiService = new ApiService({
    extensionVersion: (context.extension.packageJSON as { version?: string }).version ?? '0.0.0',
    secrets,
    log,
    getToken: () => account.getToken(),
    onUnauthorized: () => account.handleUnauthorized(),
  });
  const account = new AccountController(context.secrets, context.globalState, store, api, secrets, log);
  const clusters = new ClustersController(store, api, context.globalState, log);
  let treeVisible = () => false;
  const realPrompter = new QuickInputPrompter();
  let prompter: Prompter = realPrompter;
  const prompts = () => prompter;
  const connect = new ConnectController(store, api, context.globalState, log, prompts);
  const follower = new RequestFollower(
    store,
    api,
    clusters,
    log,
    () => {
      if (treeVisible()) void clusters.refresh();
    },
    (r, outcome) => {
      if (r.kind === 'destroy' && outcome.kind === 'completed') void connect.removeHosts(r.clusterId);
    },
  );
  const actions = new ClusterActions(
    store,
    api,
    clusters,
    follower,
    log,
    prompts,
    { list: readLocalKeys, generate: generateEd25519Key },
    (clusterId, state) => {
      if (state.key.kind === 'file') void connect.rememberIdentity(clusterId, state.key.path);
    },
  );
  const storage = new ObjectStorageController(store, api, context.secrets, secrets, log, prompts);
  const storageConfig = new StorageConfigController(storage, api, context.globalState, log, prompts);
  const storageTree = new ObjectStorageTreeProvider(store);
  const storageView = vscode.window.createTreeView('tensorpool.objectStorage', {
    treeDataProvider: storageTree,
  });
  const tree = new ClustersTreeProvider(store, (clusterId) => volumes.attachedTo(clusterId));
  const treeView = vscode.window.createTreeView('tensorpool.clusters', {
    treeDataProvider: tree,
    showCollapseAll: true,
  });
  treeVisible = () => treeView.visible;
  const volumes = setupVolumes(context, {
    store,
    api,
    log,
    prompts,
    refreshClusters: () => clusters.refresh(),
    onVolumesChanged: () => tree.refreshView(),
  });
  const scheduler = new RefreshScheduler(store, clusters, treeVisible);
  const statusBar = new AccountStatusBar(store);
  const authProvider = new TensorPoolAuthProvider(account, store);
  const listing = new ListingDocumentProvider(store);
  const setContext = (key: string, value: unknown) =>
    void vscode.commands.executeCommand('setContext', key, value);
  const command = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);

  context.subscriptions.push(
    log,
    store,
    account,
    follower,
    tree,
    treeView,
    scheduler,
    listing,
    storage,
    storageTree,
    storageView,
    statusBar,
    authProvider,
    vscode.workspace.registerTextDocumentContentProvider('tensorpool', listing),
    command(Commands.signIn, (arg?: { token?: string }) => account.signIn(arg)),
    command(Commands.signOut, () => account.signOut()),
    command(Commands.retryAccountCheck, () => account.check()),
    command(Commands.refresh, () => clusters.refresh()),
    command(Commands.showLog, () => log.channel.show()),
    command(Commands.showListingText, async () => {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(LISTING_URI), {
        preview: true,
      });
    }),
    command(Commands.createCluster, () => actions.create()),
    command(Commands.editCluster, (arg?: unknown) => actions.edit(arg)),
    command(Commands.destroyCluster, (arg?: unknown) => actions.destroy(arg)),
    command(Commands.copyClusterId, (arg?: unknown) => actions.copyId(arg)),
    command(Commands.copyIp, (arg?: unknown) => actions.copyIp(arg)),
    command(Commands.copySshCommand, (arg?: unknown) => connect.copySshCommand(arg)),
    command(Commands.showOperations, () => follower.showOperations()),
    command(Commands.showMine, () =>
      clusters.setIncludeOrg(false).then(() => setContext('tensorpool.includeOrg', false)),
    ),
    command(Commands.showOrganization, () =>
      clusters.setIncludeOrg(true).then(() => setContext('tensorpool.includeOrg', true)),
    ),
    command(Commands.refreshObjectStorage, () => storage.refresh()),
    command(Commands.enableObjectStorage, () => storage.enable()),
    command(Commands.disableObjectStorage, () => storage.disable()),
    command(Commands.rotateObjectStorageKeys, () => storage.rotate(() => storageConfig.afterRotation())),
    command(Commands.configureAws, () => storageConfig.configureAws()),
    command(Commands.configureRclone, () => storageConfig.configureRclone()),
    command(Commands.copyStorageEnvironment, () => storageConfig.copyEnvironment()),
    command(Commands.showObjectStorageCredentials, () => storage.showDetails()),
    command(Commands.copyStorageEndpoint, () => storage.copy('endpoint')),
    command(Commands.copyStorageRegion, () => storage.copy('region')),
    command(Commands.copyStorageAccessKeyId, () => storage.copy('access_key_id')),
    command(Commands.copyStorageSecretKey, () => storage.copySecret()),
    command(Commands.copyStorageValue, (node?: StorageNode) => {
      if (node?.kind !== 'field') return undefined;
      if (node.field === 'secret') return storage.copySecret();
      if (node.field === 'endpoint' || node.field === 'region' || node.field === 'access_key_id')
        return storage.copy(node.field);
      return vscode.env.clipboard.writeText(node.value);
    }),
    command(Commands.openInRemoteSsh, (arg?: unknown) => connect.openRemote(arg)),
    command(Commands.openSshTerminal, (arg?: unknown) => connect.openTerminal(arg)),
    command(Commands.createBucket, () => storage.createBucket()),
    command(Commands.deleteBucket, (node?: StorageNode | string) =>
      storage.deleteBucket(
        typeof node === 'string' ? node : node?.kind === 'bucket' ? node.bucket : undefined,
      ),
    ),
    store.onDidChange((topic) => {
      if (topic === 'objectStorage') setContext('tensorpool.objectStorage', store.objectStorage.kind);
      if (topic !== 'account') return;
      setContext('tensorpool.account', store.account.kind);
      if (store.account.kind === 'signedIn') {
        if (treeView.visible) void clusters.refresh();
        if (storageView.visible) void storage.refresh();
      } else if (store.account.kind === 'signedOut') {
        clusters.clear();
        storage.clear();
      }
    }),
    storageView.onDidChangeVisibility((e) => {
      if (e.visible && account.signedIn) void storage.refresh();
    }),
    treeView.onDidChangeVisibility((e) => {
      if (e.visible && account.signedIn) void clusters.refresh();
      else scheduler.reschedule();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tensorpool.refreshInterval')) scheduler.reschedule();
      if (!affectsApi(e)) return;
      api.reset();
      void account.check();
    }),
  );
  setContext('tensorpool.account', store.account.kind);
  setContext('tensorpool.includeOrg', clusters.includeOrg);

  // In a Remote-SSH window on one of our nodes: remember its folder for the next "Open in New Window".
  connect.recordRemoteFolder();

  // In the background, after activation returns: read the token and check it against /me.
  setImmediate(() => void account.initialize());

  const load = typeof __TP_LOAD__ === 'undefined' ? undefined : __TP_LOAD__;
  const activation: ActivationTimings = {
    moduleStart: load?.start,
    moduleEnd: load?.end,
    activateStart,
    activateEnd: 0,
    activatedAt: 0,
  };
  const result: TensorPoolExtensionApi = {
    store,
    views: { clusters: tree, objectStorage: storageTree, volumes: volumes.tree },
    refresh: () => clusters.refresh(),
    setPrompter: (p) => {
      prompter = p ?? realPrompter;
    },
    testing: {
      statusBar: statusBar.item,
      authProvider,
      logTail: log.tail,
      globalState: () =>
        Object.fromEntries(context.globalState.keys().map((k) => [k, context.globalState.get(k)])),
      initializeAccount: () => account.initialize(),
      refreshObjectStorage: () => storage.refresh(),
      connect,
      storageConfig,
      volumes: volumes.controller,
      nextRefreshDelay: () => scheduler.nextDelay(),
      activation,
      apiLoad: apiLoadTiming,
    },
  };
  activation.activateEnd = performance.now();
  activation.activatedAt = Date.now();
  return result;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
