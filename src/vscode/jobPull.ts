/**
 * Pull Outputs: where (asked, with a default), what will come (the dry run's files with sizes, in a
 * confirm), then the download with a cancellable "n of N files" progress; existing files are replaced
 * only after asking. Paths that would leave the folder are refused by downloadOutputs (downloads.ts) and
 * reported. A running job's pull answers with a command (rsync): it runs through the LocalCommandRunner
 * in the chosen folder, under the same rules as a submission's commands. Part of the lazy actions.
 */
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DownloadResult } from '../api/downloads';
import { errorMessage } from '../api/errors';
import { isTerminalJobState, type PullPlan } from '../model/job';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import type { HostSeams } from './hostSeams';
import type { JobActions } from './jobActions';
import type { JobFollowers } from './jobFollowers';
import type { LocalCommandRunner } from './localCommands';
import { jobLabel } from './views/jobsTree';

export const DOWNLOAD = 'Download';
export const REPLACE = 'Replace';
export const REPLACE_ALL = 'Replace All';
const LISTED = 30;

function size(n: number | undefined): string {
  if (n === undefined) return 'size unknown';
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
  ) {}

  /**
   * The default folder: `outputs/<job id>/` beside the job file when the job was run from this window
   * (outputs land next to the code that made them, and one folder per job means a pull never mixes or
   * overwrites another run's files), else the same under the first workspace folder (we do not know
   * which file it came from). Undefined without a workspace folder.
   */
  defaultFolder(jobId: string): string | undefined {
    const base = this.origins.get(jobId) ?? this.host.folders()[0];
    return base ? path.join(base, 'outputs', jobId) : undefined;
  }

  /** Resolves to what was downloaded (or the command's exit code), undefined when nothing was done. */
  async pull(arg: unknown): Promise<DownloadResult | { exitCode: number } | undefined> {
    const job = this.actions.resolve(arg);
    if (!job) return undefined;
    const label = jobLabel(job);
    const asked = await this.prompts().input({
      title: `Pull Outputs of ${label}`,
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      prompt: 'Folder to put the outputs in (created if missing)',
      value: this.defaultFolder(job.id) ?? '',
      validate: (v) => (path.isAbsolute(v.trim()) ? undefined : 'Enter an absolute folder path.'),
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
      void vscode.window.showErrorMessage(`Could not pull the outputs of ${label}: ${errorMessage(e)}`);
      return undefined;
    }
    if (plan.kind === 'nothing') {
      void vscode.window.showInformationMessage(plan.message ?? `Job ${label} has no outputs.`);
      return undefined;
    }
    await mkdir(folder, { recursive: true });
    if (plan.kind === 'command') {
      const terminal = this.followers.terminal(`${label} outputs`);
      if (plan.message) terminal.append(plan.message);
      const r = await this.commands.run(plan.command, folder, terminal);
      return { exitCode: r.exitCode };
    }
    const paths = [...plan.files.keys()];
    const lines = paths.slice(0, LISTED).map((p) => `${p} (${size(plan.sizes.get(p))})`);
    if (paths.length > LISTED) lines.push(`… and ${paths.length - LISTED} more`);
    const go = await this.prompts().confirm({
      message: `Download ${paths.length} file${paths.length === 1 ? '' : 's'} of job ${label}?`,
      detail: `Into ${folder}:\n\n${lines.join('\n')}`,
      actions: [DOWNLOAD],
      modal: true,
    });
    if (go !== DOWNLOAD) return undefined;
    let replaceAll = false;
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Pulling outputs of ${label}`,
        cancellable: true,
      },
      (progress, token) => {
        const ac = new AbortController();
        token.onCancellationRequested(() => ac.abort());
        progress.report({ message: `0 of ${paths.length} files` });
        return client.jobs.download(plan.files, folder, {
          signal: ac.signal,
          onProgress: (p) =>
            progress.report({ message: `${p.done} of ${p.total} files`, increment: 100 / p.total }),
          overwrite: async (p) => {
            if (replaceAll) return true;
            const a = await this.prompts().confirm({
              message: `${p} exists in ${folder}. Replace it?`,
              actions: [REPLACE, REPLACE_ALL],
              modal: true,
            });
            replaceAll = a === REPLACE_ALL;
            return a !== undefined;
          },
        });
      },
    );
    this.summarise(label, folder, result);
    return result;
  }

  private summarise(label: string, folder: string, r: DownloadResult): void {
    const parts = [`${r.written.length} written`];
    if (r.skipped.length) parts.push(`${r.skipped.length} kept (already there)`);
    if (r.refused.length)
      parts.push(
        `${r.refused.length} refused (${r.refused.map((x) => `${x.path}: ${x.reason}`).join('; ')})`,
      );
    if (r.failed.length) parts.push(`${r.failed.length} failed (${r.failed.map((x) => x.path).join(', ')})`);
    const text = `Outputs of ${label}${r.cancelled ? ' (cancelled)' : ''}: ${parts.join(', ')}.`;
    const bad = r.refused.length > 0 || r.failed.length > 0;
    const show = bad ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(text, 'Reveal Folder').then((a) => {
      if (a) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(folder));
    });
  }
}
