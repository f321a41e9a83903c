/**
 * The wiring every list view shares (Clusters, Volumes, Jobs, SSH Keys): refresh, the two scope commands and
 * their context key (the controller's scope key, ScopedList.scopeKey), the text-only answer's document and the
 * command that opens it, refresh on sign-in and when the view shows, clear on sign-out, and re-arming the
 * automatic refresh when the view hides or the interval setting changes.
 */
import * as vscode from 'vscode';
import type { Core } from './extensionCore';
import { affectsRefreshInterval } from './settings';
import { isNewSignIn } from './store';
import type { ViewedList } from './viewedList';

type Listed = ViewedList<{ readonly message: string | undefined }>;

export interface ListViewOptions {
  /** Command ids: refresh, show mine, show the organisation's, open the list text. */
  readonly commands: readonly [string, string, string, string];
  /** The text-only answer's document name ("Volume list.txt": `tensorpool:/Volume list.txt`). */
  readonly textDocument: string;
  readonly showCollapseAll?: boolean;
}

/** Create the view `id` over `tree`, owned (with the controller and the tree) by the extension. */
export function createListView<N>(
  core: Core,
  id: string,
  controller: Listed,
  tree: vscode.TreeDataProvider<N> & vscode.Disposable,
  o: ListViewOptions,
): vscode.TreeView<N> {
  const view = vscode.window.createTreeView(id, {
    treeDataProvider: tree,
    showCollapseAll: o.showCollapseAll,
  });
  controller.isVisible = () => view.visible;
  core.own(
    controller,
    tree,
    view,
    core.listings.add(o.textDocument, () => controller.data?.message, controller.onDidChange),
    ...wireListView(core, view, controller, o),
  );
  return view;
}

function wireListView(
  { store, contextKeys, listings }: Core,
  view: vscode.TreeView<unknown>,
  controller: Listed,
  o: ListViewOptions,
): vscode.Disposable[] {
  const [refresh, mine, org, text] = o.commands;
  const setScope = (includeOrg: boolean) => contextKeys.set(controller.scopeKey, includeOrg);
  const scope = (includeOrg: boolean) =>
    controller.setIncludeOrg(includeOrg).then(() => setScope(includeOrg));
  setScope(controller.includeOrg);
  // The organisation details arriving after a sign-in load nothing again.
  let before = store.account;
  return [
    vscode.commands.registerCommand(refresh, () => controller.refresh()),
    vscode.commands.registerCommand(mine, () => scope(false)),
    vscode.commands.registerCommand(org, () => scope(true)),
    vscode.commands.registerCommand(text, () => listings.show(o.textDocument)),
    store.onDidChange((topic) => {
      if (topic !== 'account') return;
      const signedIn = isNewSignIn(before, store.account);
      before = store.account;
      if (signedIn) controller.signedIn();
      else if (store.account.kind === 'signedOut') controller.signedOut();
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
