/** The Volumes section's command ids (shared/commands.ts, featureCommands; package.json contributes them). */
import { featureCommands } from '../shared/commands';

export const VolumeCommands = featureCommands([
  'refreshVolumes',
  'showVolumesMine',
  'showVolumesOrganization',
  'showVolumeListText',
  'createVolume',
  'editVolume',
  'attachVolume',
  'detachVolume',
  'destroyVolume',
  'copyMountPath',
  'copyVolumeId',
]);
