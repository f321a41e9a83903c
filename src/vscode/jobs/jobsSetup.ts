/**
 * The Jobs section (its descriptor, JOBS_SECTION, is listed by the composition root): its view and controller,
 * the list commands, the scope's context key, and refresh on visibility / sign-in. Running, following and acting
 * on jobs are its table (jobCommands.ts), loaded on first use (onUse/jobRun.ts, jobActions.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { JOB_COMMANDS } from './jobCommands';
import { JobsController } from './jobs';
import { defineSection } from '../shared/listSection';
import { createListView } from '../shared/listViewSetup';
import { JobsTreeProvider, type JobNode } from './jobsTree';

export interface JobsFeature {
  readonly controller: JobsController;
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobNode>;
}

/** The Jobs section (app/features.ts lists it). */
export const JOBS_SECTION = defineSection({ name: 'jobs', setup: setupJobs, commands: JOB_COMMANDS });

function setupJobs(core: Core): JobsFeature {
  const controller = new JobsController(core.store, core.api, core.state, core.log);
  const tree = new JobsTreeProvider(core.store, controller);
  const view = createListView(core, 'tensorpool.jobs', controller, tree, {
    commands: [
      Commands.refreshJobs,
      Commands.showJobsMine,
      Commands.showJobsOrganization,
      Commands.showJobListText,
    ],
    textDocument: vscode.l10n.t('Job list.txt'),
  });
  return { controller, tree, view };
}
