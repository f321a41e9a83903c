/**
 * Jobs: the list (single-flight refresh, last good answer kept on error, Mine / Organisation), refreshed
 * automatically only while the Jobs view is visible, fast while a job is not terminal. Text-only answers
 * keep the service's text and the jobs read from it. Acting on jobs is in jobActions.ts (lazy bundle).
 */
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError } from '../api/errors';
import { isTerminalJobState, type Job } from '../model/job';
import type { ApiService } from './apiService';
import { RefreshTimer, ScopedList } from './listScope';
import type { Log } from './log';
import { FAST_REFRESH_MS } from './refreshScheduler';
import { readSettings } from './settings';
import type { Store } from './store';
import type { StoredState } from './storedState';

export interface JobData {
  /** Undefined when the server answered with text only. */
  readonly jobs: readonly Job[] | undefined;
  readonly message: string | undefined;
  /** With a text-only answer: the jobs read from its table. */
  readonly textJobs?: readonly Job[];
  readonly includeOrg: boolean;
}

export class JobsController extends ScopedList implements vscode.Disposable {
  data: JobData | undefined;
  loading = false;
  error: { readonly message: string; readonly kind: string } | undefined;
  private readonly timer = new RefreshTimer(
    () => this.nextDelay(),
    () => void this.refresh(),
  );
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  /** Whether the Jobs view is visible (set by the composition root). */
  isVisible: () => boolean = () => false;

  constructor(
    private readonly store: Store,
    private readonly api: ApiService,
    state: StoredState,
    private readonly log: Log,
  ) {
    super(state, 'tensorpool.jobsIncludeOrg');
  }

  get jobs(): readonly Job[] {
    return this.data?.jobs ?? this.data?.textJobs ?? [];
  }

  find(jobId: string): Job | undefined {
    return this.jobs.find((j) => j.id === jobId);
  }

  private changed(): void {
    this.emitter.fire();
    this.reschedule();
  }

  clear(): void {
    this.data = undefined;
    this.error = undefined;
    this.loading = false;
    this.changed();
  }

  protected async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') return;
    const includeOrg = this.includeOrg;
    this.loading = true;
    this.emitter.fire();
    try {
      const client = await this.api.client();
      const listing = await client.jobs.list({ includeOrg });
      this.data = { jobs: listing.jobs, message: listing.message, textJobs: listing.textJobs, includeOrg };
      this.error = undefined;
    } catch (e) {
      this.error = { message: errorMessage(e), kind: isTensorPoolError(e) ? e.kind : 'unknown' };
      this.log.warn(`Job list failed: ${this.error.message}`);
    } finally {
      this.loading = false;
      this.changed();
    }
  }

  /** When the next automatic refresh happens, or undefined when none should (view hidden, signed out). */
  nextDelay(): number | undefined {
    if (!this.isVisible() || this.store.account.kind !== 'signedIn') return undefined;
    const busy = this.jobs.some((j) => !isTerminalJobState(j.status));
    return busy ? FAST_REFRESH_MS : readSettings().refreshIntervalSeconds * 1000;
  }

  reschedule(): void {
    this.timer.reschedule();
  }

  /** Refresh now when the view is visible (after an action changed a job). */
  refreshIfVisible(): void {
    if (this.isVisible()) void this.refresh();
  }

  dispose(): void {
    this.timer.stop();
    this.emitter.dispose();
  }
}
