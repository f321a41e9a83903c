/**
 * The Jupyter server on a node, reached from here: the one we started before is reused (its record on the
 * node, read over ssh: model/jupyterNode.ts), else one is started detached over our own ssh login with a
 * token we generate and hand over on ssh's standard input; then an ssh tunnel to it (the port forwards'
 * machinery, ports/onUse: the tunnel is listed under the node and ends with the window). The token is
 * registered with the log's secret registry at once and kept in memory only.
 */
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import { childEnv } from '../../../model/childEnv';
import {
  newJupyterToken,
  parseServerRecord,
  parseStartAnswer,
  probeScript,
  startScript,
  stopScript,
  type NodeJupyter,
} from '../../../model/jupyterNode';
import { remoteArgv, shellWord, type NodeSsh } from '../../../model/portForward';
import { buildSshArgv } from '../../../model/sshCommand';
import { classifySshFailure } from '../../../model/sshFailure';
import type { ConnectTarget } from '../../connect/onUse';
import type { PortActions } from '../../ports/onUse';
import type { Log } from '../../shared/log';
import { refusedMessage } from './nodeLogins';

/** Why a kernel could not be reached: said to the user in `message`; `kind` for tests and later handling. */
export class NotebookServerError extends Error {
  constructor(
    readonly kind:
      | 'login'
      | 'jupyterMissing'
      | 'serverFailed'
      | 'tunnel'
      | 'gone'
      | 'auth'
      | 'notJupyter'
      | 'timeout'
      | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

/** The stop button was pressed while connecting. */
const cancelledError = (t: ConnectTarget) =>
  new NotebookServerError('cancelled', vscode.l10n.t('Connecting to node {0} was cancelled.', t.node));

/** A server on a node and the tunnel to it. */
export interface ServerLink {
  readonly target: ConnectTarget;
  readonly server: NodeJupyter;
  /** This machine's port of the tunnel. */
  readonly local: number;
  readonly forwardId: string;
  /** The server was started by this call (not found running). */
  readonly started: boolean;
}

/** Run a script on the node with `stdin` as its input: its exit code (-1: ssh did not run or was ended by
 *  the timeout or `signal`, which kill the ssh process) and what it printed. */
function runOnNode(
  ssh: NodeSsh,
  script: string,
  stdin = '',
  timeoutMs = 60_000,
  signal?: AbortSignal,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, ...args] = remoteArgv(ssh, `sh -c ${shellWord(script)}`);
  if (signal?.aborted) return Promise.resolve({ code: -1, stdout: '', stderr: '' });
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      env: childEnv(process.env, process.platform, 'ssh'),
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    const abort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', abort, { once: true });
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 8_000) stderr += d;
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    const done = (code: number) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      resolve({ code, stdout, stderr });
    };
    child.once('error', () => done(-1));
    child.once('close', (code) => done(code ?? -1));
  });
}

export interface ServerDeps {
  readonly ports: () => Promise<PortActions>;
  readonly log: Log;
  /** The command that starts Jupyter on the node (tensorpool.notebooks.jupyterCommand). */
  readonly command: () => string;
  /** The node refused our keys (the kernel picker stops offering it: nodeLogins.ts). */
  readonly refused?: (t: ConnectTarget) => void;
}

export class NodeServers {
  constructor(private readonly d: ServerDeps) {}

  /** How ssh logs in to the node (undefined: the user was told why). */
  private async login(t: ConnectTarget): Promise<NodeSsh> {
    const ssh = await (await this.d.ports()).login(t);
    if (!ssh)
      throw new NotebookServerError(
        'login',
        vscode.l10n.t('Node {0} of {1} has no address to connect to yet.', t.node, clusterLabel(t.cluster)),
      );
    return ssh;
  }

  /** One `ssh … true` with the notebooks' own login (BatchMode, bounded): did the node refuse our keys? */
  async refuses(t: ConnectTarget, signal?: AbortSignal): Promise<boolean | undefined> {
    const ssh = await (await this.d.ports()).login(t);
    if (!ssh) return undefined;
    const r = await runOnNode(ssh, 'true', '', 30_000, signal);
    if (r.code === 0) return false;
    return classifySshFailure(r.stderr) === 'denied' ? true : undefined;
  }

  /** The node's server (reused or started) and a tunnel to it (reused when one is up). `signal` (the stop
   *  button) ends the ssh logins under way: their processes are killed and the run says it was cancelled. */
  async ensure(
    t: ConnectTarget,
    progress?: (what: string) => void,
    signal?: AbortSignal,
  ): Promise<ServerLink> {
    const ports = await this.d.ports();
    const ssh = await this.login(t);
    progress?.(vscode.l10n.t('Looking for Jupyter on node {0}…', t.node));
    const probe = await runOnNode(ssh, probeScript(), '', 60_000, signal);
    if (signal?.aborted) throw cancelledError(t);
    if (probe.code === 255 || probe.code === -1) throw await this.loginFailed(t, ssh, probe.stderr);
    let server = parseServerRecord(probe.stdout);
    let started = false;
    if (!server) {
      progress?.(vscode.l10n.t('Starting Jupyter on node {0}…', t.node));
      server = await this.start(t, ssh, signal);
      if (signal?.aborted) throw cancelledError(t);
      started = true;
    }
    if (server.token) this.d.log.secrets.add(server.token);
    progress?.(vscode.l10n.t('Connecting to Jupyter on node {0}…', t.node));
    const link = await this.tunnel(ports, t, server, signal);
    if (signal?.aborted) throw cancelledError(t);
    return { ...link, started };
  }

