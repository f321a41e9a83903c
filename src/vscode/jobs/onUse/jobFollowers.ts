/**
 * Following jobs' logs: one follower per job, each a JobTerminal named after the job that streams
 * /job/listen/{id} (followJob: reconnects with backoff while the job is not terminal, never a push),
 * with the state in the terminal's title and in a status-bar item. Closing the terminal stops following,
 * never the job. At the end: a note in the terminal (which stays readable) and a notification with the
 * outcome and Show Metrics (when its log had metric lines) / Pull Outputs / Show in Jobs. The metric lines
 * (parsed in the log reader's thread) feed JobMetrics as they stream. Part of the lazily loaded actions.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../api/errors';
import type { FollowOutcome } from '../../../api/jobFollow';
import { jobSucceeded } from '../../../model/job';
import type { ApiService } from '../../shared/apiService';
import { Commands } from '../../shared/commands';
import type { JobsController } from '../jobs';
import type { JobMetrics } from './jobMetrics';
import { JobTerminal, type TerminalTap } from './jobTerminal';
import type { Log } from '../../shared/log';
import { readJobMetrics } from '../../shared/settings';
import { notices } from '../../shared/notices';

interface Follower {
  readonly terminal: JobTerminal;
  readonly ac: AbortController;
  readonly done: Promise<FollowOutcome | undefined>;
  state: string;
}

/** The job's final state as a word, from how following ended. */
function finalState(out: FollowOutcome): string | undefined {
  if (out.kind === 'success') return 'completed';
  if (out.kind === 'error') return 'failed';
  if (out.kind === 'ended') return out.status ?? 'ended';
  return undefined;
}

export class JobFollowers implements vscode.Disposable {
  private readonly active = new Map<string, Follower>();
  private status: vscode.StatusBarItem | undefined;

  constructor(
    private readonly api: ApiService,
    private readonly jobs: JobsController,
    private readonly log: Log,
    private readonly tap?: TerminalTap,
    /** Where the metric lines of the followed logs go (Show Metrics). */
    private readonly metrics?: JobMetrics,
  ) {}

  /** The job followed in `terminal` (a job terminal of this window), if any. */
  jobOf(terminal: vscode.Terminal | undefined): string | undefined {
    if (!terminal) return undefined;
    for (const [jobId, f] of this.active) if (f.terminal.terminal === terminal) return jobId;
    return undefined;
  }

  /** A new job terminal (e.g. for a submission, before the job has an id). */
  terminal(name: string): JobTerminal {
    return new JobTerminal(name, () => undefined, true, this.tap);
  }

  isFollowing(jobId: string): boolean {
    return this.active.has(jobId);
  }

  /**
   * Follow `jobId` in `existing` (a submission's terminal) or a new terminal; when it is followed already,
   * its terminal is shown instead. Resolves when following ends (undefined: stopped by closing).
   */
  follow(jobId: string, name: string, existing?: JobTerminal): Promise<FollowOutcome | undefined> {
    const current = this.active.get(jobId);
    if (current && !current.terminal.isClosed) {
      current.terminal.show();
      return current.done;
    }
    const ac = new AbortController();
    const terminal = existing && !existing.isClosed ? existing : this.terminal(name);
    terminal.setName(name);
    terminal.whenClosed(() => ac.abort());
    const follower: Follower = { terminal, ac, done: Promise.resolve(undefined), state: 'following' };
    const done = this.run(jobId, name, follower);
    this.active.set(jobId, { ...follower, done });
    return done;
  }

  private setState(jobId: string, f: Follower, state: string): void {
    f.state = state;
    // The job's state as the service says it; 'following' (not known yet) is this extension's word.
    const shown = state === 'following' ? vscode.l10n.t('following') : state;
    f.terminal.setState(shown);
    const entry = this.active.get(jobId);
    if (entry) entry.state = state;
    this.showStatus(`${jobId}: ${shown}`);
  }

