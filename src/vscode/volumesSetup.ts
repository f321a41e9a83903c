/**
 * Wiring of the storage-volume feature (called once by the composition root): the Volumes view,
 * its controller, the list commands, context keys, and refresh on visibility / sign-in. The commands
 * that act on a volume (create, edit, attach…) load with the other actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import type { AttachedVolume } from '../model/volume';
import type { ApiService } from './apiService';
import { Commands } from './commands';
import type { ContextKeys } from './contextKeys';
import type { Log } from './log';
import { affectsRefreshInterval } from './settings';
import type { Store } from './store';
import type { StoredState } from './storedState';
import { VolumesController } from './volumes';
import { VolumesTreeProvider } from './views/volumesTree';

export interface VolumesFeature {
  readonly controller: VolumesController;
  readonly tree: VolumesTreeProvider;
  /** Volumes attached to a cluster, from the Volumes list (when cluster records do not say). */
  attachedTo(clusterId: string): AttachedVolume[];
}

export function setupVolumes(
  context: vscode.ExtensionContext,
  deps: {
    store: Store;
    api: ApiService;
    log: Log;
    state: StoredState;
    contextKeys: ContextKeys;
    onVolumesChanged: () => void;
  },
): VolumesFeature {
  const { store, api, log } = deps;
  const controller = new VolumesController(store, api, deps.state, log);
  const tree = new VolumesTreeProvider(store, controller);
  const view = vscode.window.createTreeView('tensorpool.volumes', { treeDataProvider: tree });
  controller.isVisible = () => view.visible;
  const setScope = (includeOrg: boolean) => deps.contextKeys.set('tensorpool.volumesIncludeOrg', includeOrg);
  const command = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);
  setScope(controller.includeOrg);

  context.subscriptions.push(
    controller,
    tree,
    view,
    command(Commands.refreshVolumes, () => controller.refresh()),
    command(Commands.showVolumesMine, () => controller.setIncludeOrg(false).then(() => setScope(false))),
    command(Commands.showVolumesOrganization, () =>
      controller.setIncludeOrg(true).then(() => setScope(true)),
    ),
    command(Commands.showVolumeListText, async () => {
      const doc = await vscode.workspace.openTextDocument({
        content: controller.data?.message ?? '',
        language: 'plaintext',
      });
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    controller.onDidChange(deps.onVolumesChanged),
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

  return {
    controller,
    tree,
    attachedTo: (clusterId) =>
      controller.volumes
        .filter((v) => v.attachments.some((a) => a.clusterId === clusterId))
        .map((v) => ({
          id: v.id,
          name: v.name,
          sizeGb: v.sizeGb,
          status: v.attachments.find((a) => a.clusterId === clusterId)?.status,
        })),
  };
}
