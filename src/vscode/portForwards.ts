/**
 * The ports forwarded from nodes to this machine: each is one `ssh -N -L` child process of the extension
 * host (argv from model/portForward.ts), tracked here from start to end. A tunnel ends when the user stops
 * it, when its cluster or node leaves the list (or its cluster is being destroyed), and when the window
 * closes (dispose kills every child); one that drops by itself is marked so and the user is offered to
 * reconnect. Lives in the activation bundle because the Clusters tree lists the forwards under their node
 * and the window's end must reach them; the commands that start them are in dist/actions.js (portActions.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { knownClusters } from '../model/cluster';
import { Commands } from './commands';
import type { Log } from './log';
import type { Store } from './store';

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

/** The path the browser opens (Jupyter's carries its token: kept in memory only, never shown or stored). */
const openPaths = new WeakMap<Forward, string>();

export type StartResult =
  { readonly ok: true; readonly forward: Forward } | { readonly ok: false; readonly message: string };

export interface ForwardSpec extends Omit<Forward, 'id' | 'state'> {
  readonly openPath?: string;
}

const READY_TIMEOUT_MS = 25_000;
const MAX_STDERR = 4_000;

/** Can 127.0.0.1:<port> be bound now? */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A port the system has free on 127.0.0.1 now. */
export function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

export class PortForwards implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly forwards = new Map<string, Forward>();
  private readonly children = new Map<string, ChildProcess>();
  private readonly stopping = new Set<string>();
  private readonly subscription: vscode.Disposable;
  private next = 1;

  constructor(
    private readonly store: Store,
    private readonly log: Log,
  ) {
    this.subscription = store.onDidChange((topic) => {
      if (topic === 'clusters' || topic === 'requests') this.closeGone();
    });
  }

  all(): readonly Forward[] {
    return [...this.forwards.values()];
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
    return openPaths.get(f) ?? '/';
  }

  /** Start the tunnel; resolves once its local port accepts connections, or with why it did not. */
  async start(spec: ForwardSpec): Promise<StartResult> {
    const { openPath, ...rest } = spec;
    const forward: Forward = { ...rest, id: `fwd-${this.next++}`, state: 'starting' };
    if (openPath) openPaths.set(forward, openPath);
    const [file, ...args] = spec.argv;
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      if (stderr.length < MAX_STDERR) stderr += d;
    });
    let exited: string | undefined;
    const ended = new Promise<void>((resolve) => {
      child.once('error', (e) => {
        exited = e.message;
        resolve();
      });
      child.once('exit', (code, signal) => {
        exited ??= `exit ${code ?? signal}`;
        resolve();
      });
    });
    this.forwards.set(forward.id, forward);
    this.children.set(forward.id, child);
    this.emitter.fire();
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (exited === undefined && Date.now() < deadline) {
      if (await accepts(spec.local)) break;
      await Promise.race([ended, new Promise((r) => setTimeout(r, 150))]);
    }
    if (exited !== undefined || Date.now() >= deadline || this.stopping.has(forward.id)) {
      const why = this.log.secrets.redact(stderr.trim()) || exited || 'timed out';
      this.end(forward.id);
      return { ok: false, message: why };
    }
    forward.state = 'up';
    void ended.then(() => this.exited(forward.id, stderr));
    this.log.info(
      `Forwarding 127.0.0.1:${forward.local} to port ${forward.remote} of node ${forward.instanceId} (${forward.clusterId}).`,
    );
    this.emitter.fire();
    return { ok: true, forward };
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

  /** The list says a cluster or node of a forward is gone, or its cluster is being destroyed. */
  private closeGone(): void {
    if (this.forwards.size === 0) return;
    const data = this.store.clusters.data;
    for (const f of this.all()) {
      if (this.store.requestFor(f.clusterId)?.kind === 'destroy') {
        this.closeCluster(f.clusterId, 'destroying');
        continue;
      }
      if (!data || data.lastSession) continue;
      const c = knownClusters(data).find((x) => x.id === f.clusterId);
      if (!c) this.closeCluster(f.clusterId, 'unlisted');
      else if (c.instances.length > 0 && !c.instances.some((i) => i.id === f.instanceId)) {
        this.end(f.id);
        this.log.info(`Closed ${f.id}: node ${f.instanceId} is no longer listed.`);
      }
    }
  }

  /** The tunnel's ssh ended by itself: mark it dropped and offer to reconnect. */
  private exited(id: string, stderr: string): void {
    const f = this.forwards.get(id);
    this.children.delete(id);
    if (!f || this.stopping.has(id)) return;
    f.state = 'dropped';
    this.emitter.fire();
    const detail = this.log.secrets.redact(stderr.trim().split(/\r?\n/).pop() ?? '');
    this.log.warn(
      `The tunnel ${id} to port ${f.remote} of ${f.instanceId} dropped${detail ? `: ${detail}` : ''}.`,
    );
    const reconnect = vscode.l10n.t('Reconnect');
    const stop = vscode.l10n.t('Stop Forwarding');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'The forward of port {0} on node {1} of {2} (local port {3}) dropped.',
          f.remote,
          f.node,
          f.clusterName,
          f.local,
        ),
        reconnect,
        stop,
      )
      .then((a) => {
        if (a === reconnect) void vscode.commands.executeCommand(Commands.reconnectForward, f.id);
        else if (a === stop) this.stop(f.id);
      });
  }

  /** Start a dropped forward again on the same local port (the argv is the one it had). */
  async reconnect(id: string): Promise<StartResult | undefined> {
    const f = this.forwards.get(id);
    if (!f || f.state !== 'dropped') return undefined;
    this.end(id);
    return this.start({ ...f, openPath: openPaths.get(f) });
  }

  private end(id: string): void {
    this.stopping.add(id);
    const child = this.children.get(id);
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    this.children.delete(id);
    if (this.forwards.delete(id)) this.emitter.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    for (const id of [...this.forwards.keys()]) this.end(id);
    this.emitter.dispose();
  }
}
