// The entry file of the Volumes section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { VolumesController } from './volumes';
export type { VolumesFeature } from './volumesSetup';
export { clusterVolumeItem } from './volumesTree';
export type { VolumeNode } from './volumesTree';
export { VOLUME_COMMANDS } from './volumeCommands';
export { setupVolumes } from './volumesSetup';
