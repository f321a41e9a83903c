// The entry file of the Volumes section for what loads on first use: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export { VolumeActions } from './volumeActions';
export { VolumeAttach } from './volumeAttach';
export { VOLUME_OP_MESSAGES } from './volumeMessages';
