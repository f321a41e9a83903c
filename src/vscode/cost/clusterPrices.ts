/**
 * What the running things cost, from the service's prices only: each running cluster's hourly price
 * (GET /cluster/quote per instance type and node count, asked once per window for each, again after a
 * failure at a later refresh), the volumes' own `hourly_rate`, their sum (the burn rate) and the runway
 * the balance gives at that rate. A quote that fails or a route that is missing leaves that cluster
 * without a price: nothing is guessed, and with no price at all nothing price-related is shown.
 */
import * as vscode from 'vscode';
import { clusterPhase, type Cluster } from '../../model/cluster';
import { burnRate, runwayHours, type BurnRate } from '../../model/gpu/cost';
import type { Volume } from '../../model/volume';
import { PriceQuotes } from '../../model/priceQuotes';
import type { ApiService } from '../shared/apiService';
import type { Store } from '../shared/store';
import type { ClustersController } from '../clusters';

export interface Burn extends BurnRate {
  /** Hours the balance lasts at `perHour`; undefined without a balance or a burn. */
  readonly runwayHours: number | undefined;
}

const nodesOf = (c: Cluster) => c.numNodes ?? c.instances.length;

export class ClusterPrices implements vscode.Disposable {
  private readonly quotes: PriceQuotes<[string, number]>;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly list: ClustersController,
    private readonly store: Store,
    api: ApiService,
    private readonly volumes: () => readonly Volume[],
  ) {
    // No price for a choice is kept; a quote that failed is asked again at a later refresh (PriceQuotes).
    this.quotes = new PriceQuotes(async (type: string, nodes: number) => {
      const answer = await (await api.client()).clusterQuote(type, nodes);
      if (answer.kind === 'price') return answer.hourlyRate;
      if (answer.reason === 'failed') throw new Error(answer.detail);
      return undefined;
    });
    const changed = () => {
      this.askAll();
      this.emitter.fire(); // the running set or the balance changed
    };
    this.subscriptions = [
      list.onDidChange(changed),
      store.onDidChange((topic) => {
        if (topic === 'account') changed();
      }),
    ];
  }

  /** The running clusters in the list. */
  private running(): Cluster[] {
    return this.list.clusters.filter((c) => clusterPhase(c.status) === 'running');
  }

  private askAll(): void {
    if (this.store.account.kind !== 'signedIn') return;
    for (const c of this.running()) {
      if (!c.instanceType || !(nodesOf(c) > 0) || this.quotes.known(c.instanceType, nodesOf(c)) !== undefined)
        continue;
      void this.quotes.ask(c.instanceType, nodesOf(c)).then((rate) => {
        if (rate !== undefined) this.emitter.fire();
      });
    }
  }

  /** The volumes changed (their rates feed the burn). */
  volumesChanged(): void {
    this.emitter.fire();
  }

  /** A cluster's hourly price, when the service gave one. */
  hourly(c: Cluster): number | undefined {
    return c.instanceType ? this.quotes.known(c.instanceType, nodesOf(c)) : undefined;
  }

  /** The burn of every running cluster and every volume; undefined when nothing has a price. */
  burn(): Burn | undefined {
    const b = burnRate([
      ...this.running().map((c) => ({ hourlyRate: this.hourly(c) })),
      ...this.volumes().map((v) => ({ hourlyRate: v.hourlyRate })),
    ]);
    if (b.priced === 0) return undefined;
    const account = this.store.account;
    const balance = account.kind === 'signedIn' ? account.org?.balance : undefined;
    return { ...b, runwayHours: runwayHours(balance, b.perHour) };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.emitter.dispose();
  }
}
