/**
 * "Run on Cluster…" for a job file (`*.tp.toml`): which file (the argument, the active editor's, or one
 * picked from the workspace), the runJob wizard (clusters from the list, the last one used for this
 * file preselected, "Create a cluster…" through the create action), then ONE push (never retried) with a
 * cancellable progress. The editor's text is what is sent, saved or not (what the user sees is what runs;
 * the terminal says so when it differs from the file on disk). Commands the service sends run through the
 * LocalCommandRunner in the job file's folder (the cluster's nodes as the understood upload's other side),
 * their output in the job's terminal, and end with the push (cancel, the socket closed). Submitted: the
 * terminal follows the job. 1006: the outcome is unknown, the user is offered the job list, never a
 * resubmission. Refused / not sent: an error saying so.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { JobOs, PushOutcome } from '../../../api/jobSocket';
import { clusterLabel, clusterPhase, clusterShape, type Cluster } from '../../../model/cluster';
import type { TransferNode } from '../../../model/transferCommand';
import type { Prompter } from '../../../wizards/prompter';
import { runRunJobWizard, type JobTarget } from '../../../wizards/runJob';
import type { ApiService } from '../../shared/apiService';
import type { JobFollowers } from './jobFollowers';
import type { JobsController } from '../jobs';
import type { LocalCommandRunner } from '../../shared/onUse/localCommands';
import type { Log } from '../../shared/log';
import type { ClustersController } from '../../clusters';
import type { WorkspaceState } from '../../shared/storedState';
import { jobFileKey } from '../../jobFiles';
import type * as JobFilesModule from '../../jobFiles/onUse/jobFiles';
import { notices } from '../../shared/notices';

const JOB_FILE = /\.tp\.toml$/i;

export interface JobRunDeps {
  readonly api: ApiService;
  readonly log: Log;
  readonly prompts: () => Prompter;
  readonly workspaceState: WorkspaceState;
  /** A job was started from a job file (its Show Last Run lens appears). */
  readonly jobStarted?: () => void;
  readonly jobs: JobsController;
  readonly followers: JobFollowers;
  readonly commands: LocalCommandRunner;
  readonly clusters: ClustersController;
  /** Run the create-cluster action: the new cluster's id, or undefined when cancelled. */
  readonly createCluster: () => Promise<string | undefined>;
  /** Job id -> the folder of the job file it was run from in this window (Pull Outputs' default). */
  readonly origins: Map<string, string>;
  /** The nodes of a cluster as an upload reaches them (the understood command's other side). */
  readonly transferNodes: (clusterId: string) => Promise<readonly TransferNode[]>;
}

function jobOs(platform = process.platform): JobOs {
  return platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'Darwin' : 'Linux';
}

function target(c: Cluster): JobTarget {
  return {
    id: c.id,
    label: clusterLabel(c),
    description: [c.status, clusterShape(c)].filter(Boolean).join(' · '),
    running: clusterPhase(c.status) === 'running',
  };
}

export class JobRunner {
  constructor(private readonly d: JobRunDeps) {}

  private clusters(): Cluster[] {
    return [...this.d.clusters.clusters];
  }

  /** The job file a command is about: a Uri, the active editor's job file, or one picked from the workspace. */
  private async resolveFile(arg: unknown): Promise<vscode.Uri | undefined> {
    if (arg instanceof vscode.Uri) return arg;
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && JOB_FILE.test(active.path)) return active;
    const found = await vscode.workspace.findFiles('**/*.tp.toml', '**/node_modules/**', 200);
    if (found.length === 0) {
      void notices.showErrorMessage(
        vscode.l10n.t('No job file (*.tp.toml) in this workspace. Create one with TensorPool: New Job File.'),
      );
      return undefined;
    }
    if (found.length === 1) return found[0];
    const picked = await this.d.prompts().pick<vscode.Uri>({
      title: vscode.l10n.t('Run Job on TensorPool'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Which job file?'),
      items: found.map((u) => ({
        label: path.basename(u.fsPath),
        description: vscode.workspace.asRelativePath(u),
        value: u,
      })),
    });
    return picked.kind === 'value' ? picked.value : undefined;
  }

