/**
 * The ports forwarded from nodes to this machine: each is one `ssh -N -L` child process of the extension
 * host, registered here by tunnels.ts (dist/actions.js, which starts it) and tracked until it ends. This part
 * is in the activation bundle because the Clusters tree lists the forwards under their node and the window's
 * end must reach them: a tunnel ends when the user stops it, when its cluster or node leaves the list (or its
 * cluster is being destroyed), when the user signs out (the rows that show it go with the list), and when the
 * window closes (dispose kills every child).
 */
import type { ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import type { Log } from '../shared/log';
import type { Store } from '../shared/store';
import type { Cluster } from '../../model/cluster';

/** What the forwards need of the cluster list (the Clusters section's controller is one): the clusters as
 *  last listed, whether those are the last session's, and when they change. */
export interface ClusterLookup {
  readonly onDidChange: vscode.Event<unknown>;
  /** Undefined before the first answer; `lastSession` set while the rows are the last session's. */
  readonly data: { readonly lastSession?: unknown } | undefined;
  readonly clusters: readonly Cluster[];
}

export type ForwardState = 'starting' | 'up' | 'dropped';

export interface Forward {
  readonly id: string;
  readonly clusterId: string;
  readonly instanceId: string;
  /** 1-based node number and the cluster's label, for messages. */
  readonly node: number;
  readonly clusterName: string;
  readonly remote: number;
  readonly local: number;
  /** What runs there, when known (TensorBoard, Jupyter). */
  readonly label?: string;
  /** The argv that made the tunnel (no secret in it), for Reconnect. */
  readonly argv: readonly string[];
  state: ForwardState;
}

export interface ForwardSpec extends Omit<Forward, 'id' | 'state'> {
  /** The path the browser opens (Jupyter's carries its token: kept in memory only, never shown or stored). */
  readonly openPath?: string;
}

export class PortForwards implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly forwards = new Map<string, Forward>();
  private readonly children = new Map<string, ChildProcess>();
  private readonly paths = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[];
  private next = 1;

  constructor(
    private readonly list: ClusterLookup,
    private readonly store: Store,
    readonly log: Log,
  ) {
    this.subscriptions = [
      list.onDidChange(() => this.closeGone()),
      store.onDidChange((topic) => {
        if (topic === 'operations') this.closeGone();
        if (topic === 'account' && store.account.kind === 'signedOut') this.closeAll();
      }),
    ];
  }

  all(): readonly Forward[] {
    return [...this.forwards.values()];
  }

  get(id: string): Forward | undefined {
    return this.forwards.get(id);
  }

  forNode(clusterId: string, instanceId: string): readonly Forward[] {
    return this.all().filter((f) => f.clusterId === clusterId && f.instanceId === instanceId);
  }

  /** What of the forwards shows on the cluster's rows (the tree's change signature). */
  signature(clusterId: string): string {
    return this.all()
      .filter((f) => f.clusterId === clusterId)
      .map((f) => `${f.id}:${f.instanceId}:${f.local}:${f.remote}:${f.state}`)
      .join(',');
  }

  openPath(f: Forward): string {
    return this.paths.get(f.id) ?? '/';
  }

  /** Track a tunnel's ssh from now on (it is `starting` until setState says otherwise). */
  add(spec: ForwardSpec, child: ChildProcess): Forward {
    const { openPath, ...rest } = spec;
    const forward: Forward = { ...rest, id: `fwd-${this.next++}`, state: 'starting' };
    if (openPath) this.paths.set(forward.id, openPath);
    this.forwards.set(forward.id, forward);
    this.children.set(forward.id, child);
    this.emitter.fire();
    return forward;
  }

  /** Still tracked (not stopped or closed)? */
  has(id: string): boolean {
    return this.forwards.has(id);
  }

  setState(id: string, state: ForwardState): void {
    const f = this.forwards.get(id);
    if (!f || f.state === state) return;
    f.state = state;
    if (state === 'dropped') this.children.delete(id);
    this.emitter.fire();
  }

  /** Stop one forward (its ssh ends); true when there was one. */
  stop(id: string): boolean {
    if (!this.forwards.has(id)) return false;
    this.end(id);
    this.log.info(`Stopped forwarding ${id}.`);
    return true;
  }

  /** Stop every forward of a cluster (it is gone, or being destroyed); how many there were. */
  closeCluster(clusterId: string, why: 'destroyed' | 'destroying' | 'unlisted'): number {
    const ids = this.all().filter((f) => f.clusterId === clusterId);
    for (const f of ids) this.end(f.id);
    if (ids.length) this.log.info(`Closed ${ids.length} forwarded port(s) of ${clusterId} (cluster ${why}).`);
    return ids.length;
  }

  /** Signed out: no list shows the forwards any more, so none stays running unseen. */
  private closeAll(): void {
    if (this.forwards.size === 0) return;
    const n = this.forwards.size;
    for (const id of [...this.forwards.keys()]) this.end(id);
    this.log.info(`Closed ${n} forwarded port(s): signed out.`);
  }

  /** The list says a cluster or node of a forward is gone, or its cluster is being destroyed. */
  private closeGone(): void {
    if (this.forwards.size === 0) return;
    const data = this.list.data;
    for (const f of this.all()) {
      if (!this.forwards.has(f.id)) continue;
      if (this.store.clusterOperation(f.clusterId)?.kind === 'destroy') {
        this.closeCluster(f.clusterId, 'destroying');
        continue;
      }
      if (!data || data.lastSession) continue;
      const c = this.list.clusters.find((x) => x.id === f.clusterId);
      if (!c) this.closeCluster(f.clusterId, 'unlisted');
      else if (c.instances.length > 0 && !c.instances.some((i) => i.id === f.instanceId)) {
        this.end(f.id);
        this.log.info(`Closed ${f.id}: node ${f.instanceId} is no longer listed.`);
      }
    }
  }

  /** Forget a forward and end its ssh if it still runs. */
  end(id: string): void {
    const child = this.children.get(id);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    this.children.delete(id);
    this.paths.delete(id);
    if (this.forwards.delete(id)) this.emitter.fire();
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const id of [...this.forwards.keys()]) this.end(id);
    this.emitter.dispose();
  }
}
