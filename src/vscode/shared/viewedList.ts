/**
 * The list model of every sidebar list (clusters, volumes, jobs, SSH keys): the last good answer kept on
 * error, a loading flag, one error shape, one change event for the tree, Mine / Organisation and
 * single-flight refresh (ScopedList), and automatic refresh only while the view is visible, fast while
 * something in the list is still changing. listViewSetup.ts wires it to its view: when it refreshes on a
 * sign-in or on showing, when it is cleared, its scope commands and its text-only answer's document.
 */
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError } from '../../api/errors';
import type { ApiService } from './apiService';
import { RefreshTimer, refreshDelay, ScopedList, type ScopeKey } from './listScope';
import type { Log } from './log';
import type { Store } from './store';
import type { StoredState } from './storedState';

export type ApiClient = Awaited<ReturnType<ApiService['client']>>;

export abstract class ViewedList<D> extends ScopedList implements vscode.Disposable {
  data: D | undefined;
  loading = false;
  error: { readonly message: string; readonly kind: string } | undefined;
  private readonly timer = new RefreshTimer(
    () => this.nextDelay(),
    () => void this.refresh(),
  );
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  /** Whether the view is visible (set by createListView). */
  isVisible: () => boolean = () => false;

  constructor(
    protected readonly store: Store,
    protected readonly api: ApiService,
    state: StoredState,
    scopeKey: ScopeKey,
    protected readonly log: Log,
    /** What the log calls the list when it fails ("Job list failed: …"). */
    private readonly noun: string,
  ) {
    super(state, scopeKey);
  }

  /** One GET of the list in this scope. */
  protected abstract fetch(client: ApiClient, includeOrg: boolean): Promise<D>;

  /** Something is still changing: refresh fast. */
  protected abstract busy(): boolean;

  protected changed(): void {
    this.emitter.fire();
    this.reschedule();
  }

  clear(): void {
    this.data = undefined;
    this.error = undefined;
    this.loading = false;
    this.changed();
  }

  /** A new sign-in (not the same account's organisation details arriving): load what a visible view shows. */
  signedIn(): void {
    this.refreshIfVisible();
  }

  /** Signed out: nothing of the account stays shown. */
  signedOut(): void {
    this.clear();
  }

  protected async load(): Promise<void> {
    if (this.store.account.kind !== 'signedIn') return;
    this.loading = true;
    this.emitter.fire();
    try {
      this.data = await this.fetch(await this.api.client(), this.includeOrg);
      this.error = undefined;
    } catch (e) {
      this.error = { message: errorMessage(e), kind: isTensorPoolError(e) ? e.kind : 'unknown' };
      this.log.warn(`${this.noun} list failed: ${this.error.message}`);
    } finally {
      this.loading = false;
      this.changed();
    }
  }

  /** When the next automatic refresh happens, or undefined when none should (view hidden, signed out). */
  nextDelay(): number | undefined {
    if (!this.isVisible() || this.store.account.kind !== 'signedIn') return undefined;
    return refreshDelay(this.busy());
  }

  reschedule(): void {
    this.timer.reschedule();
  }

  /** Refresh now when the view is visible (after an action changed something in the list). */
  refreshIfVisible(): void {
    if (this.isVisible()) void this.refresh();
  }

  dispose(): void {
    this.timer.stop();
    this.emitter.dispose();
  }
}
