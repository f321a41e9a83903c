/**
 * What acts on one job from the Jobs view (or a job id): Follow Logs, Cancel (confirm, then wait for
 * `canceled` with a cancellable progress: stopping the wait never stops the cancel), Delete (ended jobs
 * only, confirm), Pull Outputs, Copy Job ID, Show Info. Cancel and delete are sent once, never retried.
 * Part of the lazily loaded actions.
 */
import * as vscode from 'vscode';
import { errorMessage, isTensorPoolError } from '../api/errors';
import { isTerminalJobState, jobStateKind, type Job } from '../model/job';
import { outcomeUnknown } from '../model/outcome';
import type { Prompter } from '../wizards/prompter';
import type { ApiService } from './apiService';
import type { JobFollowers } from './jobFollowers';
import type { JobsController } from './jobs';
import type { Log } from './log';
import { jobLabel, type JobNode } from './views/jobsTree';

const POLL_MS = 1000;
const WAIT_LIMIT_MS = 10 * 60_000;

export class JobActions {
  constructor(
    private readonly jobs: JobsController,
    private readonly api: ApiService,
    private readonly log: Log,
    private readonly prompts: () => Prompter,
    private readonly followers: JobFollowers,
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
    void vscode.window.showErrorMessage('Pick a job in the Jobs view first.');
    return undefined;
  }

  follow(arg: unknown): Promise<unknown> {
    const job = this.resolve(arg);
    return job ? this.followers.follow(job.id, jobLabel(job)) : Promise.resolve(undefined);
  }

  async copyId(arg: unknown): Promise<string | undefined> {
    const job = this.resolve(arg);
    if (!job) return undefined;
    await vscode.env.clipboard.writeText(job.id);
    void vscode.window.setStatusBarMessage(`Copied job ID ${job.id}`, 3000);
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
      void vscode.window.showErrorMessage(`Could not read job ${job.id}: ${errorMessage(e)}`);
      return undefined;
    }
  }

  /** Cancel after a confirm, then wait for `canceled`. Resolves to the last state seen (undefined: not sent). */
  async cancel(arg: unknown): Promise<string | undefined> {
    const job = this.resolve(arg);
    if (!job) return undefined;
    const label = jobLabel(job);
    const answer = await this.prompts().confirm({
      message: `Cancel job ${label}?`,
      detail: 'The job stops on its cluster; its log and the outputs written so far are kept.',
      actions: ['Cancel Job'],
      modal: true,
      severity: 'warning',
    });
    if (answer !== 'Cancel Job') return undefined;
    const client = await this.api.client();
    try {
      await client.jobs.cancel(job.id);
    } catch (e) {
      // A lost answer is not a refusal: the cancel may have happened (it is never sent again by itself).
      const unknown = isTensorPoolError(e) && outcomeUnknown(e.kind, e.mayHaveReachedServer);
      const extra = unknown
        ? ' The request may have reached TensorPool: check the Jobs view before trying again.'
        : '';
      void vscode.window.showErrorMessage(`Could not cancel job ${label}: ${errorMessage(e)}${extra}`);
      if (unknown) this.jobs.refreshIfVisible();
      return undefined;
    }
    this.jobs.refreshIfVisible();
    const state = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Canceling job ${label}`,
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
      void vscode.window.showInformationMessage(`Job ${label} was canceled.`);
    else if (isTerminalJobState(state))
      void vscode.window.showInformationMessage(
        `Job ${label} ended before the cancel took effect: ${state}.`,
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
      void vscode.window.showErrorMessage(
        `Job ${label} is ${job.status}: only an ended job can be deleted. Cancel it first.`,
      );
      return false;
    }
    const answer = await this.prompts().confirm({
      message: `Delete job ${label}?`,
      detail: 'Its record, log and outputs are removed from TensorPool. This cannot be undone.',
      actions: ['Delete'],
      modal: true,
      severity: 'warning',
    });
    if (answer !== 'Delete') return false;
    try {
      await (await this.api.client()).jobs.delete(job.id);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not delete job ${label}: ${errorMessage(e)}`);
      return false;
    }
    await this.jobs.refresh();
    return true;
  }
}
