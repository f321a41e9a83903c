/**
 * Wiring of the Jobs view (called once by the composition root): its controller, the list commands,
 * the scope context key, and refresh on visibility / sign-in. Running, following and acting on jobs
 * load with the other actions (actionCommands.ts, jobRun.ts, jobActions.ts).
 */
import * as vscode from 'vscode';
import type { ApiService } from './apiService';
import { Commands } from './commands';
import type { ContextKeys } from './contextKeys';
import { JobsController } from './jobs';
import type { Log } from './log';
import { affectsRefreshInterval } from './settings';
import type { Store } from './store';
import type { StoredState } from './storedState';
import { JobsTreeProvider, type JobNode } from './views/jobsTree';

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
  const view = vscode.window.createTreeView('tensorpool.jobs', { treeDataProvider: tree });
  controller.isVisible = () => view.visible;
  const setScope = (includeOrg: boolean) => deps.contextKeys.set('tensorpool.jobsIncludeOrg', includeOrg);
  const command = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);
  setScope(controller.includeOrg);

  context.subscriptions.push(
    controller,
    tree,
    view,
    command(Commands.refreshJobs, () => controller.refresh()),
    command(Commands.showJobsMine, () => controller.setIncludeOrg(false).then(() => setScope(false))),
    command(Commands.showJobsOrganization, () => controller.setIncludeOrg(true).then(() => setScope(true))),
    command(Commands.showJobListText, async () => {
      const doc = await vscode.workspace.openTextDocument({
        content: controller.data?.message ?? '',
        language: 'plaintext',
      });
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    store.onDidChange((topic) => {
      if (topic !== 'account') return;
      if (store.account.kind === 'signedIn' && view.visible) void controller.refresh();
      else if (store.account.kind === 'signedOut') controller.clear();
    }),
    view.onDidChangeVisibility((e) => {
      if (e.visible && store.account.kind === 'signedIn') void controller.refresh();
      else controller.reschedule();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsRefreshInterval(e)) controller.reschedule();
    }),
  );
  return { controller, tree, view };
}
