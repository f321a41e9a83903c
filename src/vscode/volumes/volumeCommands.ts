/** The Volumes section's commands whose work loads on first use (shared/commandTable.ts). */
import { Commands } from '../shared/commands';
import type { ActionCommand } from '../shared/commandTable';
import type { VolumeActions, VolumeAttach } from './onUse';

export const VOLUME_COMMANDS: readonly ActionCommand<{ volumes: VolumeActions; attach: VolumeAttach }>[] = [
  [Commands.createVolume, (a) => a.volumes.create()],
  [Commands.editVolume, (a, arg?: unknown) => a.volumes.edit(arg)],
  [Commands.destroyVolume, (a, arg?: unknown) => a.volumes.destroy(arg)],
  [Commands.attachVolume, (a, arg?: unknown) => a.attach.attach(arg)],
  [Commands.detachVolume, (a, arg?: unknown) => a.attach.detach(arg)],
  [Commands.copyMountPath, (a, arg?: unknown) => a.volumes.copyMountPath(arg)],
  [Commands.copyVolumeId, (a, arg?: unknown) => a.volumes.copyId(arg)],
];
