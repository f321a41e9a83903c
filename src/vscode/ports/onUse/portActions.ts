/**
 * Forward Port…, Open in Browser, Stop Forwarding and Reconnect (portForwards.ts keeps the tunnels). The
 * remote port is checked over ssh first (model/portForward.ts: probeCommand), the local port is the same
 * one when it is free here, else another (said so), or exactly the one the user typed as LOCAL:REMOTE.
 * Every ssh logs in as Open SSH Terminal does (connectLogin.ts: the node's port and user, the cluster's key,
 * our known_hosts), with BatchMode so it never waits for a password. A forward opens in the Simple Browser
 * or the external browser (tensorpool.ports.openIn), through asExternalUri so it works in a remote window.
 */
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import { childEnv } from '../../../model/childEnv';
import { clusterLabel } from '../../../model/cluster';
import {
  chooseLocalPort,
  COMMON_PORTS,
  localBindFailed,
  localUrl,
  parsePortText,
  probeCommand,
  probeStatus,
  remoteArgv,
  tunnelArgv,
  validatePortText,
  type NodeSsh,
  type PortRequest,
} from '../../../model/portForward';
import { isSshHost } from '../../../model/sshAddress';
import { buildSshArgv } from '../../../model/sshCommand';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import { nodeLogin } from '../../connect/onUse';
import { resolveConnectTarget, type ConnectTarget } from '../../connect/onUse';
import type { HostSeams } from '../../shared/hostSeams';
import { configWriters } from '../../shared/lazyConfig';
import type { Log } from '../../shared/log';
import type { ClusterFinder } from '../../clusters/onUse';
import type { PortForwards } from '../portForwards';
import { forwardOf, openForward, pickForward } from './portBrowser';
import { SshFailures } from '../../connect/onUse';
import { isPortFree, reconnectTunnel, startTunnel } from './tunnels';
import type { StoredState } from '../../shared/storedState';
import { notices } from '../../shared/notices';

/** What Forward Port… came to (tests read it; the user was told in words). */
export type ForwardOutcome =
  | {
      readonly ok: true;
      readonly id: string;
      readonly url: string;
      readonly local: number;
      readonly same: boolean;
    }
  | { readonly ok: false; readonly reason: 'cancelled' | 'closed' | 'taken' | 'login' | 'tunnel' };

export interface PortDeps {
  readonly api: ApiService;
  readonly state: StoredState;
  readonly log: Log;
  readonly prompts: () => Prompter;
  readonly host: HostSeams;
  readonly finder: ClusterFinder;
  readonly forwards: PortForwards;
}

export class PortActions {
  readonly failures: SshFailures;

  constructor(readonly d: PortDeps) {
    this.failures = new SshFailures(d.api, d.state, d.log, d.host);
  }

  /** The node a command is about: its row, or a pick (clusters, then nodes). */
  target(arg: unknown, title: string): Promise<ConnectTarget | undefined> {
    return resolveConnectTarget(arg, this.d.finder, this.d.prompts, title);
  }

  /** How ssh logs in to the node; undefined (and the user told) when it has no usable address. */
  async login(t: ConnectTarget): Promise<NodeSsh | undefined> {
    const ip = t.instance.ip;
    if (!ip || !isSshHost(ip)) {
      void notices.showErrorMessage(
        vscode.l10n.t('Node {0} of {1} has no address to connect to yet.', t.node, clusterLabel(t.cluster)),
      );
      return undefined;
    }
    const home = this.d.host.home();
    const l = nodeLogin(t.cluster, t.instance, this.d.state.get('tensorpool.identityFiles', {}), home);
    try {
      await configWriters().ensureKnownHostsFile(configWriters().sshPaths(home));
    } catch (e) {
      this.d.log.warn(`Could not create the TensorPool known_hosts file: ${errorMessage(e)}`);
    }
    return {
      user: l.user,
      host: ip,
      port: l.port,
      identity: l.identity,
      knownHosts: l.knownHosts,
      hostKeyAlias: l.keyAlias,
    };
  }

