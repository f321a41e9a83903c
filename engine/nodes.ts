// Real cluster nodes: each instance of a cluster the engine runs is OpenSSH's sshd on 127.0.0.1 with its
// own free port, config and host key (engine/sshd.ts), in its own folder of the data folder
// (engine/dataDir.ts):
//   <data dir>/nodes/<instance id>/home/  the login's HOME (ssh, rsync, scp and sftp land there)
//                                  bin/   first on the login's PATH (bin/nvidia-smi on GPU nodes when
//                                         dist/nvidia-smi.js exists)
//                                  etc/   sshd_config, ssh_host_ed25519_key, authorized_keys, sshd.pid, login
// The login's environment: TP_NODE (instance id), TP_NODE_DIR, TP_INSTANCE_TYPE, HOME, PATH. The ssh user
// is the engine's own OS user. A stand-in for isolation, not a security boundary.
//
// A node boots when its cluster is created (unless the create is destined to fail) and the cluster stays
// PROVISIONING until every node listens; it stops (sshd and everything below it) and its folder goes when
// the cluster's destroy is accepted (or the cluster disappears), on reset and when the engine stops.
// Modes: 'off' (no real nodes: documentation addresses nobody answers on), 'auto' (real nodes when sshd
// is installed; otherwise one warning with the install command, then 'off'), 'require' (start fails
// without sshd).

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDataDir, type DataDir } from './dataDir';
import { killIn, killTree, killTreeNow } from './processTree';
import {
  findNvidiaSmi,
  freePort,
  installCommand,
  loginEnv,
  nodeLayout,
  prepareNode,
  sshdMissing,
  startSshd,
  writeAuthorizedKeys,
  type NodeLayout,
  type RunningSshd,
} from './sshd';
import type { Cluster, Instance } from './types';

export type NodesMode = 'off' | 'auto' | 'require';
const NODE_HOST = '127.0.0.1';

export interface NodesOptions {
  mode: NodesMode;
  /** --data-dir; default a temporary folder removed at stop. */
  dataDir?: string;
  /** dist/nvidia-smi.js; default: found next to the engine's bundle. */
  nvidiaSmi?: string;
  /** Where warnings go (default stderr). */
  warn?: (line: string) => void;
  /** Tests only: look for sshd here instead of /usr/sbin/sshd (a missing one shows the fallback). */
  sshdPath?: string;
}

/** What the domain state tells the nodes (engine/clusterStore.ts and sshKeyStore.ts call these). */
export interface NodeHooks {
  /** Boot a node for each instance; `live`: its keys follow the saved keys (seeded clusters). */
  clusterCreated(cluster: Cluster, keys: string[], live: boolean): void;
  /** Stop the cluster's nodes and remove their folders (idempotent). */
  clusterGone(cluster: Cluster): void;
  /** The organisation's saved keys changed: nodes that follow them get the new list. */
  savedKeysChanged(keys: string[]): void;
}

interface NodeRecord {
  instance: Instance;
  clusterId: string;
  instanceType: string;
  layout: NodeLayout;
  live: boolean;
  port?: number;
  sshd?: RunningSshd;
  error?: string;
  stopped: boolean;
  /** Settles when the boot has ended, either way. */
  boot?: Promise<void>;
}

export interface RunningNode {
  layout: NodeLayout;
  host: string;
  port: number;
  user: string;
  env: Record<string, string>;
}

const isGpuType = (instanceType: string): boolean => !/CPU$/i.test(instanceType);

export class NodeManager implements NodeHooks {
  readonly user = os.userInfo().username;
  /** Whether nodes are real (false: 'off', or 'auto' without sshd). */
  readonly enabled: boolean;
  private readonly data: DataDir | undefined;
  private readonly records = new Map<string, NodeRecord>();
  private readonly pinned: number[] = [];
  private readonly booting = new Set<Promise<void>>();
  private readonly nvidiaSmi: string | undefined;
  private readonly stopHooks: ((instanceId: string) => void)[] = [];
  private readonly onExit = (): void => this.killNow();

  constructor(private readonly opts: NodesOptions) {
    const warn = opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
    let enabled = opts.mode !== 'off';
    if (enabled) {
      const why = sshdMissing(opts.sshdPath);
      if (why) {
        const message = `real cluster nodes need OpenSSH's sshd, but ${why}. Install it with:\n  ${installCommand()}`;
        if (opts.mode === 'require') throw new Error(message);
        warn(`tensorpool engine: ${message}\nUntil then, cluster nodes are unreachable.`);
        enabled = false;
      }
    }
    this.enabled = enabled;
    this.nvidiaSmi = opts.nvidiaSmi ?? findNvidiaSmi();
    if (enabled) {
      this.data = openDataDir(opts.dataDir);
      process.on('exit', this.onExit);
    }
  }

  get dataDir(): string | undefined {
    return this.data?.dir;
  }

  /** Ports the next nodes listen on, in order (tests re-create a cluster on the same port). */
  pinPorts(ports: number[]): void {
    this.pinned.push(...ports);
  }

  clusterCreated(cluster: Cluster, keys: string[], live: boolean): void {
    if (!this.data) return;
    for (const instance of cluster.instances) {
      const record: NodeRecord = {
        instance,
        clusterId: cluster.id,
        instanceType: cluster.instanceType,
        layout: nodeLayout(path.join(this.data.nodes, instance.id)),
        live,
        stopped: false,
      };
      this.records.set(instance.id, record);
      instance.node = { state: 'booting' };
      // Pinned ports go to nodes in the order they are created.
      const pinned = this.pinned.shift();
      const boot = this.boot(record, cluster.instanceType, keys, pinned).finally(() =>
        this.booting.delete(boot),
      );
      record.boot = boot;
      this.booting.add(boot);
    }
  }