  private async start(t: ConnectTarget, ssh: NodeSsh, signal?: AbortSignal): Promise<NodeJupyter> {
    const token = newJupyterToken();
    this.d.log.secrets.add(token);
    const command = this.d.command();
    const firstPort = 20_000 + Math.floor(Math.random() * 40_000);
    const r = await runOnNode(ssh, startScript(command, firstPort), `${token}\n`, 60_000, signal);
    if (signal?.aborted) throw cancelledError(t);
    if (r.code === 255 || r.code === -1) throw await this.loginFailed(t, ssh, r.stderr);
    const answer = parseStartAnswer(r.stdout);
    const node = clusterLabel(t.cluster);
    // Jupyter found but not runnable as installed (a module missing): said as missing too.
    const broken = answer?.kind === 'failed' && /No module named|ModuleNotFoundError/.test(answer.log);
    if (answer?.kind === 'missing' || broken)
      throw new NotebookServerError(
        'jupyterMissing',
        vscode.l10n.t(
          'Jupyter is not installed on node {0} of {1} (`{2}` is not on its PATH or does not run), and TensorPool installs nothing there without you. Install it on the node: on Debian or Ubuntu `sudo apt-get install python3-jupyter-server python3-ipykernel`, elsewhere `pip install jupyter-server ipykernel`; or run on a container image that has both (for example quay.io/jupyter/base-notebook), or set tensorpool.notebooks.jupyterCommand to the command that starts it. Then run the cell again.',
          t.node,
          node,
          command.trim().split(/\s+/)[0] ?? command,
        ),
      );
    if (answer?.kind !== 'started') {
      const why = this.d.log.secrets.redact(
        answer?.kind === 'failed' ? answer.log : r.stderr.trim() || `exit ${r.code}`,
      );
      this.d.log.warn(`Jupyter did not start on ${t.instance.id}: ${why}`);
      throw new NotebookServerError(
        'serverFailed',
        vscode.l10n.t(
          'Jupyter did not start on node {0} of {1}: {2}',
          t.node,
          node,
          why.split('\n').pop() ?? why,
        ),
      );
    }
    this.d.log.info(
      `Started Jupyter on ${t.instance.id} (pid ${answer.server.pid}, port ${answer.server.port}).`,
    );
    return { ...answer.server, token: answer.server.token || token };
  }

  private async tunnel(
    ports: PortActions,
    t: ConnectTarget,
    server: NodeJupyter,
    signal?: AbortSignal,
  ): Promise<Omit<ServerLink, 'started'>> {
    const up = ports.d.forwards
      .forNode(t.cluster.id, t.instance.id)
      .find((f) => f.remote === server.port && f.state === 'up');
    if (up) return { target: t, server, local: up.local, forwardId: up.id };
    const r = await ports.forward(
      t,
      { remote: server.port },
      { label: vscode.l10n.t('Jupyter (notebooks)'), skipProbe: true, signal },
    );
    if (!r.ok && r.reason === 'cancelled') throw cancelledError(t);
    if (!r.ok)
      throw new NotebookServerError(
        'tunnel',
        vscode.l10n.t('Could not reach Jupyter on node {0} of {1}.', t.node, clusterLabel(t.cluster)),
      );
    return { target: t, server, local: r.local, forwardId: r.id };
  }

  /** Stop the server we started on the node (and its tunnels); whether one ran. */
  async stop(t: ConnectTarget): Promise<boolean> {
    const ports = await this.d.ports();
    const ssh = await this.login(t);
    const probe = parseServerRecord((await runOnNode(ssh, probeScript())).stdout);
    const r = await runOnNode(ssh, stopScript());
    if (probe)
      for (const f of ports.d.forwards.forNode(t.cluster.id, t.instance.id))
        if (f.remote === probe.port) ports.d.forwards.end(f.id);
    return r.stdout.includes('tp-jupyter-stopped');
  }

  private async loginFailed(t: ConnectTarget, ssh: NodeSsh, stderr: string): Promise<NotebookServerError> {
    const ports = await this.d.ports();
    // The check says what it found in a notice of its own (a refused key offers Add SSH Key there).
    const kind = await ports.failures.explain(t, buildSshArgv(ssh));
    const node = clusterLabel(t.cluster);
    if (kind === 'denied') {
      this.d.refused?.(t);
      return new NotebookServerError('login', refusedMessage(t));
    }
    return new NotebookServerError(
      'login',
      vscode.l10n.t(
        'Could not log in to node {0} of {1}: {2}',
        t.node,
        node,
        this.d.log.secrets.redact(stderr.trim().split('\n').pop() ?? ''),
      ),
    );
  }
}
