/**
 * Small pieces the list controllers share: a single-flight load (never two requests at once; a
 * refresh asked for during one gets one more after it), the Mine / Organisation scope kept in globalState, and
 * the automatic-refresh timer with its delays (tensorpool.refreshInterval; 5 s while something changes).
 */
import { readSettings } from './settings';
import type { SectionScopeKey, StoredState } from './storedState';

const FAST_REFRESH_MS = 5000;

let timeScale = 1;

/** The soak benchmark's accelerated time (test API, outside production): every delay divided by `scale`. */
export function setRefreshTimeScale(scale: number): void {
  timeScale = scale > 0 ? scale : 1;
}

/** The delay before the next automatic refresh of a visible list: fast while something is in transition. */
export function refreshDelay(busy: boolean): number {
  return (busy ? FAST_REFRESH_MS : readSettings().refreshIntervalSeconds * 1000) / timeScale;
}

/**
 * Runs `load` at most once at a time. A call while a load is under way gets one more load after it
 * (shared by every such caller): the one under way may have read the list before the change the caller
 * is asking about (a destroy that just finished), so joining it could hand back a stale list.
 */
export class SingleFlight {
  private inflight: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly load: () => Promise<void>) {}

  run(): Promise<void> {
    if (!this.inflight) return this.start();
    this.next ??= this.inflight
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }
}

/** The Clusters view's scope key, or a list section's (`tensorpool.<section>IncludeOrg`). */
export type ScopeKey = 'tensorpool.includeOrg' | SectionScopeKey;

/** A list controller: its scope (only mine, or the whole organisation) and single-flight refresh. */
export abstract class ScopedList {
  private readonly flight = new SingleFlight(() => this.load());

  constructor(
    private readonly scopeState: StoredState,
    /** Where the scope is kept, also the context key the view's Mine / Organisation menus read. */
    readonly scopeKey: ScopeKey,
  ) {}

  get includeOrg(): boolean {
    return this.scopeState.get(this.scopeKey, false);
  }

  /** Remember the scope, then refresh the list. */
  async setIncludeOrg(value: boolean): Promise<void> {
    await this.scopeState.update(this.scopeKey, value);
    await this.refresh();
  }

  /** Load the list (nothing while signed out). */
  protected abstract load(): Promise<void>;

  /** Refresh now; never two requests at once (a call during one gets one more after it). */
  refresh(): Promise<void> {
    return this.flight.run();
  }
}

/** One pending automatic refresh at a time, re-armed from `nextDelay` (undefined: none). */
export class RefreshTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly nextDelay: () => number | undefined,
    private readonly fire: () => void,
  ) {}

  reschedule(): void {
    this.stop();
    const delay = this.nextDelay();
    if (delay === undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, delay);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
