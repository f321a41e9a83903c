/**
 * Sync Folder to Node, Stop Sync, Watch on/off and the status bar's menu: which folder (the Explorer's,
 * the only workspace folder, or a pick), which node (the row it was invoked on, or a pick), which folder
 * on the node (default `~/<folder name>`, editable, inside the login's home only), then a SyncSession.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultRemoteFolder, remoteFolderProblem, remoteRelative } from '../../../model/syncPlan';
import { SentRecord } from '../../../model/syncQueue';
import type { Prompter } from '../../../wizards/prompter';
import type { ClusterFinder } from '../../clusters/onUse';
import { resolveConnectTarget, transferNodes, type ConnectTarget } from '../../connect/onUse';
import { Commands } from '../../shared/commands';
import type { HostSeams } from '../../shared/hostSeams';
import type { Log } from '../../shared/log';
import { notices } from '../../shared/notices';
import { readSyncSettings } from '../../shared/settings';
import type { StoredState, StoredSync, WorkspaceState } from '../../shared/storedState';
import type { SyncStatus } from '../index';
import { SyncSession } from './syncSession';
import { SyncStatusBar } from './syncStatusBar';
import { pullFromNode, type PullOutcome } from './syncPull';
import type * as JobFilesModule from '../../jobFiles/onUse/jobFiles';

/** The `ignore` patterns of the job files at the top of `folder` (their uploads leave those out too). */
function jobFileIgnores(folder: string): string[] {
  const files = fs.readdirSync(folder).filter((n) => n.endsWith('.tp.toml'));
  if (files.length === 0) return [];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- dist/jobFiles.js, see esbuild.mjs
  const jobFiles = require('../../jobFiles/onUse/jobFiles.js') as typeof JobFilesModule;
  return files.flatMap((n) => {
    try {
      return jobFiles.jobFileIgnores(fs.readFileSync(path.join(folder, n), 'utf8'));
    } catch {
      return [];
    }
  });
}

export interface SyncActionDeps {
  readonly status: SyncStatus;
  readonly finder: ClusterFinder;
  readonly prompts: () => Prompter;
  readonly state: StoredState;
  readonly workspaceState: WorkspaceState;
  readonly host: HostSeams;
  readonly log: Log;
}

export type SyncOutcome =
  { readonly ok: true; readonly remote: string } | { readonly ok: false; readonly why: string };

/** How many folders' records are kept (the oldest go first). */
const MAX_STORED = 20;
const SENT_LIMIT = 20_000;

export class SyncActions {
  constructor(private readonly d: SyncActionDeps) {}

  async syncFolder(arg?: unknown): Promise<SyncOutcome | undefined> {
    const title = vscode.l10n.t('Sync Folder to Node');
    const folder = arg instanceof vscode.Uri ? arg.fsPath : await this.pickFolder(title);
    if (!folder) return undefined;
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      return this.fail(vscode.l10n.t('{0} is not a folder.', folder));
    const target = await resolveConnectTarget(
      arg instanceof vscode.Uri ? undefined : arg,
      this.d.finder,
      this.d.prompts,
      title,
    );
    if (!target) return undefined;
    const stored = this.d.workspaceState.get('tensorpool.syncs', {})[folder];
    const answer = await this.d.prompts().input({
      title,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t('The folder on node {0} (inside your home folder there)', target.node),
      value: stored?.remote ? `~/${stored.remote}` : defaultRemoteFolder(path.basename(folder)),
      validate: (v) => remoteFolderProblem(v),
    });
    if (answer.kind !== 'value') return undefined;
    return this.begin(folder, target, remoteRelative(answer.value));
  }

  /**
   * Offer to resume a folder of this window synced before (its cluster is listed again): asked once, then
   * the same sync as before (its node, its folder there, the record of what it sent). What was resumed.
   */
  async offerResume(): Promise<SyncOutcome | undefined> {
    if (this.d.status.running) return undefined;
    const stored = this.d.workspaceState.get('tensorpool.syncs', {});
    const open = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const folder = Object.keys(stored)
      .reverse()
      .find(
        (f) =>
          open.some((o) => f === o || f.startsWith(o + path.sep)) &&
          fs.statSync(f, { throwIfNoEntry: false })?.isDirectory(),
      );
    if (!folder) return undefined;
    const s = stored[folder];
    const resume = vscode.l10n.t('Resume');
    const answer = await this.d
      .prompts()
      .confirm({
        message: vscode.l10n.t('Resume syncing {0} to ~/{1} on its node?', path.basename(folder), s.remote),
        actions: [resume, vscode.l10n.t('Not Now')],
      })
      .catch(() => undefined);
    if (answer !== resume) return undefined;
    const listed = await this.d.finder.byId(s.clusterId);
    const cluster = listed && (await this.d.finder.withInstances(listed));
    const n = cluster ? cluster.instances.findIndex((i) => i.id === s.instanceId) : -1;
    if (!cluster || n < 0)
      return this.fail(vscode.l10n.t('The node {0} was synced to is gone.', s.instanceId));
    return this.begin(folder, { cluster, instance: cluster.instances[n], node: n + 1 }, s.remote);
  }

  /** Sync `folder` to the node without asking where (a notebook's kernel needs it there): to the folder
   *  it was synced to before, else `~/<folder name>`. */
  syncTo(folder: string, target: ConnectTarget): Promise<SyncOutcome> {
    const stored = this.d.workspaceState.get('tensorpool.syncs', {})[folder];
    const remote =
      stored?.instanceId === target.instance.id
        ? stored.remote
        : remoteRelative(defaultRemoteFolder(path.basename(folder)));
    return this.begin(folder, target, remote);
  }

