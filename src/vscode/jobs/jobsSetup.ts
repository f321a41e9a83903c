/**
 * Wiring of the Jobs view (called once by the composition root): its controller, the list commands,
 * the scope context key, and refresh on visibility / sign-in. Running, following and acting on jobs
 * load with the other actions (actionCommands.ts, jobRun.ts, jobActions.ts).
 */
import type * as vscode from 'vscode';
import type { ApiService } from '../shared/apiService';
import { Commands } from '../shared/commands';
import type { ContextKeys } from '../shared/contextKeys';
import { JobsController } from './jobs';
import type { Log } from '../shared/log';
import { createListView } from '../shared/listViewSetup';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import { JobsTreeProvider, type JobNode } from './jobsTree';

export interface JobsFeature {
  readonly controller: JobsController;
  readonly tree: JobsTreeProvider;
  readonly view: vscode.TreeView<JobNode>;
}

export function setupJobs(
  context: vscode.ExtensionContext,
  deps: { store: Store; api: ApiService; log: Log; state: StoredState; contextKeys: ContextKeys },
): JobsFeature {
  const { store } = deps;
  const controller = new JobsController(store, deps.api, deps.state, deps.log);
  const tree = new JobsTreeProvider(store, controller);
  const view = createListView(context, store, 'tensorpool.jobs', controller, tree, {
    contextKeys: deps.contextKeys,
    scopeKey: 'tensorpool.jobsIncludeOrg',
    commands: [
      Commands.refreshJobs,
      Commands.showJobsMine,
      Commands.showJobsOrganization,
      Commands.showJobListText,
    ],
  });
  return { controller, tree, view };
}
