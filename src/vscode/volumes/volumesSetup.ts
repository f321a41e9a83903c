/**
 * Wiring of the storage-volume feature (called once by the composition root): the Volumes view,
 * its controller, the list commands, context keys, and refresh on visibility / sign-in. The commands
 * that act on a volume (create, edit, attach…) load with the other actions (actionCommands.ts).
 */
import * as vscode from 'vscode';
import type { AttachedVolume } from '../../model/volume';
import { Commands } from '../shared/commands';
import type { Core } from '../shared/extensionCore';
import { createListView } from '../shared/listViewSetup';
import { VolumesController } from './volumes';
import { VolumesTreeProvider } from './volumesTree';

export interface VolumesFeature {
  readonly controller: VolumesController;
  readonly tree: VolumesTreeProvider;
  /** Volumes attached to a cluster, from the Volumes list (when cluster records do not say). */
  attachedTo(clusterId: string): AttachedVolume[];
}

export function setupVolumes(core: Core): VolumesFeature {
  const controller = new VolumesController(core.store, core.api, core.state, core.log);
  const tree = new VolumesTreeProvider(core.store, controller);
  createListView(core, 'tensorpool.volumes', controller, tree, {
    scopeKey: 'tensorpool.volumesIncludeOrg',
    commands: [
      Commands.refreshVolumes,
      Commands.showVolumesMine,
      Commands.showVolumesOrganization,
      Commands.showVolumeListText,
    ],
    textDocument: vscode.l10n.t('Volume list.txt'),
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