  private async boot(r: NodeRecord, instanceType: string, keys: string[], pinned?: number): Promise<void> {
    try {
      await prepareNode(
        r.layout,
        {
          instanceId: r.instance.id,
          instanceType,
          user: this.user,
          nvidiaSmi: isGpuType(instanceType) ? this.nvidiaSmi : undefined,
        },
        keys,
      );
      for (let attempt = 1; ; attempt++) {
        if (r.stopped) return;
        const port = pinned ?? (await freePort());
        try {
          r.sshd = await startSshd(r.layout, port);
          r.port = port;
          break;
        } catch (err) {
          // A free port taken between our probe and sshd's bind: try another. A pinned port may still be
          // held by the node that had it a moment ago: try it again for a second.
          const retry = pinned === undefined ? attempt < 5 : attempt < 20;
          if (!retry || !/already in use/i.test((err as Error).message)) throw err;
          if (pinned !== undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      if (r.stopped) return; // stop() ends it
      r.sshd.child.once('exit', (code, sig) => {
        if (r.stopped || r.instance.node?.state !== 'up') return;
        r.error = `sshd exited (${code ?? sig})`;
        r.instance.node = { ...r.instance.node, state: 'down' };
      });
      r.instance.publicIp = NODE_HOST;
      r.instance.privateIp = NODE_HOST;
      r.instance.node = { state: 'up', host: NODE_HOST, port: r.port, user: this.user };
    } catch (err) {
      r.error = (err as Error).message;
      r.instance.node = { state: 'failed' };
      if (!r.stopped)
        (this.opts.warn ?? ((l: string) => process.stderr.write(`${l}\n`)))(
          `tensorpool engine: node ${r.instance.id} could not start, it stays unreachable: ${r.error}`,
        );
    }
  }

  clusterGone(cluster: Cluster): void {
    for (const instance of cluster.instances) {
      const r = this.records.get(instance.id);
      if (r) void this.stop(r);
    }
  }

  savedKeysChanged(keys: string[]): void {
    for (const r of this.records.values()) {
      if (!r.live || r.stopped || !fs.existsSync(r.layout.etc)) continue;
      try {
        writeAuthorizedKeys(r.layout, keys);
      } catch {
        // the node is being removed
      }
    }
  }

  /** A node that is up: its folder, address and the environment its logins get (engine/jobRunner.ts). */
  node(instanceId: string): RunningNode | undefined {
    const r = this.records.get(instanceId);
    if (!r || r.stopped || r.instance.node?.state !== 'up' || r.port === undefined) return undefined;
    const env = loginEnv(r.layout, { instanceId, instanceType: r.instanceType });
    return { layout: r.layout, host: NODE_HOST, port: r.port, user: this.user, env };
  }

  /** Called with the instance id before a node stops (its jobs end with it). */
  onStop(fn: (instanceId: string) => void): void {
    this.stopHooks.push(fn);
  }

  private async stop(r: NodeRecord): Promise<void> {
    if (r.stopped) return;
    r.stopped = true;
    this.records.delete(r.instance.id);
    for (const fn of this.stopHooks) fn(r.instance.id);
    await r.boot; // a node still booting is stopped once its files and sshd exist
    if (r.sshd) await killTree(r.sshd.pid);
    killIn(r.layout.dir); // sessions orphaned when their client left (still running in the node's folder)
    fs.rmSync(r.layout.dir, { recursive: true, force: true });
  }

  /** End a node's sshd (and its sessions) but keep the cluster running: "the node is down". */
  serverDown(instanceId: string): boolean {
    const r = this.records.get(instanceId);
    if (!r?.sshd || r.instance.node?.state !== 'up') return false;
    killTreeNow(r.sshd.pid);
    if (r.instance.node?.state === 'up') r.instance.node = { ...r.instance.node, state: 'down' };
    return true;
  }

  /** Resolves when no node is booting any more. */
  async settled(): Promise<void> {
    while (this.booting.size) await Promise.allSettled([...this.booting]);
  }

  /** Stop every node (reset, close). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.records.values()].map((r) => this.stop(r)));
  }

  /** Stop every node and remove the data folder (engine stop). */
  async close(): Promise<void> {
    await this.settled().catch(() => undefined);
    await this.stopAll();
    this.data?.remove();
    process.off('exit', this.onExit);
  }

  /** The process is exiting without close(): KILL what is left, synchronously. */
  private killNow(): void {
    for (const r of this.records.values()) if (r.sshd) killTreeNow(r.sshd.pid);
    try {
      this.data?.remove();
    } catch {
      // best effort on the way out
    }
  }

  /** GET /_engine/nodes. */
  describe(): Record<string, unknown> {
    return {
      mode: this.opts.mode,
      enabled: this.enabled,
      data_dir: this.data?.dir ?? null,
      user: this.user,
      pinned_ports: [...this.pinned],
      nodes: [...this.records.values()].map((r) => ({
        instance_id: r.instance.id,
        cluster_id: r.clusterId,
        state: r.instance.node?.state ?? 'booting',
        host: r.port === undefined ? null : NODE_HOST,
        port: r.port ?? null,
        user: this.user,
        dir: r.layout.dir,
        pid: r.sshd?.pid ?? null,
        error: r.error ?? null,
      })),
    };
  }
}
