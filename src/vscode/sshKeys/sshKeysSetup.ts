/**
 * Wiring of the SSH Keys section (called once by the composition root): its controller, view, list
 * commands and Mine / Organisation (listViewSetup.ts, like Volumes and Jobs), and the background listing
 * of the user's own keys after each sign-in, so the create wizard's key step needs no request. Adding and
 * removing a key load with the other actions (actionCommands.ts).
 */
import type * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { isNewSignIn } from '../shared/store';
import { createListView } from '../shared/listViewSetup';
import { SshKeysController } from './sshKeys';
import { SshKeysTreeProvider } from './sshKeysTree';

export interface SshKeysFeature {
  readonly controller: SshKeysController;
  readonly tree: SshKeysTreeProvider;
  readonly view: vscode.TreeView<unknown>;
}

export function setupSshKeys(core: Core): SshKeysFeature {
  const { store } = core;
  const controller = new SshKeysController(store, core.api, core.state, core.log);
  const tree = new SshKeysTreeProvider(store, controller);
  const view = createListView(core.context, store, 'tensorpool.sshKeys', controller, tree, {
    contextKeys: core.contextKeys,
    scopeKey: 'tensorpool.sshKeysIncludeOrg',
    commands: [
      Commands.refreshSshKeys,
      Commands.showSshKeysMine,
      Commands.showSshKeysOrganization,
      Commands.showSshKeysText,
    ],
  });
  let before = store.account;
  core.own(
    store.onDidChange((topic) => {
      if (topic !== 'account') return;
      if (isNewSignIn(before, store.account)) void controller.prefetch();
      before = store.account;
    }),
  );
  return { controller, tree, view };
}
