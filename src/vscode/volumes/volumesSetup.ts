/**
 * Wiring of the storage-volume feature (called once by the composition root): the Volumes view,
 * its controller, the list commands, context keys, and refresh on visibility / sign-in. The commands
 * that act on a volume (create, edit, attach…) load with the other actions (actionCommands.ts).
 */
import type * as vscode from 'vscode';
import type { AttachedVolume } from '../../model/volume';
import type { ApiService } from '../shared/apiService';
import { Commands } from '../shared/commands';
import type { ContextKeys } from '../shared/contextKeys';
import type { Log } from '../shared/log';
import { createListView } from '../shared/listViewSetup';
import type { Store } from '../shared/store';
import type { StoredState } from '../shared/storedState';
import { VolumesController } from './volumes';
import { VolumesTreeProvider } from './volumesTree';

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
  },
): VolumesFeature {
  const { store, api, log } = deps;
  const controller = new VolumesController(store, api, deps.state, log);
  const tree = new VolumesTreeProvider(store, controller);
  createListView(context, store, 'tensorpool.volumes', controller, tree, {
    contextKeys: deps.contextKeys,
    scopeKey: 'tensorpool.volumesIncludeOrg',
    commands: [
      Commands.refreshVolumes,
      Commands.showVolumesMine,
      Commands.showVolumesOrganization,
      Commands.showVolumeListText,
    ],
  });
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
