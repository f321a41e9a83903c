/**
 * Wiring of the Object Storage section (called once by the composition root): its controller (the
 * storage keys in SecretStorage), the bucket browser's hooks and drag and drop, the view and its refresh.
 * The commands that act on buckets and objects load with the other actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { setupObjectBrowser } from '../objectBrowser';
import { ObjectStorageController } from './objectStorage';
import { ObjectStorageTreeProvider } from './objectStorageTree';

export interface ObjectStorageFeature {
  readonly controller: ObjectStorageController;
  readonly tree: ObjectStorageTreeProvider;
  readonly view: vscode.TreeView<unknown>;
}

export function setupObjectStorage(core: Core): ObjectStorageFeature {
  const controller = new ObjectStorageController(
    core.store,
    core.api,
    core.context.secrets,
    core.secrets,
    core.log,
  );
  const objects = setupObjectBrowser(core.context, {
    storage: controller,
    log: core.log,
    prompts: core.prompts,
  });
  const tree = new ObjectStorageTreeProvider(core.store, objects.hooks);
  const view = vscode.window.createTreeView('tensorpool.objectStorage', {
    treeDataProvider: tree,
    dragAndDropController: objects.dragAndDrop,
  });
  core.own(
    controller,
    tree,
    view,
    vscode.commands.registerCommand(Commands.refreshObjectStorage, () => controller.refresh()),
  );
  return { controller, tree, view };
}
