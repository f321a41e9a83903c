/**
 * Wiring of the SSH Keys section (called once by the composition root): its controller, view, list
 * commands and Mine / Organisation (listViewSetup.ts, like the other sections). After each sign-in the
 * controller lists the user's own keys in the background, so the create wizard's key step needs no
 * request. Adding and removing a key load with the other actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { createListView } from '../shared/listViewSetup';
import { SshKeysController } from './sshKeys';
import { SshKeysTreeProvider } from './sshKeysTree';

export interface SshKeysFeature {
  readonly controller: SshKeysController;
  readonly tree: SshKeysTreeProvider;
  readonly view: vscode.TreeView<unknown>;
}

export function setupSshKeys(core: Core): SshKeysFeature {
  const controller = new SshKeysController(core.store, core.api, core.state, core.log);
  const tree = new SshKeysTreeProvider(core.store, controller);
  const view = createListView(core, 'tensorpool.sshKeys', controller, tree, {
    scopeKey: 'tensorpool.sshKeysIncludeOrg',
    commands: [
      Commands.refreshSshKeys,
      Commands.showSshKeysMine,
      Commands.showSshKeysOrganization,
      Commands.showSshKeysText,
    ],
    textDocument: vscode.l10n.t('SSH key list.txt'),
  });
  return { controller, tree, view };
}
