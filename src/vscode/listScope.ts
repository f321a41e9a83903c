/**
 * Small pieces the list controllers share: a single-flight load (a refresh joins the one under
 * way instead of starting a second request), the Mine / Organisation scope kept in globalState, and
 * the automatic-refresh timer.
 */
import type { StoredState } from './storedState';

/** Runs `load` at most once at a time; callers during a run get the same promise. */
export class SingleFlight {
  private inflight: Promise<void> | undefined;

  constructor(private readonly load: () => Promise<void>) {}

  run(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }
}

type ScopeKey = 'tensorpool.includeOrg' | 'tensorpool.sshKeysIncludeOrg' | 'tensorpool.volumesIncludeOrg';

/** A list's scope (only mine, or the whole organisation) and its single-flight refresh. */
export class ListScope {
  private readonly flight: SingleFlight;

  constructor(
    private readonly state: StoredState,
    private readonly key: ScopeKey,
    load: () => Promise<void>,
  ) {
    this.flight = new SingleFlight(load);
  }

  get includeOrg(): boolean {
    return this.state.get(this.key, false);
  }

  /** Remember the scope, then refresh the list. */
  async setIncludeOrg(value: boolean): Promise<void> {
    await this.state.update(this.key, value);
    await this.refresh();
  }

  /** Refresh now; joins a refresh already under way instead of starting a second one. */
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