  private showStatus(text: string): void {
    if (this.active.size === 0) {
      this.status?.hide();
      return;
    }
    this.status ??= vscode.window.createStatusBarItem('tensorpool.job', vscode.StatusBarAlignment.Left, 9);
    this.status.name = vscode.l10n.t('TensorPool job');
    const more = this.active.size > 1 ? ` (+${this.active.size - 1})` : '';
    this.status.text = vscode.l10n.t('$(server-process) Job {0}{1}', text, more);
    this.status.tooltip = vscode.l10n.t('TensorPool: following a job. Click to show the Jobs view.');
    this.status.command = 'tensorpool.jobs.focus';
    this.status.show();
  }

  private async run(jobId: string, name: string, f: Follower): Promise<FollowOutcome | undefined> {
    let out: FollowOutcome | undefined;
    const metrics = readJobMetrics() ? this.metrics?.feed(jobId) : undefined;
    try {
      const client = await this.api.client();
      const info = await client.jobs.info(jobId, { signal: f.ac.signal }).catch(() => undefined);
      this.setState(jobId, f, info?.job?.status ?? 'following');
      out = await client.jobs.follow(jobId, {
        signal: f.ac.signal,
        worker: true,
        onMetrics: metrics?.records,
        onMessage: (m) => {
          if (m.message !== undefined) f.terminal.append(m.message);
          if (f.state === 'pending' || f.state === 'following') this.setState(jobId, f, 'running');
        },
        onLines: (lines, count) => {
          f.terminal.appendLines(lines, count);
          if (f.state === 'pending' || f.state === 'following') this.setState(jobId, f, 'running');
        },
        onReconnect: (attempt, delayMs) =>
          f.terminal.note(
            delayMs === 0
              ? vscode.l10n.t('Connection to the log lost; the job has ended: reading the rest of its log…')
              : vscode.l10n.t(
                  'Connection to the log lost; reconnecting in {0} s (attempt {1})…',
                  Math.round(delayMs / 1000),
                  attempt,
                ),
          ),
      });
    } catch (e) {
      f.terminal.note(vscode.l10n.t('Stopped following: {0}', errorMessage(e)));
      this.log.warn(`Following job ${jobId} failed: ${errorMessage(e)}`);
    } finally {
      metrics?.end(out);
      // A follower started after this terminal was closed is not this one's to remove.
      if (this.active.get(jobId)?.terminal === f.terminal) this.active.delete(jobId);
      if (this.active.size === 0) this.status?.hide();
      this.jobs.refreshIfVisible();
    }
    if (!out || out.kind === 'cancelled') return out;
    const state = finalState(out);
    if (state) f.terminal.setState(state);
    this.announce(jobId, name, out, state, f.terminal);
    return out;
  }

  private announce(
    jobId: string,
    name: string,
    out: FollowOutcome,
    state: string | undefined,
    t: JobTerminal,
  ) {
    let text: string;
    if (state) {
      text =
        state === 'completed'
          ? vscode.l10n.t('Job {0} completed.', name)
          : vscode.l10n.t('Job {0} ended: {1}.', name, state);
      t.note(text);
    } else {
      text = vscode.l10n.t(
        'Stopped following job {0}: {1}',
        name,
        out.kind === 'refused' ? out.reason : out.kind === 'gave-up' ? out.reason : '',
      );
      t.note(text);
    }
    const ok = jobSucceeded(state);
    const show = ok === false ? notices.showWarningMessage : notices.showInformationMessage;
    const pull = vscode.l10n.t('Pull Outputs');
    const showInJobs = vscode.l10n.t('Show in Jobs');
    const showMetrics = vscode.l10n.t('Show Metrics');
    const hasMetrics = (this.metrics?.get(jobId)?.store.series().length ?? 0) > 0;
    const actions = hasMetrics ? [showMetrics, pull, showInJobs] : [pull, showInJobs];
    // the job's name, state and the service's reason are the service's words: no link in the notification
    void show(text, ...actions).then((a) => {
      if (a === showMetrics) void vscode.commands.executeCommand(Commands.showMetrics, jobId);
      if (a === pull) void vscode.commands.executeCommand(Commands.pullJobOutputs, jobId);
      if (a === showInJobs) void vscode.commands.executeCommand('tensorpool.jobs.focus');
    });
  }

  dispose(): void {
    for (const f of this.active.values()) f.ac.abort();
    this.active.clear();
    this.status?.dispose();
  }
}
