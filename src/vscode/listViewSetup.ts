/**
 * The wiring a Mine / Organisation list view shares (Volumes, Jobs): refresh, the two scope commands and
 * their context key, "open the service's text", refresh on sign-in and when the view shows, clear on
 * sign-out, and re-arming the automatic refresh when the view hides or the interval setting changes.
 */
import * as vscode from 'vscode';
import type { ContextKeys } from './contextKeys';
import { affectsRefreshInterval } from './settings';
import type { Store } from './store';

export interface ScopedListController {
  readonly includeOrg: boolean;
  refresh(): Promise<void>;
  setIncludeOrg(value: boolean): Promise<void>;
  reschedule(): void;
  clear(): void;
}

export function wireListView(
  store: Store,
  view: vscode.TreeView<unknown>,
  controller: ScopedListController,
  o: {
    readonly contextKeys: ContextKeys;
    readonly scopeKey: 'tensorpool.volumesIncludeOrg' | 'tensorpool.jobsIncludeOrg';
    /** Command ids: refresh, show mine, show the organisation's, open the list text. */
    readonly commands: readonly [string, string, string, string];
    readonly listText: () => string;
  },
): vscode.Disposable[] {
  const [refresh, mine, org, text] = o.commands;
  const setScope = (includeOrg: boolean) => o.contextKeys.set(o.scopeKey, includeOrg);
  const scope = (includeOrg: boolean) =>
    controller.setIncludeOrg(includeOrg).then(() => setScope(includeOrg));
  setScope(controller.includeOrg);
  return [
    vscode.commands.registerCommand(refresh, () => controller.refresh()),
    vscode.commands.registerCommand(mine, () => scope(false)),
    vscode.commands.registerCommand(org, () => scope(true)),
    vscode.commands.registerCommand(text, async () => {
      const doc = await vscode.workspace.openTextDocument({ content: o.listText(), language: 'plaintext' });
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
  ];
}
