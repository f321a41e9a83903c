/**
 * GPU telemetry for the nodes someone is looking at: one ssh session per node, kept only while at least
 * one watcher (an expanded cluster in the visible Clusters view, the idle guard) wants the node, ended
 * the moment the last one lets go. No vscode import: the views and the tests drive it.
 *
 * Why one streaming session (smiLoop.ts) rather than OpenSSH connection sharing (ControlMaster): measured
 * against an engine node on the 2-core dev machine (8×H100 stand-in, 5 samples each), a fresh `ssh node
 * nvidia-smi` took 289 ms, a sample over a ControlMaster 58 ms, a block of the streaming loop 53 ms (the
 * remote nvidia-smi itself). The master saves the handshake too, but still starts a local `ssh -S`
 * client and a remote session per sample; the streaming session starts nothing locally between samples
 * (the node's shell loop prints a block per interval into the one connection) and leaves no socket
 * behind after a crash. The rate is the fastest any watcher asks for; changing it restarts the session
 * (rare: a view opened or closed).
 *
 * A session that fails is tried again after a wait that doubles with each failure in a row, up to the
 * node's sampling interval (never under retryMs): the idle guard's background sampling does not knock
 * every 10 s. A login the node refuses (ssh's "Permission denied") is not tried again at all with the
 * same command, even after an unwatch, until keysChanged() (the user's or the cluster's keys changed):
 * retrying a refused key only looks like an attack to the node (fail2ban bans the address).
 */
import type { ChildProcess } from 'node:child_process';
import * as l10n from '@vscode/l10n';
import type { NodeGpuState } from '../../model/gpu';

/** How to reach one node: the ssh argv up to and including `user@host` (connectLogin.ts + BatchMode). */
export interface NodeTarget {
  readonly clusterId: string;
  readonly instanceId: string;
  readonly argv: readonly string[];
}

export interface NodeTelemetry {
  /** The latest state the node reported (kept while it is stale or unreachable). */
  readonly state?: NodeGpuState;
  /** When the latest state arrived. */
  readonly time?: number;
  /** No block for several intervals: the figures are as of `time`. */
  readonly stale: boolean;
  /** The connection failed or ended (ssh's last words), when it did. */
  readonly unreachable?: string;
  /** The node answered and refused the login (ssh: Permission denied): not tried again until keys change. */
  readonly refused?: boolean;
}

export type Spawn = (argv: readonly string[]) => ChildProcess;

export interface SamplerOptions {
  readonly spawn: Spawn;
  /** The remote command for an interval (model/gpu/smiLoop.ts loopCommand). */
  readonly command: (intervalMs: number) => string;
  /** A reader of that command's output into node states (model/gpu/smiLoop.ts SmiLoopReader). */
  readonly reader: (now: () => number) => { push(chunk: string): NodeGpuState[] };
  readonly now?: () => number;
  /** Wait before a failed connection is tried again (while still watched). */
  readonly retryMs?: number;
  /** Blocks missed before a node counts as stale. */
  readonly staleIntervals?: number;
}

interface Session {
  child: ChildProcess;
  intervalMs: number;
  ended: boolean;
}

interface Watched {
  target: NodeTarget;
  /** watcher id -> interval it asks for. */
  readonly watchers: Map<string, number>;
  session?: Session;
  retry?: ReturnType<typeof setTimeout>;
  /** Sessions that ended in a row without a sample. */
  failures: number;
}

/** The wait before the `failures`-th failed session in a row is tried again: retryMs, doubling with each
 *  failure, up to the sampling interval (when that is longer). */
export function retryDelay(failures: number, intervalMs: number, retryMs: number): number {
  return Math.min(retryMs * 2 ** Math.min(failures - 1, 20), Math.max(retryMs, intervalMs));
}

export class GpuSampler {
  private readonly nodes = new Map<string, Watched>();
  private readonly telemetry = new Map<string, NodeTelemetry>();
  private readonly listeners = new Set<(instanceIds: readonly string[]) => void>();
  private readonly keyListeners = new Set<() => void>();
  private staleTimer: ReturnType<typeof setInterval> | undefined;
  private readonly now: () => number;
  /** Logins a node refused: instance id -> the argv refused and ssh's words (kept across unwatch). */
  private readonly refusedLogins = new Map<string, { argv: string; words: string }>();
  /** Counters for tests and benches. */
  readonly counts = { connections: 0, samples: 0 };

  constructor(private readonly opts: SamplerOptions) {
    this.now = opts.now ?? Date.now;
  }

  get(instanceId: string): NodeTelemetry | undefined {
    return this.telemetry.get(instanceId);
  }

  /** Sessions running now. */
  get running(): number {
    let n = 0;
    for (const w of this.nodes.values()) if (w.session && !w.session.ended) n++;
    return n;
  }

