// The entry file of the Object Storage section: another folder of src/vscode imports
// this folder's code only from here (eslint/layersRule.mjs).
export type { ObjectStorageController } from './objectStorage';
export type { ObjectStorageFeature } from './objectStorageSetup';
export type { StorageNode } from './objectStorageTree';
export { OBJECT_STORAGE_COMMANDS } from './objectStorageCommands';
export { setupObjectStorage } from './objectStorageSetup';