  /** Run a short command on the node (BatchMode, no terminal); its output, or undefined if ssh failed to start. */
  run(
    ssh: NodeSsh,
    command: string,
    timeoutMs = 30_000,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const [file, ...args] = remoteArgv(ssh, command);
    return new Promise((resolve) =>
      execFile(
        file,
        args,
        {
          timeout: timeoutMs,
          maxBuffer: 1 << 20,
          windowsHide: true,
          env: childEnv(process.env, process.platform, 'ssh'),
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      ),
    );
  }

  /** Does something listen on the node's port? undefined when ssh could not log in (the user was told why). */
  async listening(t: ConnectTarget, ssh: NodeSsh, port: number): Promise<boolean | undefined> {
    const r = await this.run(ssh, probeCommand(port));
    const status = probeStatus(r.stdout);
    if (status === undefined) {
      await this.failures.explain(t, buildSshArgv(ssh));
      return undefined;
    }
    return status === 0;
  }

  /** Forward Port…: which port (offered or typed), then the tunnel. `request` (`8080`, `18080:8080`) skips
   *  the question. */
  async forwardPort(arg: unknown, request?: string): Promise<ForwardOutcome> {
    const t = await this.target(arg, vscode.l10n.t('Forward a Port'));
    if (!t) return { ok: false, reason: 'cancelled' };
    const req = request !== undefined ? parsePortText(request) : await this.askPort(t);
    if (request !== undefined && !req) {
      void notices.showErrorMessage(validatePortText(request)!);
      return { ok: false, reason: 'cancelled' };
    }
    if (!req) return { ok: false, reason: 'cancelled' };
    // Already forwarded (and up): the same tunnel, not a second ssh, unless another local port was asked for.
    const same = this.d.forwards
      .forNode(t.cluster.id, t.instance.id)
      .find((f) => f.remote === req.remote && f.state === 'up' && (req.local ?? f.local) === f.local);
    const result: ForwardOutcome = same
      ? {
          ok: true,
          id: same.id,
          url: localUrl(same.local),
          local: same.local,
          same: same.local === same.remote,
        }
      : await this.forward(t, req, {});
    if (result.ok) void this.announce(t, result);
    return result;
  }

  private async askPort(t: ConnectTarget): Promise<PortRequest | undefined> {
    const answer = await this.d.prompts().pick<PortRequest>({
      title: vscode.l10n.t('Forward a Port of Node {0} of {1}', t.node, clusterLabel(t.cluster)),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('The port on the node, or type one (LOCAL:REMOTE for a chosen local port)'),
      items: COMMON_PORTS.map((p) => ({
        label: String(p.port),
        description: p.label,
        value: { remote: p.port },
      })),
      custom: {
        label: (text) => vscode.l10n.t('Forward {0}', text.trim()),
        validate: validatePortText,
        toValue: (text) => parsePortText(text)!,
      },
    });
    return answer.kind === 'value' ? answer.value : undefined;
  }

  /** Check the node's port, choose the local one, start the tunnel; every failure is told to the user. */
  async forward(
    t: ConnectTarget,
    req: PortRequest,
    o: { label?: string; openPath?: string; skipProbe?: boolean; signal?: AbortSignal },
  ): Promise<ForwardOutcome> {
    const node = clusterLabel(t.cluster);
    const ssh = await this.login(t);
    if (!ssh) return { ok: false, reason: 'login' };
    if (!o.skipProbe) {
      const open = await this.listening(t, ssh, req.remote);
      if (open === undefined) return { ok: false, reason: 'login' };
      if (!open) {
        const message = vscode.l10n.t(
          'Nothing listens on port {0} on node {1} of {2}. Start the server there (on 127.0.0.1 or 0.0.0.0), then forward the port again.',
          req.remote,
          t.node,
          node,
        );
        this.d.log.warn(message);
        void notices.showWarningMessage(message);
        return { ok: false, reason: 'closed' };
      }
    }
    let choice = await chooseLocalPort(req, isPortFree, this.d.host.freePort);
    if ('taken' in choice) {
      const message = vscode.l10n.t(
        'Local port {0} is already in use on this computer. Choose another local port, or forward {1} alone and TensorPool picks a free one.',
        choice.taken,
        req.remote,
      );
      this.d.log.warn(message);
      void notices.showErrorMessage(message);
      return { ok: false, reason: 'taken' };
    }
    const start = (local: number) =>
      startTunnel(
        this.d.forwards,
        {
          clusterId: t.cluster.id,
          instanceId: t.instance.id,
          node: t.node,
          clusterName: node,
          remote: req.remote,
          local,
          label: o.label,
          argv: tunnelArgv(ssh, local, req.remote),
          openPath: o.openPath,
        },
        o.signal,
      );
    let started = await start(choice.port);
    // Cancelled by the caller (a notebook's stop button): its run says so, nothing more to tell or try.
    if (!started.ok && o.signal?.aborted) return { ok: false, reason: 'cancelled' };
    // A port we chose was free when checked, but another program can bind it before ssh does: when the
    // user did not ask for that port, take another free one once.
    if (!started.ok && req.local === undefined && localBindFailed(started.message)) {
      this.d.log.info(`Local port ${choice.port} was taken before the tunnel could listen; trying another.`);
      choice = { port: await this.d.host.freePort(), same: false };
      started = await start(choice.port);
    }
    if (!started.ok && o.signal?.aborted) return { ok: false, reason: 'cancelled' };
    if (!started.ok) {
      const message = vscode.l10n.t(
        'Could not forward port {0} of node {1} of {2}: {3}',
        req.remote,
        t.node,
        node,
        started.message,
      );
      this.d.log.warn(message);
      void notices.showErrorMessage(message);
      return { ok: false, reason: 'tunnel' };
    }
    const url = localUrl(choice.port);
    return { ok: true, id: started.forward.id, url, local: choice.port, same: choice.same };
  }

  /** Tell where the port is now, saying so when it is not the same number. */
  private async announce(t: ConnectTarget, r: ForwardOutcome & { ok: true }): Promise<void> {
    const f = this.d.forwards.all().find((x) => x.id === r.id);
    if (!f) return;
    const open = vscode.l10n.t('Open in Browser');
    const message = r.same
      ? vscode.l10n.t('Port {0} of node {1} of {2} is at {3}.', f.remote, t.node, f.clusterName, r.url)
      : vscode.l10n.t(
          'Port {0} is in use on this computer, so port {0} of node {1} of {2} is at {3} instead.',
          f.remote,
          t.node,
          f.clusterName,
          r.url,
        );
    if ((await notices.showInformationMessage(message, open)) === open) await this.open(f.id);
  }

  /** Open in Browser: the Simple Browser or the external one (setting, or ask), through asExternalUri. */
  async open(arg: unknown): Promise<string | undefined> {
    const f = await pickForward(this.d, arg, vscode.l10n.t('Open in Browser'));
    return f && openForward(this.d, f);
  }

  async stop(arg: unknown): Promise<boolean> {
    const f = await pickForward(this.d, arg, vscode.l10n.t('Stop Forwarding'));
    return f ? this.d.forwards.stop(f.id) : false;
  }

  async reconnect(arg: unknown): Promise<boolean> {
    const f = forwardOf(this.d, arg);
    const r = f && (await reconnectTunnel(this.d.forwards, f.id));
    if (r && !r.ok)
      void notices.showErrorMessage(vscode.l10n.t('Could not reconnect the forward: {0}', r.message));
    return !!r?.ok;
  }
}
