/**
 * What activate() returns outside production (notes/CONTRACTS.md, "Extension test API"): the store, the
 * views' data, and read-only views and seams for the integration tests and benchmarks. An installed
 * (production) extension returns nothing, so it exposes no hooks.
 */
import type { SyncState } from '../sync';
import type { Notebooks } from '../notebooks/onUse';
import type { ContextKey, ContextKeyTypes } from '../shared/contextKeys';
import type * as vscode from 'vscode';
import type { Prompter } from '../../wizards/prompter';
import type { HostSeamValues } from '../shared/hostSeams';
import type { ApiLoadTiming } from '../shared/lazyApi';
import { enableTimingMarks } from './timingMarks';
import type { Store } from '../shared/store';
import type { StoredState, WorkspaceState } from '../shared/storedState';
import type { ClusterNode } from '../clusters';
import type { GpuSampler, NodeTarget } from '../gpu';
import type { Cluster } from '../../model/cluster';
import type { IdleWatch, IdleWatchTiming } from '../gpu/onUse';
import type { GpuMonitorState } from '../gpu/onUse';
import type { StorageNode } from '../objectStorage';
import type { CliSetup } from '../account';
import type { ClustersController } from '../clusters';
import type { MetricsPanelHandle } from '../jobs/onUse';
import type { SectionParts } from '../shared/listSection';
import type * as TestSurfaceModule from './testSurface';

/** Activation timings for the benchmarks (test/bench): performance.now() in ms; activatedAt is Date.now(). */
export interface ActivationTimings {
  readonly moduleStart: number | undefined;
  readonly moduleEnd: number | undefined;
  readonly activateStart: number;
  activateEnd: number;
  /** Wall-clock time when activate() returned, to compare with the engine's request log. */
  activatedAt: number;
}

/** The list sections' parts by name (app/features.ts): what the test API shows of each. */
export type SectionMap = { readonly [name: string]: SectionParts };

/** The test API with the list sections `S`: each one's tree under `views.<name>`, its list (data, loading,
 *  error, refresh, scope) under `testing.<name>`. The composition root names `S` (TensorPoolExtensionApi). */
export type TestApi<S extends SectionMap> = BaseTestApi & {
  readonly views: { readonly [K in keyof S]: vscode.TreeDataProvider<RowOf<S[K]['tree']>> };
  readonly testing: { readonly [K in keyof S]: S[K]['controller'] };
};

/** The row type a tree draws. */
type RowOf<T> = T extends { getTreeItem(row: infer R): unknown } ? R : never;

interface BaseTestApi {
  readonly store: Store;
  readonly views: {
    readonly clusters: vscode.TreeDataProvider<ClusterNode>;
    readonly objectStorage: vscode.TreeDataProvider<StorageNode>;
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
    /** The typed globalState the extension reads and writes (the stored-state tests write through it). */
    readonly storedState: StoredState;
    /** The typed workspaceState (a test starts from a workspace where no command was allowed for good). */
    readonly workspaceState: WorkspaceState;
    /** Run the startup token check again (what activation does in the background). */
    initializeAccount(): Promise<void>;
    refreshObjectStorage(): Promise<void>;
    /** The command-line setup (health check, `.env` offer). */
    readonly cliSetup: CliSetup;
    /** The cluster list (data, loading, error, refresh, scope) as the Clusters view shows it. */
    readonly clusters: ClustersController;
    /** The status-bar item of the followed cluster and volume operations (loads the actions). */
    operationsItem(): Promise<vscode.StatusBarItem>;
    /** The text job terminals received (bounded: the most recent part only). */
    terminalText(): string;
    /**
     * Replace the host seams (home folder, environment, window opener, Remote-SSH check, Workspace Trust,
     * workspace folders); the ones not given are the real ones again, so `{}` restores all.
     */
    configure(seams: Partial<HostSeamValues>): void;
    nextRefreshDelay(): number | undefined;
    /** When the bundle was evaluated and activate() ran. */
    readonly activation: ActivationTimings;
    /** How long loading the API layer took; undefined until the first request needed it. */
    apiLoad(): ApiLoadTiming | undefined;
    /** A context key as last set (some complete walkthrough steps). */
    contextKey<K extends ContextKey>(key: K): ContextKeyTypes[K];
    /** The walkthrough's first-run opening: forget it was offered, or run it as activation does. */
    readonly walkthrough: { forget(): Thenable<void>; openOnce(): Promise<boolean> };
    /** First-occurrence wall-clock marks (ms since the epoch) on the way to the first tree (timingMarks.ts). */
    marks(): Record<string, number>;
    /** How long each API request attempt waits for its answer (undefined = the 30 s default). */
    setRequestTimeout(ms: number | undefined): void;
    /** The soak benchmark's accelerated time: automatic refresh delays divided by `scale` (1 = real time). */
    setRefreshTimeScale(scale: number): void;
    /** Notebooks on nodes: the kernel entries and sessions (loads dist/notebooks.js). */
    notebooks(): Notebooks;
    /** Sync Folder to Node: what the status bar shows, whether the sync watches, and waiting for it. */
    readonly sync: {
      state(): SyncState | undefined;
      /** The status bar item's text (undefined without a sync). */
      text(): string | undefined;
      watching(): boolean | undefined;
      /** Resolves once the running sync has nothing queued or running (at once without one). */
      flushed(): Promise<void>;
      /** How many files changed on both sides wait for the user's choice. */
      conflicts(): number | undefined;
      /** What the first sync's Cancel does: the running transfer ends, the sync stays ("cancelled"). */
      cancel(): void;
    };
    /** GPU telemetry: the sampler (its counters and running sessions) and the Clusters view to expand. */
    readonly gpu: {
      readonly sampler: GpuSampler;
      readonly clustersView: vscode.TreeView<ClusterNode>;
      /** A new idle guard on test timing (its constructor's seam); the old one is disposed. */
      restartIdleGuard(timing?: IdleWatchTiming): IdleWatch;
      /** How the telemetry reaches a running cluster's nodes (the bench's sessions use the same argv). */
      targets(cluster: Cluster): NodeTarget[];
      /** The Clusters view's sampling interval from the next watch on (0 = the default 2 s). */
      setViewInterval(ms: number): void;
      /** The GPU monitor of a cluster id (or `clusterId/instanceId`), undefined when none is open. */
      monitor(key: string): Promise<GpuMonitorState | undefined>;
    };
    /** Show Metrics' panel of a job (undefined when none is open): state() is what it holds and what the
     *  page drew; export() is Export CSV as its button does (the save dialog: host seam `saveDialog`). */
    metrics(jobId: string): Promise<MetricsPanelHandle | undefined>;
  };
}

/**
 * `build()` with the test surface's builder (dist/testSurface.js) unless the extension runs in production
 * mode (an installed extension), else undefined; outside production it also turns the benchmarks' timing
 * marks on (timingMarks.ts).
 * The harnesses load the extension with --extensionDevelopmentPath (Development or Test mode).
 */
export function unlessProduction<T>(
  mode: vscode.ExtensionMode,
  production: vscode.ExtensionMode,
  build: (surface: typeof TestSurfaceModule.testSurface) => T,
): T | undefined {
  if (mode === production) return undefined;
  enableTimingMarks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- dist/testSurface.js, see esbuild.mjs
  const m = require('./testSurface.js') as typeof TestSurfaceModule;
  return build(m.testSurface);
}
