// The entry file of the Volumes section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { VolumesFeature } from './volumesSetup';
export { clusterVolumeItem } from './volumesTree';
export { VOLUMES_SECTION } from './volumesSetup';
