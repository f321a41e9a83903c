/**
 * The Volumes section (its descriptor, VOLUMES_SECTION, is listed by the composition root): the Volumes view,
 * its controller, the list commands, the scope's context key, and refresh on visibility / sign-in. The commands
 * that act on a volume (create, edit, attach…) are its table (volumeCommands.ts), loaded on first use.
 */
import * as vscode from 'vscode';
import type { AttachedVolume } from '../../model/volume';
import { VolumeCommands } from './commandIds';
import type { Core } from '../shared/extensionCore';
import { defineSection } from '../shared/listSection';
import { createListView } from '../shared/listViewSetup';
import { VOLUME_COMMANDS } from './volumeCommands';
import { VolumesController } from './volumes';
import { VolumesTreeProvider, type VolumeNode } from './volumesTree';

export interface VolumesFeature {
  readonly controller: VolumesController;
  readonly tree: VolumesTreeProvider;
  readonly view: vscode.TreeView<VolumeNode>;
  /** Volumes attached to a cluster, from the Volumes list (when cluster records do not say). */
  attachedTo(clusterId: string): AttachedVolume[];
}

/** The Volumes section (app/features.ts lists it). */
export const VOLUMES_SECTION = defineSection({
  name: 'volumes',
  setup: setupVolumes,
  commands: VOLUME_COMMANDS,
});

function setupVolumes(core: Core): VolumesFeature {
  const controller = new VolumesController(core.store, core.api, core.state, core.log);
  const tree = new VolumesTreeProvider(core.store, controller);
  const view = createListView(core, 'tensorpool.volumes', controller, tree, {
    commands: [
      VolumeCommands.refreshVolumes,
      VolumeCommands.showVolumesMine,
      VolumeCommands.showVolumesOrganization,
      VolumeCommands.showVolumeListText,
    ],
    textDocument: vscode.l10n.t('Volume list.txt'),
  });
  return {
    controller,
    tree,
    view,
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