  onDidChange(listener: (instanceIds: readonly string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** `watcher` wants these nodes sampled every `intervalMs`; replaces what it wanted before. */
  watch(watcher: string, targets: readonly NodeTarget[], intervalMs: number): void {
    const wanted = new Set(targets.map((t) => t.instanceId));
    for (const [id, w] of this.nodes) if (!wanted.has(id) && w.watchers.delete(watcher)) this.settle(id, w);
    for (const t of targets) {
      let w = this.nodes.get(t.instanceId);
      if (!w) this.nodes.set(t.instanceId, (w = { target: t, watchers: new Map(), failures: 0 }));
      if (w.target.argv.join('\0') !== t.argv.join('\0')) {
        w.target = t;
        this.stop(w);
      }
      w.watchers.set(watcher, intervalMs);
      this.settle(t.instanceId, w);
    }
  }

  /** Did this node refuse the login (until keys change)? Notebooks offer no kernel on it. */
  refused(instanceId: string): boolean {
    return this.refusedLogins.has(instanceId);
  }

  /** `listener` runs when keys change (what notebooks learnt of refused logins is tried again then too). */
  onKeysChanged(listener: () => void): { dispose(): void } {
    this.keyListeners.add(listener);
    return { dispose: () => this.keyListeners.delete(listener) };
  }

  /** The user's or a cluster's keys changed: a refused login may now be accepted, so try again. */
  keysChanged(): void {
    if (this.refusedLogins.size > 0) {
      this.refusedLogins.clear();
      for (const [id, w] of this.nodes) {
        w.failures = 0;
        this.settle(id, w);
      }
    }
    for (const l of [...this.keyListeners]) l();
  }

  unwatch(watcher: string): void {
    this.watch(watcher, [], 0);
  }

  dispose(): void {
    for (const w of this.nodes.values()) this.stop(w);
    this.nodes.clear();
    this.listeners.clear();
    this.keyListeners.clear();
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.staleTimer = undefined;
  }

  /** Start, restart (other rate) or stop the node's session to match its watchers. */
  private settle(id: string, w: Watched): void {
    if (w.watchers.size === 0) {
      this.stop(w);
      this.nodes.delete(id);
      // Nobody looks: no figures kept that would look current when someone looks again.
      if (this.telemetry.delete(id)) for (const l of [...this.listeners]) l([id]);
    } else {
      const interval = Math.min(...w.watchers.values());
      if (w.session && !w.session.ended && w.session.intervalMs !== interval) this.stop(w);
      if ((!w.session || w.session.ended) && !w.retry) this.start(w, interval);
    }
    this.staleCheck();
  }

  private start(w: Watched, intervalMs: number): void {
    const id = w.target.instanceId;
    const refused = this.refusedLogins.get(id);
    if (refused?.argv === w.target.argv.join('\0')) {
      // Refused with these keys before: shown as such, not tried again.
      if (!this.telemetry.get(id)?.refused)
        this.set(id, { stale: false, unreachable: refused.words, refused: true });
      return;
    }
    const child = this.opts.spawn([...w.target.argv, this.opts.command(intervalMs)]);
    const session: Session = { child, intervalMs, ended: false };
    w.session = session;
    this.counts.connections++;
    const reader = this.opts.reader(this.now);
    let stderr = '';
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      const states = reader.push(chunk);
      if (states.length === 0 || session.ended) return;
      this.counts.samples += states.length;
      w.failures = 0;
      this.set(id, { state: states[states.length - 1], time: this.now(), stale: false });
    });
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    const ended = (why: string) => {
      if (session.ended) return;
      session.ended = true;
      if (w.session !== session || this.nodes.get(id) !== w) return; // stopped on purpose
      const last = this.telemetry.get(id);
      const words = (stderr.trim().split(/\r?\n/).pop() || why).slice(0, 300);
      const refused = /Permission denied \(|Too many authentication failures/i.test(stderr);
      this.set(id, {
        ...last,
        stale: last?.state !== undefined,
        unreachable: words,
        refused: refused || undefined,
      });
      if (refused) {
        this.refusedLogins.set(id, { argv: w.target.argv.join('\0'), words });
        this.staleCheck();
        return;
      }
      w.failures++;
      w.retry = setTimeout(
        () => {
          w.retry = undefined;
          if (this.nodes.get(id) === w) this.settle(id, w);
        },
        retryDelay(w.failures, intervalMs, this.opts.retryMs ?? 10_000),
      );
    };
    child.on('error', (e) => ended(e.message));
    // 'close', not 'exit': ssh's last words (stderr) may still be on their way when the process exits.
    child.on('close', (code, signal) =>
      ended(signal ? l10n.t('ssh ended ({0})', signal) : l10n.t('ssh exited with {0}', String(code))),
    );
  }

  private stop(w: Watched): void {
    if (w.retry) clearTimeout(w.retry);
    w.retry = undefined;
    const s = w.session;
    w.session = undefined;
    if (s && !s.ended) {
      s.ended = true;
      s.child.kill('SIGTERM');
    }
  }

  private set(id: string, t: NodeTelemetry): void {
    this.telemetry.set(id, t);
    for (const l of [...this.listeners]) l([id]);
  }

  /** One timer while anything is watched: a node whose block is overdue turns stale (kept, dated). */
  private staleCheck(): void {
    const active = [...this.nodes.values()].filter((w) => w.session && !w.session.ended);
    if (active.length === 0) {
      if (this.staleTimer) clearInterval(this.staleTimer);
      this.staleTimer = undefined;
      return;
    }
    if (this.staleTimer) return;
    const every = Math.min(...active.map((w) => w.session!.intervalMs));
    this.staleTimer = setInterval(() => {
      const limit = this.opts.staleIntervals ?? 3;
      for (const w of this.nodes.values()) {
        const t = this.telemetry.get(w.target.instanceId);
        if (!w.session || !t?.time || t.stale) continue;
        if (this.now() - t.time > limit * w.session.intervalMs + 2000)
          this.set(w.target.instanceId, { ...t, stale: true });
      }
    }, every);
    this.staleTimer.unref?.();
  }
}
