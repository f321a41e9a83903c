/**
 * The test surface activate() returns outside production (testApi.ts says what each part is): built from
 * the features the composition root made. It is its own bundle, dist/testSurface.js (esbuild.mjs), loaded
 * only outside production and not packaged in the VSIX, so it takes the activation bundle's module state
 * (timing marks, the refresh time scale…) as arguments rather than importing a second copy of it.
 */
import type { SyncStatus } from '../sync';
import type { Notebooks } from '../notebooks/onUse';
import type { AccountFeature } from '../account';
import type { GpuMonitors } from '../gpu/onUse';
import type { MetricsPanels } from '../jobs/onUse';
import type { OperationFollower } from '../shared/onUse/operationFollower';
import type { ClustersFeature } from '../clusters';
import type { Core } from '../shared/extensionCore';
import type { ApiLoadTiming } from '../shared/lazyApi';
import type { ObjectStorageFeature } from '../objectStorage';
import type { AccountStatusBar } from '../account';
import type { TerminalTapRecord } from './terminalTap';
import type { ActivationTimings, SectionMap, TestApi } from './testApi';

export interface SurfaceParts<S extends SectionMap> {
  core: Core;
  account: AccountFeature;
  clusters: ClustersFeature;
  /** The list sections' parts, by name (app/features.ts). */
  sections: S;
  storage: ObjectStorageFeature;
  statusBar: AccountStatusBar;
  terminalTap: TerminalTapRecord | undefined;
  sync: SyncStatus;
  /** Notebooks on nodes (loads dist/notebooks.js). */
  notebooks: () => Notebooks;
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

export function testSurface<S extends SectionMap>(p: SurfaceParts<S>): TestApi<S> {
  const { core, clusters } = p;
  const each = <T>(part: 'tree' | 'controller') =>
    Object.fromEntries(Object.entries(p.sections).map(([name, s]) => [name, s[part]])) as T;
  return {
    store: core.store,
    views: {
      ...each<TestApi<S>['views']>('tree'),
      clusters: clusters.tree,
      objectStorage: p.storage.tree,
    },
    refresh: () => clusters.controller.refresh(),
    setPrompter: (prompter) => core.setPrompter(prompter),
    testing: {
      ...each<TestApi<S>['testing']>('controller'),
      statusBar: p.statusBar.item,
      authProvider: p.account.authProvider,
      logTail: core.log.tail,
      globalState: () => core.state.snapshot(),
      storedState: core.state,
      workspaceState: core.workspaceState,
      initializeAccount: () => p.account.account.initialize(),
      refreshObjectStorage: () => p.storage.controller.refresh(),
      cliSetup: p.account.cliSetup,
      clusters: clusters.controller,
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
      notebooks: () => p.notebooks(),
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
