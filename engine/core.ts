// The engine's mutable core: the domain state (replaced wholesale on reset), the request log and the
// fault store, plus the start-up options a reset returns to.

import { FaultStore } from './faults';
import { RequestLog } from './log';
import { applyDemoSeed } from './seed';
import type { RunningObjectStore } from './objectStore';
import type { NodeManager } from './nodes';
import type { JobRunner } from './jobRunner';
import { EngineState } from './state';
import type { EngineConfig, SeedName } from './types';

export interface CoreOptions {
  tokens: string[];
  readonlyTokens: string[];
  /** The configuration the engine started with; POST /_engine/reset returns to it. */
  config: EngineConfig;
  seed: SeedName;
  /** The S3 server the object-storage credentials point at (startEngine({ s3: true })). */
  objectStore?: RunningObjectStore;
  /** Real cluster nodes (engine/nodes.ts); without it, nodes have addresses nobody answers on. */
  nodes?: NodeManager;
  /** Jobs that really run on the nodes (engine/jobRunner.ts, `--real-jobs`). */
  jobs?: JobRunner;
}

export class EngineCore {
  state: EngineState;
  readonly log = new RequestLog();
  readonly faults = new FaultStore();

  constructor(readonly options: CoreOptions) {
    this.state = this.fresh(options.seed);
  }

  /** New state (optionally seeded), empty log, no faults, start-up config. */
  reset(seed: SeedName): void {
    this.options.objectStore?.reset();
    this.options.jobs?.killAll();
    void this.options.nodes?.stopAll();
    this.state = this.fresh(seed);
    this.log.clear();
    this.faults.clear();
  }

  /** Every token the engine knows; the log redacts all of them. */
  secrets(): string[] {
    return [...this.options.tokens, ...this.options.readonlyTokens];
  }

  private fresh(seed: SeedName): EngineState {
    const state = new EngineState({
      tokens: this.options.tokens,
      readonlyTokens: this.options.readonlyTokens,
      config: this.options.config,
      objectStore: this.options.objectStore,
      nodes: this.options.nodes?.enabled ? this.options.nodes : undefined,
    });
    if (seed === 'demo') applyDemoSeed(state, Date.now());
    return state;
  }
}
