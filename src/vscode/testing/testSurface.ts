/**
 * The test surface activate() returns outside production (testApi.ts says what each part is): built from
 * the features the composition root made. It is its own bundle, dist/testSurface.js (esbuild.mjs), loaded
 * only outside production and not packaged in the VSIX, so it takes the activation bundle's module state
 * (timing marks, the refresh time scale…) as arguments rather than importing a second copy of it.
 */
import type { SyncStatus } from '../sync';
import type { AccountFeature } from '../account';
import type { GpuMonitors } from '../gpu/onUse';
import type { MetricsPanels } from '../jobs/onUse';
import type { OperationFollower } from '../shared/onUse/operationFollower';
import type { ClustersFeature } from '../clusters';
import type { Core } from '../shared/extensionCore';
import type { JobsFeature } from '../jobs';
import type { ApiLoadTiming } from '../shared/lazyApi';
import type { ObjectStorageFeature } from '../objectStorage';
import type { SshKeysFeature } from '../sshKeys';
import type { AccountStatusBar } from '../account';
import type { TerminalTapRecord } from './terminalTap';
import type { ActivationTimings, TensorPoolExtensionApi } from './testApi';
import type { VolumesFeature } from '../volumes';

export interface SurfaceParts {
  core: Core;
  account: AccountFeature;
  clusters: ClustersFeature;
  sshKeys: SshKeysFeature;
  storage: ObjectStorageFeature;
  volumes: VolumesFeature;
  jobs: JobsFeature;
  statusBar: AccountStatusBar;
  terminalTap: TerminalTapRecord | undefined;
  sync: SyncStatus;
  /** The part of the actions (dist/actions.js, loaded on first use) the tests read. */
  actions: () => Promise<{ gpuMonitors: GpuMonitors; metrics: MetricsPanels; follower: OperationFollower }>;
  activation: ActivationTimings;
  /** Module state of the activation bundle. */
  shared: {
    apiLoad: () => ApiLoadTiming | undefined;
    setRefreshTimeScale: (scale: number) => void;
    marks: () => Record<string, number>;
    openWalkthroughOnce: () => Promise<boolean>;
  };
}

export function testSurface(p: SurfaceParts): TensorPoolExtensionApi {
  const { core, clusters } = p;
  return {
    store: core.store,
    views: {
      clusters: clusters.tree,
      objectStorage: p.storage.tree,
      sshKeys: p.sshKeys.tree,
      volumes: p.volumes.tree,
      jobs: p.jobs.tree,
    },
    refresh: () => clusters.controller.refresh(),
    setPrompter: (prompter) => core.setPrompter(prompter),
    testing: {
      statusBar: p.statusBar.item,
      authProvider: p.account.authProvider,
      logTail: core.log.tail,
      globalState: () => core.state.snapshot(),
      storedState: core.state,
      workspaceState: core.workspaceState,
      initializeAccount: () => p.account.account.initialize(),
      refreshObjectStorage: () => p.storage.controller.refresh(),
      sshKeys: p.sshKeys.controller,
      cliSetup: p.account.cliSetup,
      clusters: clusters.controller,
      volumes: p.volumes.controller,
      jobs: p.jobs.controller,
      terminalText: () => p.terminalTap?.text() ?? '',
      configure: (seams) => core.host.configure(seams),
      nextRefreshDelay: () => clusters.controller.nextDelay(),
      setRequestTimeout: (ms) => core.api.setRequestTimeout(ms),
      activation: p.activation,
      apiLoad: p.shared.apiLoad,
      contextKey: (key) => core.contextKeys.get(key),
      walkthrough: {
        forget: () => core.state.update('tensorpool.walkthroughOffered', undefined),
        openOnce: p.shared.openWalkthroughOnce,
      },
      marks: p.shared.marks,
      setRefreshTimeScale: p.shared.setRefreshTimeScale,
      sync: {
        state: () => p.sync.shown,
        text: () => p.sync.text,
        watching: () => p.sync.running?.watching,
        flushed: () => p.sync.running?.flushed() ?? Promise.resolve(),
        conflicts: () => p.sync.running?.conflicts,
        cancel: () => p.sync.running?.cancel(),
      },
      gpu: {
        sampler: clusters.gpuSampler,
        clustersView: clusters.view,
        restartIdleGuard: (t) => clusters.gpu.restartIdleGuard(t),
        targets: (c) => clusters.gpu.targets(c),
        setViewInterval: (ms) => clusters.gpu.setViewInterval(ms),
        monitor: async (key) => (await p.actions()).gpuMonitors.state(key),
      },
      metrics: async (jobId) => (await p.actions()).metrics.get(jobId),
      operationsItem: async () => (await p.actions()).follower.item,
    },
  };
}
