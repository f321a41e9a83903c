/**
 * The SSH Keys section (its descriptor, SSH_KEYS_SECTION, is listed by the composition root): its controller,
 * view, list commands and Mine / Organisation (listViewSetup.ts, like the other sections). After each sign-in
 * the controller lists the user's own keys in the background, so the create wizard's key step needs no
 * request. Adding and removing a key are its table (sshKeyCommands.ts), loaded on first use.
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { defineSection } from '../shared/listSection';
import { createListView } from '../shared/listViewSetup';
import { SSH_KEY_COMMANDS } from './sshKeyCommands';
import { SshKeysController } from './sshKeys';
import { SshKeysTreeProvider, type SshKeyNode } from './sshKeysTree';

export interface SshKeysFeature {
  readonly controller: SshKeysController;
  readonly tree: SshKeysTreeProvider;
  readonly view: vscode.TreeView<SshKeyNode>;
}

/** The SSH Keys section (app/features.ts lists it). */
export const SSH_KEYS_SECTION = defineSection({
  name: 'sshKeys',
  setup: setupSshKeys,
  commands: SSH_KEY_COMMANDS,
});

function setupSshKeys(core: Core): SshKeysFeature {
  const controller = new SshKeysController(core.store, core.api, core.state, core.log);
  const tree = new SshKeysTreeProvider(core.store, controller);
  const view = createListView(core, 'tensorpool.sshKeys', controller, tree, {
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
