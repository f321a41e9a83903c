/**
 * The wiring a Mine / Organisation list view shares (Volumes, Jobs, SSH Keys): refresh, the two scope commands and
 * their context key, "open the service's text", refresh on sign-in and when the view shows, clear on
 * sign-out, and re-arming the automatic refresh when the view hides or the interval setting changes.
 */
import * as vscode from 'vscode';
import type { ContextKeys } from './contextKeys';
import { affectsRefreshInterval } from './settings';
import { isNewSignIn, type Store } from './store';
import type { ViewedList } from './viewedList';

/** Create the view `id` over `tree`, owned (with the controller and the tree) by the extension context. */
export function createListView<N>(
  context: vscode.ExtensionContext,
  store: Store,
  id: string,
  controller: ViewedList<{ readonly message: string | undefined }>,
  tree: vscode.TreeDataProvider<N> & vscode.Disposable,
  o: ListViewOptions,
): vscode.TreeView<N> {
  const view = vscode.window.createTreeView(id, { treeDataProvider: tree });
  controller.isVisible = () => view.visible;
  context.subscriptions.push(controller, tree, view, ...wireListView(store, view, controller, o));
  return view;
}

interface ListViewOptions {
  readonly contextKeys: ContextKeys;
  readonly scopeKey:
    'tensorpool.volumesIncludeOrg' | 'tensorpool.jobsIncludeOrg' | 'tensorpool.sshKeysIncludeOrg';
  /** Command ids: refresh, show mine, show the organisation's, open the list text. */
  readonly commands: readonly [string, string, string, string];
}

function wireListView(
  store: Store,
  view: vscode.TreeView<unknown>,
  controller: ViewedList<{ readonly message: string | undefined }>,
  o: ListViewOptions,
): vscode.Disposable[] {
  const [refresh, mine, org, text] = o.commands;
  const setScope = (includeOrg: boolean) => o.contextKeys.set(o.scopeKey, includeOrg);
  const scope = (includeOrg: boolean) =>
    controller.setIncludeOrg(includeOrg).then(() => setScope(includeOrg));
  setScope(controller.includeOrg);
  // The organisation details arriving after a sign-in load nothing again.
  let before = store.account;
  return [
    vscode.commands.registerCommand(refresh, () => controller.refresh()),
    vscode.commands.registerCommand(mine, () => scope(false)),
    vscode.commands.registerCommand(org, () => scope(true)),
    vscode.commands.registerCommand(text, async () => {
      const doc = await vscode.workspace.openTextDocument({
        content: controller.data?.message ?? '',
        language: 'plaintext',
      });
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    store.onDidChange((topic) => {
      if (topic !== 'account') return;
      const signedIn = isNewSignIn(before, store.account);
      before = store.account;
      if (signedIn && view.visible) void controller.refresh();
      else if (store.account.kind === 'signedOut') controller.clear();
    }),
    view.onDidChangeVisibility((e) => {
      if (e.visible && store.account.kind === 'signedIn') void controller.refresh();
      else controller.reschedule();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsRefreshInterval(e)) controller.reschedule();
    }),
  ];
}
