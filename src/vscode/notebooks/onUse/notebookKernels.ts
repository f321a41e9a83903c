/**
 * Notebooks running on TensorPool nodes: the kernel picker's entries (kernelControllers.ts), and for each
 * notebook and node the kernel session: the node's Jupyter server and the tunnel (nodeServer.ts), the kernel
 * started in the notebook's folder on the node (the running folder sync's, or one started after asking) or
 * reattached (the kernel id is kept in workspace state per notebook, no token), and the runs of its cells
 * (cellRun.ts, cellOutputs.ts): outputs, the execution count and time, `input()` through an input box,
 * interrupt.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { clusterLabel } from '../../../model/cluster';
import { sessionPath } from '../../../model/jupyterNode';
import type { Prompter } from '../../../wizards/prompter';
import type { ClustersController } from '../../clusters';
import type { ConnectTarget } from '../../connect/onUse';
import type { ClusterPrices } from '../../cost';
import type { PortActions } from '../../ports/onUse';
import type { Log } from '../../shared/log';
import { readJupyterCommand } from '../../shared/settings';
import type { WorkspaceState } from '../../shared/storedState';
import type { SyncStatus } from '../../sync';
import type { SyncActions } from '../../sync/onUse';
import type { DisplayOutputs } from './cellOutputs';
import { runCell, type RunningCell } from './cellRun';
import { folderOnNode } from './notebookFolder';
import { KernelControllers, type NodeController } from './kernelControllers';
import { KernelRecords } from './kernelRecords';
import { KernelSession } from './kernelSession';
import { NodeLogins, type LoginDeps } from './nodeLogins';
import { NodeServers } from './nodeServer';
import { notices } from '../../shared/notices';

export interface NotebookDeps {
  readonly log: Log;
  readonly prompts: () => Prompter;
  readonly workspaceState: WorkspaceState;
  readonly clusters: ClustersController;
  readonly prices: ClusterPrices;
  readonly ports: () => Promise<PortActions>;
  readonly syncActions: () => Promise<SyncActions>;
  readonly syncStatus: SyncStatus;
}

const keyOf = (notebook: vscode.NotebookDocument, c: NodeController) =>
  `${notebook.uri.toString()}|${c.controller.id}`;

export class NotebookKernels implements vscode.Disposable {
  readonly servers: NodeServers;
  readonly controllers: KernelControllers;
  /** Which nodes refuse the user's keys (their entries are not offered). */
  readonly logins: NodeLogins;
  private readonly sessions = new Map<string, Promise<KernelSession>>();
  private readonly displays = new Map<string, DisplayOutputs>();
  /** The cell running on each session now. */
  private readonly running = new Map<string, RunningCell>();
  /** Sessions being opened: the stop button cancels them. */
  private readonly openings = new Map<string, AbortController>();
  private forwardsWatched = false;
  private readonly records: KernelRecords;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly d: NotebookDeps,
    sampler: LoginDeps['sampler'],
  ) {
    this.records = new KernelRecords(d.workspaceState);
    this.servers = new NodeServers({
      ports: d.ports,
      log: d.log,
      command: readJupyterCommand,
      refused: (t) => this.logins.noteRefused(t.instance.id, true),
    });
    this.logins = new NodeLogins({ sampler, log: d.log, refuses: (t, s) => this.servers.refuses(t, s) });
    this.controllers = new KernelControllers(d.clusters, d.prices, this.logins, {
      execute: (cells, notebook, c) => this.execute(cells, notebook, c),
      interrupt: (notebook, c) => this.interrupt(notebook, c),
      gone: (c, why) => this.gone(c, why),
      preferred: (c) => vscode.workspace.notebookDocuments.filter((n) => this.records.ranOn(n, c.target)),
    });
    this.subscriptions.push(
      this.controllers,
      this.logins,
      vscode.workspace.onDidOpenNotebookDocument((n) => {
        const c = this.controllers.all().find((x) => this.records.ranOn(n, x.target));
        c?.controller.updateNotebookAffinity(n, vscode.NotebookControllerAffinity.Preferred);
      }),
    );
  }

  /** The kernel session of a notebook on a node: the one open, else reattached or started. */
  async session(notebook: vscode.NotebookDocument, c: NodeController): Promise<KernelSession> {
    const key = keyOf(notebook, c);
    const open = await this.sessions.get(key)?.catch(() => undefined);
    if (open && (await this.usable(open))) return open;
    if (open) {
      // The tunnel dropped or the kernel's connection gave up: reconnect (the same kernel, reattached).
      this.sessions.delete(key);
      open.dispose();
      (await this.d.ports()).d.forwards.end(open.link.forwardId);
      this.d.log.info(`The connection to kernel ${open.kernel.id} was lost; reconnecting.`);
    }
    const pending = this.sessions.get(key);
    if (pending) return pending;
    const t = c.target;
    const cancel = new AbortController();
    this.openings.set(key, cancel);
    const opening = vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Connecting to node {0} of {1}…', t.node, clusterLabel(t.cluster)),
      },
      async (progress) => {
        const link = await this.servers.ensure(t, (m) => progress.report({ message: m }), cancel.signal);
        // A kernel that ran before keeps its folder (reattached, or started again there): nothing is asked.
        const previous = this.records.ranOn(notebook, t) ? this.records.get(notebook) : undefined;
        const where = previous?.path ? undefined : await folderOnNode(this.d, notebook, t);
        const at = previous?.path ?? sessionPath(where?.folder, where?.relative ?? '');
        const s = await KernelSession.open(link, at, previous, cancel.signal);
        const record = { clusterId: t.cluster.id, instanceId: t.instance.id, ...s.record, path: at };
        await this.records.set(notebook, record);
        this.d.log.info(
          `${s.reattached ? 'Reattached to' : 'Started'} kernel ${s.kernel.id} on ${t.instance.id} for ${path.basename(notebook.uri.path)} (session ${at}).`,
        );
        return s;
      },
    );
    this.sessions.set(key, Promise.resolve(opening));
    opening.then(
      () => this.openings.delete(key),
      () => {
        this.openings.delete(key);
        this.sessions.delete(key);
      },
    );
    return opening;
  }

  /** Is the session's tunnel up and its kernel connection not given up? */
  private async usable(s: KernelSession): Promise<boolean> {
    const forwards = (await this.d.ports()).d.forwards;
    this.watchForwards(forwards);
    return (
      forwards.get(s.link.forwardId)?.state === 'up' &&
      !s.kernel.isDisposed &&
      s.kernel.connectionStatus !== 'disconnected' &&
      s.kernel.status !== 'dead'
    );
  }

  /** A tunnel that drops ends the cells running through it, saying so (a later run reconnects). */
  private watchForwards(forwards: PortActions['d']['forwards']): void {
    if (this.forwardsWatched) return;
    this.forwardsWatched = true;
    this.subscriptions.push(
      forwards.onDidChange(() => {
        for (const run of this.running.values()) {
          const state = forwards.get(run.forwardId)?.state;
          if (state === 'up' || state === 'starting') continue;
          const why = vscode.l10n.t(
            'The connection to node {0} was lost while this cell ran. The kernel may still be running it there; run a cell to reconnect to it, with what it holds.',
            run.node,
          );
          // A tunnel ended on purpose (its cluster went, Stop Jupyter): that says why first.
          // A dropped tunnel may mean the cluster is going: the list is asked first, so that is said instead.
          const later = () => setTimeout(() => run.abort(why), 0);
          if (state === 'dropped')
            void Promise.race([this.d.clusters.refresh(), new Promise((r) => setTimeout(r, 10_000))]).then(
              later,
              later,
            );
          else later();
        }
      }),
    );
  }

  private async execute(cells: vscode.NotebookCell[], notebook: vscode.NotebookDocument, c: NodeController) {
    for (const cell of cells) if (!(await this.run(cell, notebook, c))) break;
    // A login refused meanwhile takes the node's entry away now that its cells ended (nodeLogins.ts).
    if (this.logins.refused(c.target.instance.id)) this.controllers.update();
  }

  /** Run one cell; whether it succeeded (cellRun.ts). */
  private run(cell: vscode.NotebookCell, notebook: vscode.NotebookDocument, c: NodeController) {
    const uri = notebook.uri.toString();
    let displays = this.displays.get(uri);
    if (!displays) this.displays.set(uri, (displays = new Map() as DisplayOutputs));
    return runCell(
      {
        d: this.d,
        session: () => this.session(notebook, c),
        displays,
        running: this.running,
        key: keyOf(notebook, c),
        offerRestart: () => this.offerRestart(notebook, c),
      },
      cell,
      notebook,
      c,
    );
  }

  /** Say that a notebook's kernel died, with Restart Kernel. */
  private offerRestart(notebook: vscode.NotebookDocument, c: NodeController): void {
    const restart = vscode.l10n.t('Restart Kernel');
    void notices
      .showErrorMessage(
        vscode.l10n.t(
          'The kernel of {0} on node {1} died while a cell ran.',
          path.basename(notebook.uri.path),
          c.target.node,
        ),
        restart,
      )
      .then(async (answer) => {
        if (answer !== restart) return;
        const s = await this.sessions.get(keyOf(notebook, c))?.catch(() => undefined);
        await s?.restart();
      });
  }

  private async interrupt(notebook: vscode.NotebookDocument, c: NodeController): Promise<void> {
    const opening = this.openings.get(keyOf(notebook, c));
    if (opening) return opening.abort();
    const s = await this.sessions.get(keyOf(notebook, c))?.catch(() => undefined);
    if (!s) return;
    // A cell waiting for its kernel to be back (cellRun.ts): the stop button ends the wait.
    if (s.starting) return this.running.get(keyOf(notebook, c))?.abort(vscode.l10n.t('Stopped.'));
    this.d.log.info(`Interrupting kernel ${s.kernel.id}.`);
    await s.interrupt();
  }

  /** The session of the active notebook (its selected TensorPool entry), for Restart and Shut Down. */
  async activeSession(): Promise<
    { notebook: vscode.NotebookDocument; c: NodeController; s?: KernelSession } | undefined
  > {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    const c = notebook && this.controllers.selected.get(notebook);
    if (!notebook || !c) return undefined;
    return { notebook, c, s: await this.sessions.get(keyOf(notebook, c))?.catch(() => undefined) };
  }

  async restart(): Promise<boolean> {
    const a = await this.activeSession();
    if (!a?.s) return false;
    await a.s.restart();
    this.d.log.info(`Restarted kernel ${a.s.kernel.id}.`);
    return true;
  }

  async shutDown(): Promise<boolean> {
    const a = await this.activeSession();
    if (!a?.s) return false;
    this.sessions.delete(keyOf(a.notebook, a.c));
    await a.s.shutdown();
    await this.records.set(a.notebook, undefined);
    this.d.log.info(`Shut down kernel ${a.s.kernel.id}.`);
    return true;
  }

  /** Stop Jupyter on a node: the connections to it go first. */
  async stopServer(t: ConnectTarget): Promise<boolean> {
    const c = this.controllers.byNode(t.cluster.id, t.instance.id);
    if (c) this.drop(c, vscode.l10n.t('Jupyter was stopped on node {0}', t.node));
    return this.servers.stop(t);
  }

  private gone(c: NodeController, why: string): void {
    this.drop(c, why);
  }

  /** Forget the sessions of an entry (the kernels run on where the server still runs). */
  private drop(c: NodeController, why: string): void {
    for (const [key, s] of [...this.sessions]) {
      if (!key.endsWith(`|${c.controller.id}`)) continue;
      this.sessions.delete(key);
      this.running.get(key)?.abort(why);
      void s.then((x) => x.dispose()).catch(() => undefined);
    }
  }

  /** Tests: drop every connection and tunnel as a new extension host starts without them. */
  async dropConnections(): Promise<void> {
    const ports = await this.d.ports();
    for (const [key, s] of [...this.sessions]) {
      this.sessions.delete(key);
      const x = await s.catch(() => undefined);
      x?.dispose();
      if (x) ports.d.forwards.end(x.link.forwardId);
    }
    this.displays.clear();
  }

  dispose(): void {
    for (const s of this.sessions.values()) void s.then((x) => x.dispose()).catch(() => undefined);
    this.sessions.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}
