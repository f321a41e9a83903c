/**
 * The Jobs tree: a pure function of the jobs controller. Each job with its state icon, its name (or id),
 * and "state · cluster · started"; an error row with retry; when the service answered with text only,
 * a row that opens that text, then the jobs read from it (never an empty view hiding what the service
 * said). An empty list or signed out shows the view's welcome content (package.json viewsWelcome).
 * A job's Markdown tooltip is built when its row is hovered (resolveTreeItem).
 */
import * as vscode from 'vscode';
import { exitSignal, isTerminalJobState, jobStateKind, type Job, type JobStateKind } from '../../model/job';
import { exactTime, timeForRow } from '../../model/time';
import { Commands } from '../shared/commands';
import type { JobData, JobsController } from './jobs';
import type { Store } from '../shared/store';
import { ListTree, type ListRow, type ListTreeTexts } from '../shared/listTree';
import { code, fromTextNote, markdownLines, md, unknown } from '../shared/tooltipText';

type JobRow = { readonly kind: 'job'; readonly job: Job };
export type JobNode = JobRow | ListRow;

const STATE_ICON: Record<JobStateKind, [string, string | undefined]> = {
  pending: ['clock', 'charts.yellow'],
  running: ['sync~spin', 'charts.blue'],
  completed: ['pass', 'testing.iconPassed'],
  error: ['error', 'testing.iconFailed'],
  failed: ['error', 'testing.iconFailed'],
  canceling: ['loading~spin', 'charts.yellow'],
  canceled: ['circle-slash', undefined],
  unknown: ['question', undefined],
};

function jobIcon(status: string | undefined): vscode.ThemeIcon {
  const [id, color] = STATE_ICON[jobStateKind(status)];
  return new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
}

export function jobLabel(job: Pick<Job, 'id' | 'name'>): string {
  return job.name?.trim() ? job.name : job.id;
}

/** contextValue tags for menus (`viewItem =~ /\bterminal\b/`). */
function jobContext(job: Job): string {
  return ['job', jobStateKind(job.status), isTerminalJobState(job.status) ? 'terminal' : 'active'].join(' ');
}

function jobDescription(job: Job, now = Date.now()): string {
  const started = job.startedAt ?? job.createdAt;
  return [
    job.status ?? unknown(),
    job.clusterId,
    started ? timeForRow(started, now, vscode.env.language) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

function jobTooltip(job: Job): vscode.MarkdownString {
  const when = (t: string | undefined) => (t ? md(exactTime(t, vscode.env.language) ?? t) : undefined);
  return markdownLines([
    `**${md(jobLabel(job))}**`,
    '',
    vscode.l10n.t('- ID: `{0}`', code(job.id)),
    vscode.l10n.t('- State: {0}', md(job.status ?? unknown())),
    job.clusterId ? vscode.l10n.t('- Cluster: `{0}`', code(job.clusterId)) : undefined,
    job.createdAt ? vscode.l10n.t('- Submitted: {0}', when(job.createdAt)!) : undefined,
    job.startedAt ? vscode.l10n.t('- Started: {0}', when(job.startedAt)!) : undefined,
    job.endedAt ? vscode.l10n.t('- Ended: {0}', when(job.endedAt)!) : undefined,
    job.exitCode !== undefined
      ? exitSignal(job.exitCode)
        ? vscode.l10n.t('- Exit code: {0} (killed by {1})', job.exitCode, exitSignal(job.exitCode)!)
        : vscode.l10n.t('- Exit code: {0}', job.exitCode)
      : undefined,
    job.owner ? vscode.l10n.t('- Owner: {0}', md(job.owner)) : undefined,
    job.source === 'text' ? `\n_${fromTextNote()}_` : undefined,
  ]);
}

export class JobsTreeProvider extends ListTree<JobRow, JobData> {
  constructor(
    store: Store,
    private readonly jobs: JobsController,
  ) {
    super(store, jobs);
  }

  protected texts(): ListTreeTexts {
    return {
      errorTitle: vscode.l10n.t('Could not load jobs'),
      refreshCommand: Commands.refreshJobs,
      errorContext: 'error',
      loading: vscode.l10n.t('Loading jobs…'),
      listingTitle: vscode.l10n.t('Job list (text from the server)'),
      listingCommand: Commands.showJobListText,
      listingOpen: vscode.l10n.t('Open job list text'),
    };
  }

  protected listingText(data: JobData): string | undefined {
    return data.jobs === undefined ? (data.message ?? '') : undefined;
  }

  protected rows(): JobRow[] {
    return this.jobs.jobs.map((job) => ({ kind: 'job' as const, job }));
  }

  protected item(node: JobRow): vscode.TreeItem {
    const item = new vscode.TreeItem(jobLabel(node.job), vscode.TreeItemCollapsibleState.None);
    item.id = `job:${node.job.id}`;
    item.description = jobDescription(node.job);
    item.iconPath = jobIcon(node.job.status);
    item.contextValue = jobContext(node.job);
    return item;
  }

  /** The Markdown tooltip of a job row, built when the row is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: JobNode): vscode.TreeItem {
    if (node.kind === 'job') item.tooltip = jobTooltip(node.job);
    return item;
  }
}
