/** The Volumes section's commands whose work loads on first use (shared/commandTable.ts). */
import { VolumeCommands } from './commandIds';
import type { ActionCommand } from '../shared/commandTable';
import type { VolumeActions, VolumeAttach } from './onUse';

export const VOLUME_COMMANDS: readonly ActionCommand<{ volumes: VolumeActions; attach: VolumeAttach }>[] = [
  [VolumeCommands.createVolume, (a) => a.volumes.create()],
  [VolumeCommands.editVolume, (a, arg?: unknown) => a.volumes.edit(arg)],
  [VolumeCommands.destroyVolume, (a, arg?: unknown) => a.volumes.destroy(arg)],
  [VolumeCommands.attachVolume, (a, arg?: unknown) => a.attach.attach(arg)],
  [VolumeCommands.detachVolume, (a, arg?: unknown) => a.attach.detach(arg)],
  [VolumeCommands.copyMountPath, (a, arg?: unknown) => a.volumes.copyMountPath(arg)],
  [VolumeCommands.copyVolumeId, (a, arg?: unknown) => a.volumes.copyId(arg)],
];
