/**
 * Pull Outputs: where (asked, with a default), what will come (the dry run's files with sizes, in a
 * confirm), then the download with a cancellable "n of N files" progress; existing files are replaced
 * only after asking. Paths that would leave the folder are refused by downloadOutputs (downloads.ts) and
 * reported. A running job's pull answers with a command (rsync): it runs through the LocalCommandRunner
 * in the chosen folder, under the same rules as a submission's commands, its progress cancellable.
 * Part of the lazy actions.
 */
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DownloadResult } from '../../../api/downloads';
import { errorMessage } from '../../../api/errors';
import { isTerminalJobState, type PullPlan } from '../../../model/job';
import type { TransferNode } from '../../../model/transferCommand';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { HostSeams } from '../../shared/hostSeams';
import type { JobActions } from './jobActions';
import type { JobFollowers } from './jobFollowers';
import type { LocalCommandRunner } from '../../shared/onUse/localCommands';
import { jobLabel } from '../jobsTree';
import { notices } from '../../shared/notices';

const LISTED = 30;

function size(n: number | undefined): string {
  if (n === undefined) return vscode.l10n.t('size unknown');
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export class JobPull {
  constructor(
    private readonly actions: JobActions,
    private readonly api: ApiService,
    private readonly prompts: () => Prompter,
    private readonly host: HostSeams,
    private readonly commands: LocalCommandRunner,
    private readonly followers: JobFollowers,
    /** Job id -> the folder of the job file it was run from in this window. */
    private readonly origins: ReadonlyMap<string, string>,
    /** The nodes of a cluster as a pull reaches them (the understood command's other side). */
    private readonly transferNodes: (clusterId: string) => Promise<readonly TransferNode[]>,
  ) {}

  /**
   * The default folder: `outputs/<job id>/` beside the job file when the job was run from this window
   * (outputs land next to the code that made them, and one folder per job means a pull never mixes or
   * overwrites another run's files), else the same under the first workspace folder (we do not know
   * which file it came from). Undefined without a workspace folder.
   */
  defaultFolder(jobId: string): string | undefined {
    const base = this.origins.get(jobId) ?? this.host.folders()[0];
    // The id comes from the service: one plain folder name, never a path (`..`, a separator, a drive).
    const name =
      jobId
        .replace(/[^A-Za-z0-9_.-]/g, '_')
        .replace(/^\.+$/, '_')
        .slice(0, 128) || '_';
    return base ? path.join(base, 'outputs', name) : undefined;
  }

  /** Resolves to what was downloaded (or the command's exit code, or what the service said when the job has
   *  no outputs), undefined when nothing was done. */
  async pull(arg: unknown): Promise<DownloadResult | { exitCode: number } | { nothing: string } | undefined> {
    const job = this.actions.resolve(arg);
    if (!job) return undefined;
    const label = jobLabel(job);
    const asked = await this.prompts().input({
      title: vscode.l10n.t('Pull Outputs of {0}', label),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: vscode.l10n.t('Folder to put the outputs in (created if missing)'),
      value: this.defaultFolder(job.id) ?? '',
      validate: (v) =>
        path.isAbsolute(v.trim()) ? undefined : vscode.l10n.t('Enter an absolute folder path.'),
    });
    if (asked.kind !== 'value') return undefined;
    const folder = asked.value.trim();
    let plan: PullPlan;
    const client = await this.api.client();
    const system =
      process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'darwin' : 'linux';
    try {
      // A running job's dry run has no files and no command: ask for the real answer (its rsync command).
      const dryRun = job.status === undefined || isTerminalJobState(job.status);
      plan = await client.jobs.pull(job.id, { system, dryRun });
      if (plan.kind === 'nothing' && dryRun) plan = await client.jobs.pull(job.id, { system, dryRun: false });
    } catch (e) {
      void notices.showErrorMessage(
        vscode.l10n.t('Could not pull the outputs of {0}: {1}', label, errorMessage(e)),
      );
      return undefined;
    }
    if (plan.kind === 'nothing') {
      const nothing = plan.message ?? vscode.l10n.t('Job {0} has no outputs.', label);
      void notices.showInformationMessage(nothing);
      return { nothing };
    }
    await mkdir(folder, { recursive: true });
    if (plan.kind === 'command') {
      const terminal = this.followers.terminal(vscode.l10n.t('{0} outputs', label));
      if (plan.message) terminal.append(plan.message);
      const nodes: readonly TransferNode[] = job.clusterId
        ? await this.transferNodes(job.clusterId).catch(() => [])
        : [];
      const command = plan.command;
      const r = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Pulling outputs of {0}', label),
          cancellable: true,
        },
        async (_progress, token) => {
          const ac = new AbortController();
          const cancel = token.onCancellationRequested(() => ac.abort());
          try {
            return await this.commands.run(command, folder, terminal, { nodes, signal: ac.signal });
          } finally {
            cancel.dispose();
          }
        },
      );
      return { exitCode: r.exitCode };
    }
    const paths = [...plan.files.keys()];
    const lines = paths.slice(0, LISTED).map((p) => `${p} (${size(plan.sizes.get(p))})`);
    if (paths.length > LISTED) lines.push(vscode.l10n.t('… and {0} more', paths.length - LISTED));
    const download = vscode.l10n.t('Download');
    const go = await this.prompts().confirm({
      message:
        paths.length === 1
          ? vscode.l10n.t('Download 1 file of job {0}?', label)
          : vscode.l10n.t('Download {0} files of job {1}?', paths.length, label),
      detail: vscode.l10n.t('Into {0}:\n\n{1}', folder, lines.join('\n')),
      actions: [download],
      modal: true,
    });
    if (go !== download) return undefined;
    const replace = vscode.l10n.t('Replace');
    const replaceAllLabel = vscode.l10n.t('Replace All');
    let replaceAll = false;
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Pulling outputs of {0}', label),
        cancellable: true,
      },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        progress.report({ message: vscode.l10n.t('{0} of {1} files', 0, paths.length) });
        return client.jobs.download(plan.files, folder, {
          signal: ac.signal,
          onProgress: (p) =>
            progress.report({
              message: vscode.l10n.t('{0} of {1} files', p.done, p.total),
              increment: 100 / p.total,
            }),
          overwrite: async (p) => {
            if (replaceAll) return true;
            const a = await this.prompts().confirm({
              message: vscode.l10n.t('{0} exists in {1}. Replace it?', p, folder),
              actions: [replace, replaceAllLabel],
              modal: true,
            });
            replaceAll = a === replaceAllLabel;
            return a !== undefined;
          },
        });
      },
    );
    this.summarise(label, folder, result);
    return result;
  }

  private summarise(label: string, folder: string, r: DownloadResult): void {
    const parts = [vscode.l10n.t('{0} written', r.written.length)];
    if (r.skipped.length) parts.push(vscode.l10n.t('{0} kept (already there)', r.skipped.length));
    if (r.refused.length)
      parts.push(
        vscode.l10n.t(
          '{0} refused ({1})',
          r.refused.length,
          r.refused.map((x) => `${x.path}: ${x.reason}`).join('; '),
        ),
      );
    if (r.failed.length)
      parts.push(vscode.l10n.t('{0} failed ({1})', r.failed.length, r.failed.map((x) => x.path).join(', ')));
    const text = r.cancelled
      ? vscode.l10n.t('Outputs of {0} (cancelled): {1}.', label, parts.join(', '))
      : vscode.l10n.t('Outputs of {0}: {1}.', label, parts.join(', '));
    const bad = r.refused.length > 0 || r.failed.length > 0;
    const show = bad ? notices.showWarningMessage : notices.showInformationMessage;
    void show(text, vscode.l10n.t('Reveal Folder')).then((a) => {
      if (a) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(folder));
    });
  }
}