  async run(arg?: unknown): Promise<PushOutcome | undefined> {
    const uri = await this.resolveFile(arg);
    if (!uri) return undefined;
    if (uri.scheme !== 'file') {
      // A virtual workspace (package.json capabilities.virtualWorkspaces): the job's files must be on disk.
      void notices.showErrorMessage(
        vscode.l10n.t(
          'TensorPool runs job files from disk only; {0} is in a virtual workspace. Open a local folder or a clone to run it.',
          uri.toString(true),
        ),
      );
      return undefined;
    }
    const fileName = path.basename(uri.fsPath);
    const folder = path.dirname(uri.fsPath);
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText();
    // What the service would refuse anyway is said here, before any request, at the line to fix.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- dist/jobFiles.js, see esbuild.mjs
    const { jobFileRefusal } = require('../../jobFiles/onUse/jobFiles.js') as typeof JobFilesModule;
    const refusal = jobFileRefusal(fileName, text);
    if (refusal) {
      void notices.showErrorMessage(refusal);
      return { kind: 'not-sent', reason: refusal };
    }
    if (this.d.clusters.data === undefined) await this.d.clusters.refresh().catch(() => undefined);
    const key = jobFileKey(uri);
    const remembered = this.d.workspaceState.get('tensorpool.jobClusters', {});
    const data = this.d.clusters.data;
    const answers = await runRunJobWizard({
      prompter: this.d.prompts(),
      fileName,
      clusters: () => this.clusters().map(target),
      listNote:
        data && data.clusters === undefined
          ? vscode.l10n.t('The service listed clusters as text only.')
          : undefined,
      lastUsed: remembered[key],
      createCluster: async () => {
        const id = await this.d.createCluster();
        if (!id) return undefined;
        await this.d.clusters.refresh().catch(() => undefined);
        const c = this.clusters().find((x) => x.id === id);
        return c ? target(c) : { id, label: id, description: vscode.l10n.t('new'), running: false };
      },
    });
    if (!answers) return undefined;
    await this.d.workspaceState.update('tensorpool.jobClusters', { ...remembered, [key]: answers.clusterId });

    const terminal = this.d.followers.terminal(fileName);
    if (doc.isDirty) terminal.note(vscode.l10n.t("Sending the editor's unsaved text of {0}.", fileName));
    let jobId: string | undefined;
    /** What the last command the service sent printed on stderr when it failed (the upload, typically). */
    let failed: string | undefined;
    // The push's commands end with it: cancel, the socket closing (its queued commands are refused unasked).
    const commands = new AbortController();
    let nodes: Promise<readonly TransferNode[]> | undefined;
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Submitting {0} to {1}…', fileName, answers.clusterLabel),
        cancellable: true,
      },
      async (_progress, token) => {
        const push = new AbortController();
        const cancel = token.onCancellationRequested(() => {
          commands.abort();
          push.abort();
        });
        try {
          const client = await this.d.api.client();
          return await client.jobs.push(
            { tpConfig: text, system: jobOs(), clusterId: answers.clusterId, teardown: answers.teardown },
            {
              onMessage: (m) => {
                jobId ??= m.jobId;
                if (m.message) terminal.append(m.message);
              },
              runCommand: async (command) => {
                nodes ??= this.d.transferNodes(answers.clusterId).catch(() => []);
                const scope = { nodes: await nodes, signal: commands.signal };
                const r = await this.d.commands.run(command, folder, terminal, scope);
                failed = r.exitCode !== 0 && !r.refused ? r.stderr : undefined;
                return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
              },
              signal: push.signal,
            },
          );
        } catch (e) {
          return { kind: 'not-sent' as const, reason: errorMessage(e) };
        } finally {
          cancel.dispose();
          commands.abort();
        }
      },
    );
    this.d.log.info(`Job push of ${fileName}: ${outcome.kind}`);
    const started = outcome.kind === 'not-sent' ? undefined : (outcome.jobId ?? jobId);
    if (started) {
      const runs = this.d.workspaceState.get('tensorpool.jobRuns', {});
      await this.d.workspaceState.update('tensorpool.jobRuns', { ...runs, [key]: started });
      this.d.jobStarted?.();
    }
    this.d.jobs.refreshIfVisible();
    this.report(outcome, fileName, folder, terminal, failed);
    return outcome;
  }

  private report(
    outcome: PushOutcome,
    fileName: string,
    folder: string,
    terminal: ReturnType<JobFollowers['terminal']>,
    /** The failed upload's stderr: the refusal says why in the user's words (missing rsync or ssh, a key). */
    failed?: string,
  ): void {
    const showJobs = vscode.l10n.t('Show Jobs');
    const notify = (message: string, severity: 'warning' | 'error', actions: string[]) =>
      void this.d
        .prompts()
        .confirm({ message, actions, modal: false, severity })
        .then(
          (a) => {
            if (a === showJobs) void vscode.commands.executeCommand('tensorpool.jobs.focus');
          },
          () => undefined,
        );
    switch (outcome.kind) {
      case 'submitted':
        if (!outcome.jobId) {
          terminal.note(
            vscode.l10n.t('Submitted, but the service did not say the job id: find it in the Jobs view.'),
          );
          return;
        }
        this.d.origins.set(outcome.jobId, folder);
        void this.d.followers.follow(outcome.jobId, `${fileName} (${outcome.jobId})`, terminal);
        return;
      case 'unknown':
        terminal.note(outcome.reason);
        notify(
          vscode.l10n.t(
            'Connection lost while submitting {0}: the job may or may not exist. Check the job list before running it again.',
            fileName,
          ),
          'warning',
          [showJobs],
        );
        return;
      case 'refused': {
        terminal.note(vscode.l10n.t('Refused ({0}): {1}', outcome.code, outcome.reason));
        const why = failed === undefined ? undefined : uploadFailure(failed);
        if (why) terminal.note(why);
        const reason = why ? `${outcome.reason}. ${why}` : outcome.reason;
        notify(vscode.l10n.t('TensorPool refused the job {0}: {1}', fileName, reason), 'error', [showJobs]);
        return;
      }
      case 'not-sent':
        terminal.note(vscode.l10n.t('Nothing was submitted: {0}', outcome.reason));
        notify(vscode.l10n.t('Nothing was submitted for {0}: {1}', fileName, outcome.reason), 'error', []);
    }
  }
}