  /** The sync of `folder` to `remote` (relative to the home) on the target node. */
  private async begin(folder: string, target: ConnectTarget, remote: string): Promise<SyncOutcome> {
    const stored = this.d.workspaceState.get('tensorpool.syncs', {})[folder];
    const nodes = await transferNodes(
      target.cluster,
      this.d.state.get('tensorpool.identityFiles', {}),
      this.d.host.home(),
      this.d.log,
    );
    const node = nodes.find((n) => n.host === target.instance.ip);
    if (!node) return this.fail(vscode.l10n.t('Node {0} has no address ssh can reach yet.', target.node));
    const same =
      stored &&
      stored.clusterId === target.cluster.id &&
      stored.instanceId === target.instance.id &&
      stored.remote === remote;
    const sent = new SentRecord(same ? stored.sent : [], SENT_LIMIT, same ? stored.states : {});
    const settings = readSyncSettings();
    const excludes = [...settings.exclude, ...jobFileIgnores(folder)];
    const record = (): StoredSync => ({
      clusterId: target.cluster.id,
      instanceId: target.instance.id,
      remote,
      sent: sent.toJSON(),
      states: sent.statesJSON(),
    });
    const session = new SyncSession({
      folder,
      target: { node, remote },
      label: vscode.l10n.t('node {0}', target.node),
      clusterId: target.cluster.id,
      excludes,
      delayMs: settings.delayMs,
      watch: settings.watch,
      sent,
      saveSent: () => void this.store(folder, record()),
      show: (s, state) => this.d.status.update(s, state),
      ended: (s) => this.d.status.end(s),
      log: this.d.log,
      env: () => this.d.host.env(),
      prompts: this.d.prompts,
    });
    this.d.status.begin(session, new SyncStatusBar(session));
    this.d.log.info(`Syncing ${folder} to ~/${remote} on node ${target.node} of ${target.cluster.id}.`);
    const r = await session.start();
    if (r.ok) return { ok: true, remote };
    if (this.d.status.running === session && this.d.status.shown?.kind === 'failed') {
      // The first sync stopped: say why, and offer to send the folder again (what is there stays).
      const retry = vscode.l10n.t('Retry');
      const log = vscode.l10n.t('Show Log');
      void this.d
        .prompts()
        .confirm({
          message: vscode.l10n.t('Sync of {0} failed: {1}', path.basename(folder), r.why),
          actions: [retry, log],
          modal: false,
          severity: 'error',
        })
        .then(
          (b) =>
            b === retry ? session.retry() : b === log && vscode.commands.executeCommand(Commands.showLog),
          () => undefined,
        );
    }
    return { ok: false, why: r.why };
  }

  /** Pull from Node…: for the running sync of this window. */
  async pull(): Promise<PullOutcome | undefined> {
    const s = this.d.status.running;
    if (!(s instanceof SyncSession)) {
      void notices.showInformationMessage(
        vscode.l10n.t(
          'Sync a folder to a node first (Sync Folder to Node…): Pull from Node brings files back into it.',
        ),
      );
      return undefined;
    }
    const r = await pullFromNode(s, this.d.prompts, this.d.host.env(), this.d.log);
    s.d.saveSent();
    return r;
  }

  /** Stop the running sync; whether there was one. */
  stop(): boolean {
    const s = this.d.status.running;
    s?.stop(vscode.l10n.t('stopped'));
    return s !== undefined;
  }

  /** Watch on or off; the new state (undefined without a sync). */
  toggleWatch(): boolean | undefined {
    const s = this.d.status.running;
    s?.toggleWatch();
    return s?.watching;
  }

  /** The status bar's click: the log, Retry, Watch on/off, Stop. */
  async menu(): Promise<void> {
    const s = this.d.status.running;
    if (!s) return;
    const picked = await this.d.prompts().pick<() => unknown>({
      title: vscode.l10n.t('Folder sync: {0} ⇄ {1}', path.basename(s.folder), s.label),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('What to do?'),
      items: [
        ...(s.conflicts > 0
          ? [
              {
                label: vscode.l10n.t('Choose Which Versions Win ({0} changed on both sides)…', s.conflicts),
                value: () => s.resolveConflicts(),
              },
            ]
          : []),
        { label: vscode.l10n.t('Show Log'), value: () => vscode.commands.executeCommand(Commands.showLog) },
        { label: vscode.l10n.t('Retry'), value: () => s.retry() },
        { label: vscode.l10n.t('Pull from Node…'), value: () => this.pull() },
        {
          label: s.watching ? vscode.l10n.t('Stop Watching') : vscode.l10n.t('Watch'),
          value: () => s.toggleWatch(),
        },
        { label: vscode.l10n.t('Stop Sync'), value: () => s.stop(vscode.l10n.t('stopped')) },
      ],
    });
    if (picked.kind === 'value') await picked.value();
  }

  private async pickFolder(title: string): Promise<string | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 1) return folders[0].uri.fsPath;
    if (folders.length === 0) {
      void notices.showInformationMessage(vscode.l10n.t('Open a folder to sync it to a node.'));
      return undefined;
    }
    const picked = await this.d.prompts().pick<string>({
      title,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Which folder?'),
      items: folders.map((f) => ({ label: f.name, description: f.uri.fsPath, value: f.uri.fsPath })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }

  private fail(why: string): SyncOutcome {
    void notices.showErrorMessage(why);
    return { ok: false, why };
  }

  private store(folder: string, sync: StoredSync): Thenable<void> {
    const all = { ...this.d.workspaceState.get('tensorpool.syncs', {}) };
    delete all[folder];
    all[folder] = sync;
    const kept = Object.entries(all).slice(-MAX_STORED);
    return this.d.workspaceState.update('tensorpool.syncs', Object.fromEntries(kept));
  }
}
