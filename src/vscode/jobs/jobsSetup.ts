/**
 * Wiring of the Jobs view (called once by the composition root): its controller, the list commands,
 * the scope context key, and refresh on visibility / sign-in. Running, following and acting on jobs
 * load with the other actions (actionCommands.ts, jobRun.ts, jobActions.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { JobsController } from './jobs';
import { createListView } from '../shared/listViewSetup';
import { JobsTreeProvider, type JobNode } from './jobsTree';

export interface JobsFeature {
  readonly controller: JobsController;
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobNode>;
}

export function setupJobs(core: Core): JobsFeature {
  const controller = new JobsController(core.store, core.api, core.state, core.log);
  const tree = new JobsTreeProvider(core.store, controller);
  const view = createListView(core, 'tensorpool.jobs', controller, tree, {
    scopeKey: 'tensorpool.jobsIncludeOrg',
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