/** Why the upload command failed, in the user's words: a missing rsync or ssh (what to install), else the
 *  last line of its stderr (e.g. ssh's "Permission denied (publickey)"). */
function uploadFailure(stderr: string): string | undefined {
  const win = process.platform === 'win32';
  if (/rsync: (command )?not found|'rsync' is not recognized|rsync: No such file/i.test(stderr))
    return win
      ? vscode.l10n.t(
          'rsync is not installed on this computer: run VS Code in WSL, or install rsync and ssh (e.g. with Git for Windows or Cygwin) and make sure they are on PATH.',
        )
      : vscode.l10n.t(
          'rsync is not installed on this computer: install it (e.g. sudo apt install rsync, or brew install rsync) and run the job again.',
        );
  if (/Failed to exec ssh|ssh: (command )?not found|'ssh' is not recognized/i.test(stderr))
    return win
      ? vscode.l10n.t(
          'ssh is not installed on this computer: add the OpenSSH Client (Settings > Optional features) and run the job again.',
        )
      : vscode.l10n.t(
          'ssh is not installed on this computer: install the OpenSSH client (e.g. sudo apt install openssh-client) and run the job again.',
        );
  // ssh's own line (e.g. "Permission denied (publickey)") says more than rsync's closing ones.
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const last =
    lines.filter((l) => !/^rsync( error|: connection unexpectedly closed)/i.test(l)).pop() ?? lines.pop();
  return last ? vscode.l10n.t('The upload said: {0}', last.slice(0, 300)) : undefined;
}
