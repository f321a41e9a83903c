/**
 * Open TensorBoard and Open Jupyter on a node (or a job's node): forward the app's port (TensorBoard's from
 * tensorpool.ports.tensorBoardPort, 6006 by default) when it serves there already; otherwise offer to start
 * it in a terminal on the node (the ssh the extension builds, connectLogin.ts) and open it once it answers
 * (a bounded, cancellable wait). Jupyter's token is read from the node (`jupyter server list --json`, over
 * ssh's output, never a command line), registered with the log's secret registry so no line shows it, kept
 * in memory with the forward only, and handed to the browser inside the URL, which necessarily carries it.
 */
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import {
  JUPYTER_PORT,
  jupyterCommand,
  jupyterPath,
  localUrl,
  parseJupyterServers,
  probeStatus,
  PROBE_MARK,
  tensorboardCommand,
  whichCommand,
  type JupyterServer,
  type NodeSsh,
} from '../../../model/portForward';
import { buildSshArgv } from '../../../model/sshCommand';
import { readTensorBoardPort } from '../../shared/settings';
import type { ConnectTarget } from '../../connect/onUse';
import type { ForwardOutcome, PortActions } from './portActions';
import { notices } from '../../shared/notices';

const START_WAIT_MS = 120_000;
const POLL_MS = 2_000;

type App = 'tensorboard' | 'jupyter';

export class PortApps {
  constructor(private readonly p: PortActions) {}

  private get log() {
    return this.p.d.log;
  }

  /** A node row, or a job row (its cluster; the job's folder is the log folder offered). */
  private async targetOf(arg: unknown, title: string): Promise<{ t?: ConnectTarget; jobId?: string }> {
    const job =
      arg && typeof arg === 'object' && (arg as { kind?: string }).kind === 'job'
        ? (arg as { job: { id: string; clusterId?: string } }).job
        : undefined;
    if (job && !job.clusterId) {
      void notices.showErrorMessage(vscode.l10n.t('Job {0} names no cluster to open it on.', job.id));
      return {};
    }
    return { t: await this.p.target(job ? job.clusterId : arg, title), jobId: job?.id };
  }

  async openTensorBoard(arg: unknown): Promise<ForwardOutcome> {
    const { t, jobId } = await this.targetOf(arg, vscode.l10n.t('Open TensorBoard'));
    const ssh = t && (await this.p.login(t));
    if (!t || !ssh) return { ok: false, reason: 'cancelled' };
    const port = readTensorBoardPort();
    const open = await this.p.listening(t, ssh, port);
    if (open === undefined) return { ok: false, reason: 'login' };
    if (!open) {
      if (!(await this.installed(t, ssh, 'tensorboard'))) return { ok: false, reason: 'closed' };
      const logdir = await this.askLogdir(t, jobId);
      if (
        logdir === undefined ||
        !(await this.startIn(t, ssh, 'tensorboard', tensorboardCommand(logdir, port)))
      )
        return { ok: false, reason: 'cancelled' };
      const up = await this.waitFor(
        t,
        'TensorBoard',
        async () => (await this.p.listening(t, ssh, port)) ?? null,
      );
      if (!up) return { ok: false, reason: 'closed' };
    }
    return this.forwardAndOpen(t, port, 'TensorBoard');
  }

  async openJupyter(arg: unknown): Promise<ForwardOutcome> {
    const { t } = await this.targetOf(arg, vscode.l10n.t('Open Jupyter'));
    const ssh = t && (await this.p.login(t));
    if (!t || !ssh) return { ok: false, reason: 'cancelled' };
    let server = await this.jupyterServer(t, ssh);
    if (server === null) return { ok: false, reason: 'closed' };
    if (server === undefined) {
      if (!(await this.startIn(t, ssh, 'jupyter', jupyterCommand())))
        return { ok: false, reason: 'cancelled' };
      server = await this.waitFor(t, 'Jupyter', () => this.jupyterServer(t, ssh));
      if (!server) return { ok: false, reason: 'closed' };
    }
    return this.forwardAndOpen(t, server.port, 'Jupyter', jupyterPath(server));
  }

  /** The node's Jupyter server (port 8888 first), its token registered as a secret; undefined when none
   *  runs; null when Jupyter is not installed or ssh failed (the user was told). */
  private async jupyterServer(t: ConnectTarget, ssh: NodeSsh): Promise<JupyterServer | undefined | null> {
    // eslint-disable-next-line tensorpool/l10n -- the command run on the node
    const r = await this.p.run(ssh, `jupyter server list --json 2>/dev/null; echo ${PROBE_MARK}$?`);
    const status = probeStatus(r.stdout);
    if (status === undefined) {
      await this.p.failures.explain(t, buildSshArgv(ssh));
      return null;
    }
    if (status === 127) {
      this.notInstalled(t, 'jupyter');
      return null;
    }
    const servers = parseJupyterServers(r.stdout);
    for (const s of servers) this.log.secrets.add(s.token);
    return servers.find((s) => s.port === JUPYTER_PORT) ?? servers[0];
  }

