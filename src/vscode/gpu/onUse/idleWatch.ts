/**
 * The idle guard: when every GPU of a running cluster of the user's own has stayed under the threshold
 * for the period while observed, one notification names the cluster, how long it has been idle and its
 * hourly price, with Destroy… (the normal destroy command: its protection rule and typed confirmation),
 * Keep, and Don't Ask for This Cluster. It never destroys by itself.
 *
 * To observe while no view is open it asks the sampler for its clusters' nodes at a low rate (one block
 * per node every 5 minutes over the one session); when a view watches faster, the guard reads the same
 * samples. The decisions are the pure state machine of model/gpu/idleGuard.ts: only observed time counts
 * (a gap longer than a few low-rate intervals ends an idle run), and the state lives in this window only,
 * so time the window was closed never counts. Switched off by tensorpool.idleGuard.enabled.
 */
import * as vscode from 'vscode';
import { clusterPhase, type Cluster } from '../../../model/cluster';
import { allIdle, dontAsk, EMPTY_IDLE_GUARD, formatHourly, forget, observe } from '../../../model/gpu';
import type { IdleGuardState } from '../../../model/gpu';
import { clusterLabel } from '../../../model/labels';
import type { Prompter } from '../../../wizards/prompter';
import { readSettings } from '../../shared/settings';
import type { Store } from '../../shared/store';
import type { ClustersController } from '../../clusters';
import type { StoredState } from '../../shared/storedState';
import type { GpuSampler, NodeTarget } from '../gpuSampler';

const WATCHER = 'idleGuard';

export interface IdleWatchTiming {
  /** The guard's own sampling interval (production: 5 minutes per node). */
  readonly sampleMs: number;
  /** Overrides the period setting (tests). */
  readonly periodMs?: number;
}

const PRODUCTION: IdleWatchTiming = { sampleMs: 300_000 };

export class IdleWatch implements vscode.Disposable {
  private state: IdleGuardState = EMPTY_IDLE_GUARD;
  private readonly subscriptions: vscode.Disposable[];
  /** Clusters whose notification is open (one at a time per cluster). */
  private readonly asking = new Set<string>();
  /** Notifications shown (tests). */
  shown = 0;
  /** When each own running cluster was first seen; the guard samples it one interval later (a cluster
   *  that lives a few minutes, or a window open briefly, costs no connection). */
  private readonly firstSeen = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly list: ClustersController,
    private readonly store: Store,
    private readonly stored: StoredState,
    private readonly sampler: GpuSampler,
    private readonly targets: (cluster: Cluster) => NodeTarget[],
    private readonly hourly: (cluster: Cluster) => number | undefined,
    private readonly prompts: () => Prompter,
    private readonly timing: IdleWatchTiming = PRODUCTION,
  ) {
    const samples = sampler.onDidChange((ids) => this.observeNodes(ids));
    this.subscriptions = [
      { dispose: () => samples.dispose() },
      list.onDidChange(() => this.update()),
      store.onDidChange((topic) => {
        if (topic === 'account') this.update();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('tensorpool.idleGuard')) this.update();
      }),
    ];
    this.update();
  }

  /** The running clusters of the user's own scope. */
  private own(): Cluster[] {
    const data = this.list.data;
    const account = this.store.account;
    if (!data || account.kind !== 'signedIn') return [];
    const mine = (c: Cluster) =>
      !data.includeOrg || !c.owner || c.owner === account.label || c.owner === account.id;
    return this.list.clusters.filter((c) => clusterPhase(c.status) === 'running' && mine(c));
  }

  /** Sample the own running clusters' nodes at the guard's rate while enabled; forget clusters that went. */
  update(): void {
    const own = this.own();
    const ids = new Set(own.map((c) => c.id));
    for (const id of Object.keys(this.state.clusters)) if (!ids.has(id)) this.state = forget(this.state, id);
    for (const id of this.firstSeen.keys()) if (!ids.has(id)) this.firstSeen.delete(id);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!readSettings().idleGuard.enabled) {
      this.sampler.unwatch(WATCHER);
      return;
    }
    const now = Date.now();
    for (const c of own) if (!this.firstSeen.has(c.id)) this.firstSeen.set(c.id, now);
    const due = own.filter((c) => now - this.firstSeen.get(c.id)! >= this.timing.sampleMs);
    if (due.length < own.length) this.timer = setTimeout(() => this.update(), this.timing.sampleMs);
    this.sampler.watch(
      WATCHER,
      due.flatMap((c) => this.targets(c)),
      this.timing.sampleMs,
    );
  }

  private observeNodes(instanceIds: readonly string[]): void {
    const settings = readSettings().idleGuard;
    if (!settings.enabled) return;
    const ids = new Set(instanceIds);
    for (const c of this.own()) {
      if (!c.instances.some((i) => ids.has(i.id))) continue;
      const states = c.instances.map((i) => this.sampler.get(i.id));
      // Every node answered with fresh figures, or this is no observation (its time is a gap).
      const known = states.every((t) => t?.state?.kind === 'ok' && !t.stale && !t.unreachable);
      const idle = known
        ? states.every(
            (t) => t?.state?.kind === 'ok' && allIdle(t.state.sample.gpus, settings.thresholdPercent),
          )
        : undefined;
      const periodMs = this.timing.periodMs ?? settings.periodMinutes * 60_000;
      const result = observe(
        { ...this.state, dontAsk: this.stored.get('tensorpool.idleGuardDontAsk', []) },
        c.id,
        { time: Date.now(), idle },
        { periodMs, maxGapMs: 3 * this.timing.sampleMs },
      );
      this.state = result.state;
      if (result.notify) void this.ask(c, result.notify.idleMs).catch(() => undefined);
    }
  }

  private async ask(c: Cluster, idleMs: number): Promise<void> {
    if (this.asking.has(c.id)) return;
    this.asking.add(c.id);
    this.shown++;
    const minutes = Math.max(1, Math.round(idleMs / 60_000));
    const rate = this.hourly(c);
    const destroy = vscode.l10n.t('Destroy…');
    const keep = vscode.l10n.t('Keep');
    const never = vscode.l10n.t("Don't Ask for This Cluster");
    try {
      const answer = await this.prompts().confirm({
        message:
          rate === undefined
            ? vscode.l10n.t('Every GPU of {0} has been idle for {1} min.', clusterLabel(c), minutes)
            : vscode.l10n.t(
                'Every GPU of {0} has been idle for {1} min. It costs {2}.',
                clusterLabel(c),
                minutes,
                formatHourly(rate),
              ),
        actions: [destroy, keep, never],
        modal: false,
        severity: 'info',
      });
      if (answer === destroy) await vscode.commands.executeCommand('tensorpool.destroyCluster', c.id);
      else if (answer === never) {
        const list = this.stored.get('tensorpool.idleGuardDontAsk', []);
        await this.stored.update('tensorpool.idleGuardDontAsk', [...new Set([...list, c.id])]);
        this.state = dontAsk(this.state, c.id);
      }
      // Keep (or closing the notification): quiet until the cluster has been busy again (observe()).
    } finally {
      this.asking.delete(c.id);
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.sampler.unwatch(WATCHER);
    for (const s of this.subscriptions) s.dispose();
  }
}
