/**
 * Which nodes refuse the user's SSH keys, so the kernel picker offers no kernel on them (kernelControllers.ts):
 * what the GPU telemetry learnt (its sampler marks a node that refused its login: gpu/gpuSampler.ts), what a
 * notebook's own login learnt (nodeServer.ts), and one `ssh … true` per node (BatchMode, bounded, the
 * notebooks' own login argv; never through a shell; at most CHECKS_AT_ONCE at a time) while a notebook is
 * visible, once per node until the keys change. When no notebook is visible any more the checks under way end
 * (their ssh killed) and those waiting are dropped; they are asked for again when one shows. A refused node is
 * not tried again until the user's saved keys change (a node that refuses logins over and over may ban the
 * address); then every node is tried again.
 */
import * as vscode from 'vscode';
import type { ConnectTarget } from '../../connect/onUse';
import type { GpuSampler } from '../../gpu';
import { CheckQueue } from '../../../model/checkQueue';
import { clusterLabel } from '../../../model/cluster';
import type { Log } from '../../shared/log';

/** What a notebook says of a node that accepts none of the user's keys. */
export function refusedMessage(t: ConnectTarget): string {
  return vscode.l10n.t(
    'Node {0} of {1} accepted none of your SSH keys, so the notebook cannot reach it. Add one of your public keys with TensorPool: Add SSH Key…, or pick a node created with your key.',
    t.node,
    clusterLabel(t.cluster),
  );
}

export interface LoginDeps {
  readonly sampler: Pick<GpuSampler, 'refused' | 'onKeysChanged' | 'onDidChange'>;
  /** One login check: true when the node refused our keys, false when it let us in, undefined otherwise. */
  readonly refuses: (t: ConnectTarget, signal: AbortSignal) => Promise<boolean | undefined>;
  readonly log: Log;
}

/** Login checks at once: an account with many nodes would otherwise start one ssh per node at the same time. */
const CHECKS_AT_ONCE = 4;

export class NodeLogins implements vscode.Disposable {
  /** Nodes (instance ids) that refused a notebook login or its check. */
  private readonly refusedHere = new Set<string>();
  /** Nodes checked (or being checked) since the keys last changed. */
  private readonly checked = new Set<string>();
  /** The sampler's refusals last seen (its changes fire ours). */
  private readonly samplerSeen = new Set<string>();
  /** The checks, a few at a time, in the order asked. */
  private readonly checks = new CheckQueue<ConnectTarget>(CHECKS_AT_ONCE, (t, signal) =>
    this.checkOne(t, signal),
  );
  private readonly changed = new vscode.EventEmitter<void>();
  /** What is known of a node's login changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly d: LoginDeps) {
    this.subscriptions = [
      d.sampler.onKeysChanged(() => {
        // The checks under way try the old keys: they end, and every node is asked for again.
        this.checks.stop();
        this.refusedHere.clear();
        this.checked.clear();
        this.samplerSeen.clear();
        this.changed.fire();
      }),
      d.sampler.onDidChange((ids) => {
        let moved = false;
        for (const id of ids) {
          const now = d.sampler.refused(id);
          if (now === this.samplerSeen.has(id)) continue;
          moved = true;
          if (now) this.samplerSeen.add(id);
          else this.samplerSeen.delete(id);
        }
        if (moved) this.changed.fire();
      }),
      this.changed,
    ];
  }

  refused(instanceId: string): boolean {
    return this.refusedHere.has(instanceId) || this.d.sampler.refused(instanceId);
  }

  /** A notebook's login was refused (said in its cell): `quiet` leaves the picker's update to the caller. */
  noteRefused(instanceId: string, quiet = false): void {
    this.checked.add(instanceId);
    if (this.refusedHere.has(instanceId)) return;
    this.refusedHere.add(instanceId);
    if (!quiet) this.changed.fire();
  }

  /** Check each node not checked since the keys changed (one `ssh … true` each, CHECKS_AT_ONCE at a time). */
  check(targets: readonly ConnectTarget[]): void {
    for (const t of targets) {
      const id = t.instance.id;
      if (this.checked.has(id) || this.refused(id)) continue;
      this.checked.add(id);
      this.checks.push(id, t);
    }
  }

  /** No notebook is visible: the checks under way end, those waiting are dropped (all asked for again later). */
  stopChecks(): void {
    for (const id of this.checks.stop()) this.checked.delete(id);
  }

  private async checkOne(t: ConnectTarget, signal: AbortSignal): Promise<void> {
    const id = t.instance.id;
    const refuses = await this.d.refuses(t, signal);
    if (signal.aborted) return;
    this.d.log.info(
      `Login check of ${id} for notebooks: ${refuses ? 'refused' : refuses === false ? 'accepted' : 'no answer'}.`,
    );
    // No answer (not up yet, a network fault): the node stays offered; its first run says what fails.
    if (refuses) this.noteRefused(id);
  }

  dispose(): void {
    this.checks.stop();
    for (const s of this.subscriptions) s.dispose();
  }
}
