/**
 * What acts on one job from the Jobs view (or a job id): Follow Logs, Cancel (confirm, then wait for
 * `canceled` with a cancellable progress: stopping the wait never stops the cancel), Delete (ended jobs
 * only, confirm), Pull Outputs, Copy Job ID, Show Info. Cancel and delete are sent once, never retried.
 * Part of the lazily loaded actions.
 */
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError } from '../../../api/errors';
import { isTerminalJobState, jobStateKind, type Job } from '../../../model/job';
import { outcomeUnknown } from '../../../model/outcome';
import type { Prompter } from '../../../wizards/prompter';
import type { ApiService } from '../../shared/apiService';
import type { JobFollowers } from './jobFollowers';
import type { JobsController } from '../jobs';
import type { Log } from '../../shared/log';
import type { MetricsPanels, MetricsPanelState } from './metricsPanel';
import { jobLabel, type JobNode } from '../jobsTree';
import { notices } from '../../shared/notices';

const POLL_MS = 1000;
const WAIT_LIMIT_MS = 10 * 60_000;

export class JobActions {
  constructor(
    private readonly jobs: JobsController,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    private readonly followers: JobFollowers,
    private readonly panels: MetricsPanels,
  ) {}

  /** The job a command is about: a tree node, a job id, or undefined (then the user is told). */
  resolve(arg: unknown): Job | undefined {
    const node = arg as JobNode | undefined;
    if (node && typeof node === 'object' && node.kind === 'job')
      return this.jobs.find(node.job.id) ?? node.job;
    if (typeof arg === 'string' && arg.trim())
      return (
        this.jobs.find(arg) ?? {
          id: arg,
          status: undefined,
          clusterId: undefined,
          name: undefined,
          createdAt: undefined,
        }
      );
    void notices.showErrorMessage(vscode.l10n.t('Pick a job in the Jobs view first.'));
    return undefined;
  }

  /** Show Metrics: the job given (a Jobs row, an id), else the one followed in the active terminal (the
   *  terminal's title menu), else one picked. */
  async showMetrics(arg: unknown): Promise<MetricsPanelState | undefined> {
    let job: Job | undefined;
    const node = arg as JobNode | undefined;
    if (typeof arg === 'string' || (node && typeof node === 'object' && node.kind === 'job'))
      job = this.resolve(arg);
    else {
      // The terminal title menu may pass the terminal; else the active one.
      const terminal = vscode.window.terminals.find((t) => t === arg) ?? vscode.window.activeTerminal;
      const followed = this.followers.jobOf(terminal);
      job = followed ? (this.jobs.find(followed) ?? this.resolve(followed)) : await this.pickJob();
    }
    if (!job) return undefined;
    return this.panels.show(job.id, jobLabel(job)).state();
  }

  private async pickJob(): Promise<Job | undefined> {
    const jobs = this.jobs.jobs;
    if (jobs.length === 0) {
      void notices.showInformationMessage(vscode.l10n.t('There are no jobs to show metrics for.'));
      return undefined;
    }
    const answer = await this.prompts().pick<Job>({
      title: vscode.l10n.t('Show Metrics'),
      step: 1,
      totalSteps: 1,
      canGoBack: false,
      placeholder: vscode.l10n.t('Which job?'),
      items: jobs.map((j) => ({ label: jobLabel(j), description: j.status, value: j })),
    });
    return answer.kind === 'value' ? answer.value : undefined;
  }

  follow(arg: unknown): Promise<unknown> {
    const job = this.resolve(arg);
    return job ? this.followers.follow(job.id, jobLabel(job)) : Promise.resolve(undefined);
  }

  async copyId(arg: unknown): Promise<string | undefined> {
    const job = this.resolve(arg);
    if (!job) return undefined;
    await vscode.env.clipboard.writeText(job.id);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied job ID {0}', job.id), 3000);
    return job.id;
  }

