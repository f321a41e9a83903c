/**
 * Wiring of the Object Storage section (called once by the composition root): its controller (the
 * storage keys in SecretStorage), the bucket browser's hooks and drag and drop, the view, its refresh (on
 * sign-in and when shown, never on a timer: the storage changes only through the user) and context key.
 * The commands that act on buckets and objects load with the other actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { setupObjectBrowser } from '../objectBrowser';
import { ObjectStorageController } from './objectStorage';
import { ObjectStorageTreeProvider } from './objectStorageTree';
import { isNewSignIn } from '../shared/store';

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
  const { store, contextKeys } = core;
  const setKey = () => contextKeys.set('tensorpool.objectStorage', store.objectStorage.kind);
  setKey();
  let account = store.account;
  core.own(
    controller,
    tree,
    view,
    vscode.commands.registerCommand(Commands.refreshObjectStorage, () => controller.refresh()),
    store.onDidChange((topic) => {
      if (topic === 'objectStorage') setKey();
      if (topic !== 'account') return;
      const signedIn = isNewSignIn(account, store.account);
      account = store.account;
      if (signedIn && view.visible) void controller.refresh();
      else if (store.account.kind === 'signedOut') controller.clear();
    }),
    view.onDidChangeVisibility((e) => {
      if (e.visible && store.account.kind === 'signedIn') void controller.refresh();
    }),
  );
  return { controller, tree, view };
}
