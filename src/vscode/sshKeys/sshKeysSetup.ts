/**
 * Wiring of the SSH Keys section (called once by the composition root): its controller, view and list
 * commands. Adding and removing a key load with the other actions (actionCommands.ts); Mine / Organisation
 * is the session's (session.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { SshKeysController } from './sshKeys';
import { SshKeysTreeProvider } from './sshKeysTree';

export interface SshKeysFeature {
  readonly controller: SshKeysController;
  readonly tree: SshKeysTreeProvider;
  readonly view: vscode.TreeView<unknown>;
}

export function setupSshKeys(core: Core): SshKeysFeature {
  const controller = new SshKeysController(core.store, core.api, core.state, core.log);
  const tree = new SshKeysTreeProvider(core.store, (k) => controller.isMine(k));
  const view = vscode.window.createTreeView('tensorpool.sshKeys', { treeDataProvider: tree });
  core.own(
    tree,
    view,
    vscode.commands.registerCommand(Commands.refreshSshKeys, () => controller.refresh()),
    vscode.commands.registerCommand(Commands.showSshKeysText, () => controller.showText()),
  );
  return { controller, tree, view };
}