  /** The service's text about the job, in a read-only editor. */
  async showInfo(arg: unknown): Promise<string | undefined> {
    const job = this.resolve(arg);
    if (!job) return undefined;
    try {
      const info = await (await this.api.client()).jobs.info(job.id);
      const text = info.message ?? JSON.stringify(info.job ?? {}, undefined, 2);
      const doc = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
      await vscode.window.showTextDocument(doc, { preview: true });
      return text;
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Could not read job {0}: {1}', job.id, errorMessage(e)));
      return undefined;
    }
  }

  /** Cancel after a confirm, then wait for `canceled`. Resolves to the last state seen (undefined: not sent). */
  async cancel(arg: unknown): Promise<string | undefined> {
    const job = this.resolve(arg);
    if (!job) return undefined;
    const label = jobLabel(job);
    const cancelJob = vscode.l10n.t('Cancel Job');
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t('Cancel job {0}?', label),
      detail: vscode.l10n.t('The job stops on its cluster; its log and the outputs written so far are kept.'),
      actions: [cancelJob],
      modal: true,
      severity: 'warning',
    });
    if (answer !== cancelJob) return undefined;
    const client = await this.api.client();
    try {
      await client.jobs.cancel(job.id);
    } catch (e) {
      // A lost answer is not a refusal: the cancel may have happened (it is never sent again by itself).
      const unknown = isTensorPoolError(e) && outcomeUnknown(e.kind, e.mayHaveReachedServer);
      void notices.showErrorMessage(
        unknown
          ? vscode.l10n.t(
              'Could not cancel job {0}: {1} The request may have reached TensorPool: check the Jobs view before trying again.',
              label,
              errorMessage(e),
            )
          : vscode.l10n.t('Could not cancel job {0}: {1}', label, errorMessage(e)),
      );
      if (unknown) this.jobs.refreshIfVisible();
      return undefined;
    }
    this.jobs.refreshIfVisible();
    const state = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Canceling job {0}', label),
        cancellable: true,
      },
      async (progress, token) => {
        const deadline = Date.now() + WAIT_LIMIT_MS;
        let status: string | undefined = 'canceling';
        while (!token.isCancellationRequested && Date.now() < deadline) {
          status = (await client.jobs.info(job.id).catch(() => undefined))?.job?.status ?? status;
          progress.report({ message: status });
          if (isTerminalJobState(status)) break;
          await new Promise((r) => setTimeout(r, POLL_MS));
        }
        return status;
      },
    );
    this.jobs.refreshIfVisible();
    if (jobStateKind(state) === 'canceled')
      void notices.showInformationMessage(vscode.l10n.t('Job {0} was canceled.', label));
    else if (isTerminalJobState(state))
      void notices.showInformationMessage(
        vscode.l10n.t('Job {0} ended before the cancel took effect: {1}.', label, state ?? ''),
      );
    else this.log.info(`Stopped waiting for job ${job.id} to be canceled (${state ?? 'unknown'}).`);
    return state;
  }

  /** Delete an ended job after a confirm. Resolves to whether it was deleted. */
  async delete(arg: unknown): Promise<boolean> {
    const job = this.resolve(arg);
    if (!job) return false;
    const label = jobLabel(job);
    if (job.status !== undefined && !isTerminalJobState(job.status)) {
      void notices.showErrorMessage(
        vscode.l10n.t(
          'Job {0} is {1}: only an ended job can be deleted. Cancel it first.',
          label,
          job.status,
        ),
      );
      return false;
    }
    const del = vscode.l10n.t('Delete');
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t('Delete job {0}?', label),
      detail: vscode.l10n.t(
        'Its record, log and outputs are removed from TensorPool. This cannot be undone.',
      ),
      actions: [del],
      modal: true,
      severity: 'warning',
    });
    if (answer !== del) return false;
    try {
      await (await this.api.client()).jobs.delete(job.id);
    } catch (e) {
      void notices.showErrorMessage(vscode.l10n.t('Could not delete job {0}: {1}', label, errorMessage(e)));
      return false;
    }
    await this.jobs.refresh();
    return true;
  }
}