  private async installed(t: ConnectTarget, ssh: NodeSsh, app: App): Promise<boolean> {
    const r = await this.p.run(ssh, whichCommand(app));
    if (probeStatus(r.stdout) === 0) return true;
    this.notInstalled(t, app);
    return false;
  }

  private notInstalled(t: ConnectTarget, app: App): void {
    // eslint-disable-next-line tensorpool/l10n -- the command the user runs on the node
    const install = app === 'tensorboard' ? 'pip install tensorboard' : 'pip install jupyterlab';
    const message = vscode.l10n.t(
      '{0} is not installed on node {1} of {2}. Install it there with `{3}` (in an SSH terminal on the node), then try again.',
      app === 'tensorboard' ? 'TensorBoard' : 'Jupyter',
      t.node,
      clusterLabel(t.cluster),
      install,
    );
    this.log.warn(message);
    void notices.showErrorMessage(message);
  }

  private async askLogdir(t: ConnectTarget, jobId: string | undefined): Promise<string | undefined> {
    const a = await this.p.d.prompts().input({
      title: vscode.l10n.t('Start TensorBoard on Node {0} of {1}', t.node, clusterLabel(t.cluster)),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t(
        'The folder on the node with the event files (--logdir), relative to the home folder',
      ),
      value: jobId ? `jobs/${jobId}` : 'runs',
      validate: (v) =>
        v.trim() === ''
          ? vscode.l10n.t('Enter a folder.')
          : /[\r\n\0]/.test(v)
            ? vscode.l10n.t('A folder name is one line.')
            : undefined,
    });
    return a.kind === 'value' ? a.value.trim() : undefined;
  }

  /** Offer to start the app on the node in a terminal (the command shown first); true when started. */
  private async startIn(t: ConnectTarget, ssh: NodeSsh, app: App, command: string): Promise<boolean> {
    const name = app === 'tensorboard' ? 'TensorBoard' : 'Jupyter';
    const start = vscode.l10n.t('Start in a Terminal');
    const answer = await this.p.d.prompts().confirm({
      message: vscode.l10n.t('Nothing serves {0} on node {1} of {2}.', name, t.node, clusterLabel(t.cluster)),
      detail: vscode.l10n.t('Start it there in a terminal with: {0}', command),
      actions: [start],
      modal: true,
    });
    if (answer !== start) return false;
    const argv = buildSshArgv(ssh);
    const dest = argv.pop()!;
    const terminal = vscode.window.createTerminal({
      name: vscode.l10n.t('{0} · node {1} of {2}', name, t.node, clusterLabel(t.cluster)),
      shellPath: argv[0],
      shellArgs: [...argv.slice(1), '-t', dest, command],
    });
    terminal.show(true);
    this.log.info(`Started ${name} on ${t.instance.id} in a terminal: ${command}`);
    return true;
  }

  /** Poll until the app answers (bounded, cancellable); what the check found, or undefined. A check that
   *  answers null (ssh failed, the user was told) ends the wait. */
  private waitFor<T>(
    t: ConnectTarget,
    name: string,
    check: () => Promise<T | false | undefined | null>,
  ): Thenable<T | undefined> {
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Waiting for {0} on node {1} of {2}…', name, t.node, clusterLabel(t.cluster)),
        cancellable: true,
      },
      async (_progress, token) => {
        const deadline = Date.now() + START_WAIT_MS;
        while (!token.isCancellationRequested && Date.now() < deadline) {
          const found = await check();
          if (found === null) return undefined;
          if (found) return found;
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        if (!token.isCancellationRequested)
          void notices.showWarningMessage(
            vscode.l10n.t(
              '{0} did not answer on node {1} within two minutes: see its terminal.',
              name,
              t.node,
            ),
          );
        return undefined;
      },
    );
  }

  private async forwardAndOpen(
    t: ConnectTarget,
    port: number,
    label: string,
    openPath?: string,
  ): Promise<ForwardOutcome> {
    const existing = this.p.d.forwards
      .forNode(t.cluster.id, t.instance.id)
      .find((f) => f.remote === port && f.state === 'up');
    const r = existing
      ? ({
          ok: true,
          id: existing.id,
          url: localUrl(existing.local),
          local: existing.local,
          same: existing.local === port,
        } as const)
      : await this.p.forward(t, { remote: port }, { label, openPath, skipProbe: true });
    if (r.ok) await this.p.open(r.id);
    return r;
  }
}
